"""Samples a 3D vine run as a motion-capture system would track it (docs/physics/fitting.md, "Method
`vine3d_shooting`"): at every saved frame (every vine3d.save_every steps, from the start) the joint
points (the base, the proximal end of each body, the tip) with Gaussian noise of 0.2 mm on every
coordinate, in millimetres. Writes CSV rows step,point,x_mm,y_mm,z_mm; SEED (default 3, the shipped
tracked_points.csv) draws the noise.

    python3 track_points.py RUN_DIR OUT_CSV [SEED]
"""
import json
import sys
from pathlib import Path

import numpy as np

NOISE = 0.2  # [mm] per coordinate


def main(run_dir, out_csv, seed="3"):
    centerline = np.load(Path(run_dir) / "centerline.npy") * 1e3  # (F, n + 1, 3) [mm]
    every = json.loads((Path(run_dir) / "run.json").read_text())["scene"]["vine3d"]["save_every"]
    rng = np.random.default_rng(int(seed))
    rows = ["step,point,x_mm,y_mm,z_mm"]
    for frame, points in enumerate(centerline):
        noisy = points + rng.normal(0.0, NOISE, points.shape)
        rows += [f"{frame * every},{k},{x:.4f},{y:.4f},{z:.4f}" for k, (x, y, z) in enumerate(noisy)]
    Path(out_csv).write_text("\n".join(rows) + "\n")
    print(f"{len(rows) - 1} tracked points in {out_csv}")


if __name__ == "__main__":
    main(*sys.argv[1:])
