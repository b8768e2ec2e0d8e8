#!/usr/bin/python3
"""Peak resident memory of `tendril run` on the benchmark shell cantilever against the number of nodes.

The strip of bench_shell_step (0.1 m x 0.025 m, h 2 mm, E 10 MPa, nu 0.3, right pattern, clamped by
two columns, gravity, implicit Euler dt 1e-2 s) refined from 41 x 11 = 451 nodes by 2, 4 and 8 per
side, 3 steps each in a fresh process, for the hinge and the mid-edge model; prints the peak RSS and
the memory above the smallest run per added node, so linear growth shows as a constant last column.

Usage: bench/shell/memory_scaling.py [path/to/tendril]   (default build/release/apps/cli/tendril)
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "support"))
from peak_rss import peak_rss_kib, print_per_node  # noqa: E402

TENDRIL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/apps/cli/tendril")
SCENE = """duration: 0.03
output: {{interval: 0.03}}
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.025, nodes_x: {nx}, nodes_y: {ny}, pattern: right}}
    material: {{E: 1.0e7, nu: 0.3, density: 1200, thickness: 0.002}}
    clamp: {{side: x_min, rows: 2}}
    bending: {bending}
forces: {{gravity: [0, 0, -9.81]}}
integrator: {{type: implicit_euler, dt: 1.0e-2}}
"""


def main():
    refinements = [1, 2, 4, 8]
    with tempfile.TemporaryDirectory() as out_dir:
        for bending in ("hinge", "midedge"):
            sizes, rss = [], []
            for k in refinements:
                nx, ny = 40 * k + 1, 10 * k + 1
                scene = os.path.join(out_dir, f"{bending}_{k}.yaml")
                with open(scene, "w") as f:
                    f.write(SCENE.format(nx=nx, ny=ny, bending=bending))
                sizes.append(nx * ny)
                rss.append(peak_rss_kib([TENDRIL, "run", scene, "--out", os.path.join(out_dir, f"{bending}_{k}")],
                                        f"{bending} run with {nx} x {ny} nodes"))
            print(f"{bending}:")
            print_per_node(sizes, rss)


if __name__ == "__main__":
    main()
