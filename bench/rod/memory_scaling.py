#!/usr/bin/python3
"""Peak resident memory of `tendril run` on the benchmark cantilever against the number of nodes.

Runs examples/cantilever_gravity.yaml for 20 steps at several node counts (each in a fresh
process), reads the child's peak RSS from getrusage, and prints the memory above the smallest
run per added node, so linear growth shows as a constant last column.

Usage: bench/rod/memory_scaling.py [path/to/tendril]   (default build/release/apps/cli/tendril)
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "support"))
from peak_rss import peak_rss_kib, print_per_node  # noqa: E402

TENDRIL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/apps/cli/tendril")
SCENE = os.path.join(ROOT, "examples/cantilever_gravity.yaml")


def main():
    sizes = [101, 1601, 6401, 25601]
    with tempfile.TemporaryDirectory() as out_dir:
        rss = [peak_rss_kib([TENDRIL, "run", SCENE, "--out", os.path.join(out_dir, f"n{n}"),
                             "--set", f"rods.0.geometry.num_nodes={n}", "--set", "duration=0.02",
                             "--set", "output.interval=0.02"], f"run with {n} nodes") for n in sizes]
    print_per_node(sizes, rss)


if __name__ == "__main__":
    main()
