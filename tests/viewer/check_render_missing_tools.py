"""`tendril render` when Chromium or ffmpeg cannot be started (docs/visualisation.md, "render"): the run
ends with exit 1, the message names the program that could not be started and its path, and says
what installs it; no image or video is left behind. The programs are pointed at a path that does
not exist (the options --chromium / --ffmpeg).
Usage: check_render_missing_tools.py TENDRIL RUN_DIR OUT_DIR
"""
import shutil
import subprocess
import sys
from pathlib import Path


def render(tendril, run, option, missing, *out):
    return subprocess.run([tendril, "render", run, option, missing, *out], capture_output=True,
                          text=True, timeout=240)


def main(tendril, run, out_dir):
    out_dir = Path(out_dir)
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    try:
        cases = [("--chromium", "Chromium", ["--png", str(out_dir / "frame.png")]),
                 ("--ffmpeg", "ffmpeg", ["--out", str(out_dir / "video.mp4")])]
        for option, program, out in cases:
            missing = str(out_dir / "no_such_dir" / program.lower())
            result = render(tendril, run, option, missing, *out)
            assert result.returncode == 1, (program, result.returncode, result.stderr)
            assert f"{program} ({missing}) could not be started" in result.stderr, result.stderr
            assert "scripts/setup.sh installs them" in result.stderr, result.stderr
            left = [p.name for p in out_dir.iterdir()]
            assert left == [], (program, left)
            print(f"{program} missing: exit 1, named with its path; nothing written")
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
