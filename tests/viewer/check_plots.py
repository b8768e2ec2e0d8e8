"""`tendril plot RUN --out DIR` writes the PNG files that docs/visualisation.md's plot table promises
for the given kinds of run (and no undocumented one), and they show data.

A PNG counts as non-trivial when matplotlib reads it back, it is at least 300 x 200 pixels, and
more than 1 % of its pixels are not background white, in more than 20 distinct colours (an empty
axes frame stays below both: about 0.5 % of pixels, 2 colours).
Usage: check_plots.py TENDRIL RUN_DIR OUT_DIR VISUALISATION_MD KIND...   (KIND as in the table's
"runs" column: rod, vine, rod with contact)
"""
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np

from documented import plots


def main(tendril, run_dir, out_dir, doc, *kinds):
    out_dir = Path(out_dir)
    documented = plots(doc)
    expected = [name for name, runs in documented.items() if runs & set(kinds)]
    assert expected, (kinds, documented)
    shutil.rmtree(out_dir, ignore_errors=True)
    try:
        printed = subprocess.run([tendril, "plot", run_dir, "--out", str(out_dir)], check=True,
                                 capture_output=True, text=True).stdout.split()
        undocumented = [p for p in printed if Path(p).name not in documented]
        assert not undocumented, f"plots not in {doc}: {undocumented}"
        for name in expected:
            png = out_dir / name
            assert str(png) in printed, (name, printed)
            image = mpimg.imread(png)[:, :, :3]
            h, w = image.shape[:2]
            assert w >= 300 and h >= 200, (name, w, h)
            inked = np.any(image < 0.98, axis=2)
            colours = len(np.unique((image[inked] * 255).astype(np.uint8), axis=0))
            print(f"{name}: {w}x{h}, {inked.mean():.1%} inked, {colours} colours")
            assert inked.mean() > 0.01 and colours > 20, name
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
