"""Draws a vine run as a tracker's output for one video (docs/physics/fitting.md, "Tutorial: tracked
video to a fitted model"): every third step (30 frames per second at dt = 1/90 s) the centre-line's
points every pixel of arc length and the tip, 0.5 mm per pixel, image axes (origin at pixel
(400, 560), rows growing downwards), Gaussian noise of 0.2 pixel, the first 12 pixels next to the
base not tracked, a 20-pixel side spur off the middle, the points of a frame shuffled, frames 4 and
7 dropped. Writes CSV rows frame,x,y [pixels]; SEED (default 27, the shipped video_track.csv) draws
the noise and the order.

    python3 render_track.py RUN_DIR OUT_CSV [SEED]
"""
import sys
from pathlib import Path

import numpy as np

SCALE, ORIGIN = 5e-4, np.array([400.0, 560.0])
NOISE, MISSING_BASE, SPUR, EVERY, DROPPED = 0.2, 12.0, 20.0, 3, {4, 7}


def pixels(points):
    """Image coordinates of points [m]: u = u0 + x / s, v = v0 - y / s."""
    return ORIGIN + np.array([1.0, -1.0]) * points / SCALE


def render(line, rng):
    """One frame's tracked points from its centre-line polyline [m]."""
    p = pixels(line)
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))])
    s = np.arange(MISSING_BASE, arc[-1], 1.0)
    track = np.column_stack([np.interp(s, arc, p[:, 0]), np.interp(s, arc, p[:, 1])]).tolist()
    track.append(p[-1].tolist())  # the tip, which a tracker finds
    mid = len(track) // 2
    along = np.subtract(track[mid + 1], track[mid - 1])
    along /= np.linalg.norm(along)
    side = np.array([0.5 * along[0] - 0.866 * along[1], 0.866 * along[0] + 0.5 * along[1]])
    track += [(np.array(track[mid]) + k * side).tolist() for k in np.arange(1.0, SPUR + 0.5)]
    track = np.array(track) + rng.normal(0.0, NOISE, (len(track), 2))
    return track[rng.permutation(len(track))]


def main(run_dir, out_csv, seed="27"):
    centerline = np.load(Path(run_dir) / "centerline.npy")
    rng = np.random.default_rng(int(seed))
    rows = ["frame,x,y"]
    for step in range(0, len(centerline), EVERY):
        frame = step // EVERY
        if frame in DROPPED:
            continue
        rows += [f"{frame},{u:.3f},{v:.3f}" for u, v in render(centerline[step], rng)]
    Path(out_csv).write_text("\n".join(rows) + "\n")
    print(f"{len(rows) - 1} tracked points in {out_csv}")


if __name__ == "__main__":
    main(*sys.argv[1:])
