"""Measured against simulated centre-line points of a vine fit, one panel per video frame.

Reads the CSV written by tendril::fit::write_fit_points_csv (columns frame, step, point,
measured_x, measured_y, simulated_x, simulated_y, in m) and writes a PNG with Debian's
/usr/bin/python3 and python3-matplotlib, in the style of plot_run.py. Coordinates are drawn in mm.
Usage: plot_fit_points.py POINTS_CSV OUT_PNG [TITLE]
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit("usage: plot_fit_points.py POINTS_CSV OUT_PNG [TITLE]")
    table = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
    if table.size == 0:
        raise SystemExit(f"error: {sys.argv[1]}: no points")
    table = np.atleast_1d(table)
    frames = np.unique(table["frame"]).astype(int)
    cols = min(4, len(frames))
    rows = (len(frames) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 3.2 * rows), squeeze=False)
    for ax in axes.flat[len(frames):]:
        ax.axis("off")
    for ax, f in zip(axes.flat, frames):
        t = table[table["frame"] == f]
        ax.plot(1e3 * t["measured_x"], 1e3 * t["measured_y"], "o", ms=3, color="black", label="measured")
        ax.plot(1e3 * t["simulated_x"], 1e3 * t["simulated_y"], ".-", ms=4, color="tab:red", label="simulated")
        ax.set_title(f"frame {f} (step {int(t['step'][0])})", fontsize=9)
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_xlabel("x [mm]")
        ax.set_ylabel("y [mm]")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    if len(sys.argv) == 4:
        fig.suptitle(sys.argv[3])
    fig.tight_layout()
    out = Path(sys.argv[2])
    partial = out.with_name(out.name + ".partial.png")
    fig.savefig(partial, dpi=110)
    partial.replace(out)


if __name__ == "__main__":
    main()
