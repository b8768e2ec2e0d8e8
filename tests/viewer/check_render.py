"""`tendril render` writes a video ffprobe reads with one frame per saved frame of the run and the
requested size, and `--png` one image of that size (real Chromium and ffmpeg).
Usage: check_render.py TENDRIL RUN_DIR OUT_DIR
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np


def main(tendril, run_dir, out_dir):
    out = Path(out_dir)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    frames = np.load(Path(run_dir) / "frame_time.npy").shape[0]
    try:
        movie = out / "movie.mp4"
        subprocess.run([tendril, "render", run_dir, "--out", str(movie), "--width", "640", "--height", "360",
                        "--fps", "10", "--colour", "speed", "--azimuth", "-90", "--elevation", "10"], check=True)
        probe = json.loads(subprocess.run(
            ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
             "stream=nb_read_frames,width,height,codec_name", "-of", "json", str(movie)],
            check=True, capture_output=True, text=True).stdout)["streams"][0]
        print(f"ffprobe: {probe}; the run has {frames} frames")
        assert int(probe["nb_read_frames"]) == frames, probe
        assert (probe["width"], probe["height"], probe["codec_name"]) == (640, 360, "h264"), probe

        png = out / "last.png"
        subprocess.run([tendril, "render", run_dir, "--png", str(png), "--width", "400", "--height", "300"], check=True)
        image = mpimg.imread(png)
        assert image.shape[:2] == (300, 400), image.shape
        assert len(np.unique(image.reshape(-1, image.shape[2]), axis=0)) > 20, "a blank image"
        bad = subprocess.run([tendril, "render", run_dir, "--png", str(out / "x.png"), "--frame", str(frames)],
                             capture_output=True, text=True)
        assert bad.returncode == 2 and "--frame" in bad.stderr, (bad.returncode, bad.stderr)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
