"""Overhead of one Python `sim.step()` over the C++ `Simulation::step()`: the 26-node cantilever
(examples/cantilever_gravity.yaml, restarted every 1 s of simulated time as bench_rod_step does)
stepped from Python, against bench_rod_step's BM_CantileverImplicitEulerStep/26 (Google Benchmark),
interleaved so that both see the same machine load. Prints the fastest and median of each.

    PYTHONPATH=python:build/release/python python3 bench/python/step_overhead.py [--rounds 5]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import time

import tendril

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENE = ROOT / "examples/cantilever_gravity.yaml"
STEPS = 3000


def python_step_time():
    """Mean seconds per sim.step() over STEPS steps (rebuilding untimed every 1000 steps = 1 s)."""
    total, done = 0.0, 0
    while done < STEPS:
        sim = tendril.Simulation.from_file(SCENE, ["rods.0.geometry.num_nodes=26", "duration=1000"])
        step = sim.step
        start = time.perf_counter()
        for _ in range(1000):
            step()
        total += time.perf_counter() - start
        done += 1000
    return total / done


def cpp_step_time(bench):
    out = subprocess.run([str(bench), "--benchmark_filter=BM_CantileverImplicitEulerStep/26$",
                          "--benchmark_min_time=0.5", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    b = json.loads(out)["benchmarks"][0]
    assert b["time_unit"] == "us"
    return b["real_time"] * 1e-6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bench", default=str(ROOT / "build/release/bench/rod/bench_rod_step"))
    args = parser.parse_args()
    py, cpp = [], []
    for _ in range(args.rounds):
        py.append(python_step_time())
        cpp.append(cpp_step_time(args.bench))
    us = 1e6
    print(f"Python sim.step(): fastest {min(py) * us:.2f} us, median {statistics.median(py) * us:.2f} us")
    print(f"C++ step():        fastest {min(cpp) * us:.2f} us, median {statistics.median(cpp) * us:.2f} us")
    print(f"overhead: fastest-fastest {(min(py) - min(cpp)) * us:+.2f} us, "
          f"median-median {(statistics.median(py) - statistics.median(cpp)) * us:+.2f} us")
    # the call itself, without the step: a bound property of the same object
    n = 200000
    sim = tendril.Simulation.from_file(SCENE)
    start = time.perf_counter()
    for _ in range(n):
        sim.steps_taken
    print(f"a bound attribute read (sim.steps_taken): {(time.perf_counter() - start) / n * 1e9:.0f} ns")


if __name__ == "__main__":
    main()
