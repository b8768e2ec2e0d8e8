"""`tendril render RUN --png` draws the body: more than 1 % of the image's pixels differ from the
background (a blank frame, as a shell-only run once gave, fails). Real Chromium.
Usage: check_png_shows_body.py TENDRIL RUN_DIR OUT_PNG
"""
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np


def main(tendril, run_dir, png):
    try:
        subprocess.run([tendril, "render", run_dir, "--png", png, "--width", "320", "--height", "200"],
                       check=True)
        image = mpimg.imread(png)[:, :, :3]
        background = np.median(image.reshape(-1, 3), axis=0)
        drawn = np.any(np.abs(image - background) > 0.05, axis=2).mean()
        print(f"{Path(run_dir).name}: {drawn:.1%} of the pixels differ from the background")
        assert drawn > 0.01, drawn
    finally:
        Path(png).unlink(missing_ok=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
