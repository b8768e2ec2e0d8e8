"""Writes a small synthetic run with triangles (a flapping square plate, 5 x 5 nodes, 32
triangles, 6 frames) in the tendril-run 2 layout with `info.triangles`, as shell runs write it
(docs/output_format.md), so the viewer and the VTK export are tested on a small fixture.  Usage: make_shell_run.py OUT_DIR
"""
import json
import shutil
import sys
from pathlib import Path

import numpy as np


def main(out):
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    n, frames, side = 5, 6, 0.1
    u, v = np.meshgrid(np.linspace(0, side, n), np.linspace(0, side, n), indexing="ij")
    index = lambda i, j: i * n + j
    triangles = []
    for i in range(n - 1):
        for j in range(n - 1):
            triangles += [[index(i, j), index(i + 1, j), index(i + 1, j + 1)],
                          [index(i, j), index(i + 1, j + 1), index(i, j + 1)]]
    edges = sorted({tuple(sorted((t[a], t[(a + 1) % 3]))) for t in triangles for a in range(3)})
    t = np.linspace(0, 0.05, frames)
    x = np.zeros((frames, n * n, 3))
    for f in range(frames):
        x[f, :, 0], x[f, :, 1] = u.ravel(), v.ravel()
        x[f, :, 2] = 0.3 * (u.ravel() ** 2 / side) * np.sin(40 * t[f])
    np.save(out / "frame_time.npy", t)
    np.save(out / "positions.npy", x)
    np.save(out / "twists.npy", np.zeros((frames, len(edges))))
    entry = lambda name, shape, unit: {"name": name, "file": f"{name}.npy", "dtype": "float64", "shape": list(shape),
                                       "first_axis": "saved frame", "unit": unit, "meaning": ""}
    (out / "run.json").write_text(json.dumps({
        "format": "tendril-run", "format_version": 2, "tendril_version": "test fixture", "kind": "rod",
        "status": "completed", "message": "", "units": "SI",
        "arrays": [entry("frame_time", t.shape, "s"), entry("positions", x.shape, "m"),
                   entry("twists", (frames, len(edges)), "rad")],
        "info": {"num_nodes": n * n, "num_edges": len(edges), "edges": [list(e) for e in edges], "rod_nodes": [],
                 "triangles": triangles, "energy_terms": []},
        "scene": {"description": "synthetic flapping plate (viewer test fixture)"},
    }, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:])
