"""`tendril render` writes a video ffprobe reads with one frame per saved frame of the run and the
requested size, and `--png` one image of that size (real Chromium and ffmpeg). A run of 2 s rendered
at real time (`--speed 1`) gives a video of 2 s (within one video frame), and its frames carry the
time stamp: a light box in the bottom right corner with dark text that changes with the time. At
`--deformation-scale 0` every time shows the first frame's shape: the image at the end equals the one
at t = 0 outside the time stamp but for the twist stripe (and differs from the end at scale 1, where
the rod has bent).
Usage: check_render.py TENDRIL RUN_DIR RUN_2S_DIR OUT_DIR
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np


def stamp_text(image):
    """The dark text pixels inside the time stamp's light box in the bottom right 300 x 60 px corner
    (a boolean mask), or None when no such box is there. The stamp is near-white (the page
    background is 0.96, the body darker) with text in #111 (0.07)."""
    corner = image[-60:, -300:, :3]
    light = (corner >= 0.985).all(axis=2)
    rows, cols = np.nonzero(light)
    if len(rows) < 1000:
        return None
    box = corner[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    return (box < 0.3).all(axis=2)


def check_real_time_video(tendril, run_2s, out):
    """--speed 1 of a 2 s run at 10 fps: the video lasts 2 s within one frame (1/10 s), and the time
    stamp is drawn: a frame and PNGs at two times show the stamp, whose text differs between them."""
    duration = float(np.load(Path(run_2s) / "frame_time.npy")[-1])
    assert abs(duration - 2.0) < 1e-9, duration
    movie = out / "real_time.mp4"
    subprocess.run([tendril, "render", run_2s, "--out", str(movie), "--width", "480", "--height", "270",
                    "--fps", "10", "--speed", "1"], check=True)
    seconds = float(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
                                    "default=noprint_wrappers=1:nokey=1", str(movie)],
                                   check=True, capture_output=True, text=True).stdout)
    print(f"a {duration} s run at --speed 1 --fps 10: ffprobe says the video lasts {seconds} s")
    assert abs(seconds - duration) <= 1 / 10 + 1e-6, seconds
    frame = out / "video_frame5.png"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(movie), "-vf", r"select=eq(n\,5)", "-frames:v", "1",
                    str(frame)], check=True)
    texts = []
    for t in ("0.5", "1.5"):
        png = out / f"t{t}.png"
        subprocess.run([tendril, "render", run_2s, "--png", str(png), "--time", t, "--width", "480", "--height", "270"],
                       check=True)
        texts.append(stamp_text(mpimg.imread(png)))
    in_video = stamp_text(mpimg.imread(frame))
    for mask in texts + [in_video]:
        assert mask is not None, "no time stamp box in the bottom right corner"
        assert mask.sum() >= 40, f"only {mask.sum()} text pixels in the time stamp"
    a, b = texts
    assert a.shape != b.shape or (a != b).sum() >= 10, "the time stamp reads the same at t = 0.5 s and 1.5 s"
    print(f"time stamp: {in_video.sum()} text pixels in video frame 5, {a.sum()} and {b.sum()} at t = 0.5, 1.5 s")
    png, mp4 = ["--png", str(out / "x.png")], ["--out", str(out / "x.mp4")]
    for bad, key in ((png + ["--time", "2.5"], "--time"), (png + ["--time", "1", "--frame", "1"], "--time"),
                     (png + ["--speed", "1"], "--speed"), (mp4 + ["--speed", "0"], "--speed")):
        r = subprocess.run([tendril, "render", run_2s, *bad], capture_output=True, text=True)
        assert r.returncode == 2 and key in r.stderr, (bad, r.returncode, r.stderr)
        assert not (out / "x.png").exists() and not (out / "x.mp4").exists()


def check_deformation_scale(tendril, run_2s, out):
    """Scale 0 draws x_i(0) at every time; scale 1 the saved positions."""
    images = {}
    for name, args in (("zero_end", ["--time", "2", "--deformation-scale", "0"]),
                       ("zero_start", ["--time", "0", "--deformation-scale", "0"]), ("one_end", ["--time", "2"])):
        png = out / f"{name}.png"
        subprocess.run([tendril, "render", run_2s, "--png", str(png), "--width", "480", "--height", "270", *args], check=True)
        image = mpimg.imread(png)[:, :, :3]
        image[-60:, -300:] = 0  # the time stamp's corner
        images[name] = image
    differ = lambda a, b: int((np.abs(images[a] - images[b]) > 8 / 255).any(axis=2).sum())
    print(f"pixels that differ: scale 0 end vs start {differ('zero_end', 'zero_start')}, "
          f"scale 0 vs 1 at the end {differ('zero_end', 'one_end')}")
    # the same shape, camera and grid: only the twist stripe may differ (it follows the material
    # frame at t, which the scale does not magnify), a few pixels along the tube
    assert differ("zero_end", "one_end") > 500
    assert differ("zero_end", "zero_start") < 0.01 * differ("zero_end", "one_end")
    r = subprocess.run([tendril, "render", run_2s, "--png", str(out / "x.png"), "--deformation-scale", "-1"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--deformation-scale" in r.stderr, (r.returncode, r.stderr)


def main(tendril, run_dir, run_2s, out_dir):
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
        check_real_time_video(tendril, run_2s, out)
        check_deformation_scale(tendril, run_2s, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
