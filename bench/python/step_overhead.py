"""Overhead of one Python `sim.step()` over the C++ `Simulation::step()` on the 26-node cantilever
(examples/cantilever_gravity.yaml), measured two ways, each interleaved so both sides see the same
machine load, printing the fastest and the median of the rounds:
- in one process: 1000 steps as a Python loop of sim.step() against 1000 steps of sim.run() (the
  facade's C++ loop over step(), one Python call; no output folder, so it writes nothing);
- against bench_rod_step's BM_CantileverImplicitEulerStep/26 (Google Benchmark, a separate process;
  both restart every 1 s of simulated time).

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


def run_loop_step_time():
    """Mean seconds per step of sim.run() over STEPS steps (1000 steps = 1 s per run)."""
    total = 0.0
    for _ in range(STEPS // 1000):
        sim = tendril.Simulation.from_file(SCENE, ["rods.0.geometry.num_nodes=26", "duration=1"])
        start = time.perf_counter()
        sim.run()
        total += time.perf_counter() - start
    return total / STEPS


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
    py, loop, cpp = [], [], []
    for _ in range(args.rounds):
        py.append(python_step_time())
        loop.append(run_loop_step_time())
        cpp.append(cpp_step_time(args.bench))
    us = 1e6
    print(f"sim.run() C++ loop: fastest {min(loop) * us:.2f} us, median {statistics.median(loop) * us:.2f} us")
    print(f"Python sim.step(): fastest {min(py) * us:.2f} us, median {statistics.median(py) * us:.2f} us")
    print(f"C++ step():        fastest {min(cpp) * us:.2f} us, median {statistics.median(cpp) * us:.2f} us")
    print(f"overhead over the run() loop: fastest-fastest {(min(py) - min(loop)) * us:+.2f} us, "
          f"median-median {(statistics.median(py) - statistics.median(loop)) * us:+.2f} us")
    print(f"overhead over bench_rod_step: fastest-fastest {(min(py) - min(cpp)) * us:+.2f} us, "
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
