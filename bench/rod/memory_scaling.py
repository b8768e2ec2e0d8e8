#!/usr/bin/python3
"""Peak resident memory of `tendril run` on the benchmark cantilever against the number of nodes.

Runs examples/cantilever_gravity.yaml for 20 steps at several node counts (each in a fresh
process), reads the child's peak RSS from getrusage, and prints the memory above the smallest
run per added node, so linear growth shows as a constant last column.

Usage: bench/rod/memory_scaling.py [path/to/tendril]   (default build/release/apps/cli/tendril)
"""
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TENDRIL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/apps/cli/tendril")
SCENE = os.path.join(ROOT, "examples/cantilever_gravity.yaml")


def peak_rss_kib(nodes, out_dir):
    """Peak RSS [KiB] of one run in a fresh process (a forked helper so rusage is per run)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        subprocess.run([TENDRIL, "run", SCENE, "--out", os.path.join(out_dir, f"n{nodes}"),
                        "--set", f"rods.0.geometry.num_nodes={nodes}", "--set", "duration=0.02",
                        "--set", "output.interval=0.02"], check=True, stdout=subprocess.DEVNULL)
        os.write(write, str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss).encode())
        os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.exit(f"run with {nodes} nodes failed")
    return int(os.read(read, 64).decode())


def main():
    sizes = [101, 1601, 6401, 25601]
    with tempfile.TemporaryDirectory() as out_dir:
        rss = [peak_rss_kib(n, out_dir) for n in sizes]
    print(f"{'nodes':>8} {'peak RSS [MiB]':>15} {'extra KiB per node':>19}")
    for n, r in zip(sizes, rss):
        extra = (r - rss[0]) / (n - sizes[0]) if n != sizes[0] else float("nan")
        print(f"{n:>8} {r / 1024:>15.1f} {extra:>19.2f}")


if __name__ == "__main__":
    main()
