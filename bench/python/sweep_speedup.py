"""Speed-up of tendril.sweep on 2 local worker processes over 1: four flagellated-robot runs
(examples/flagellated_robot.yaml, motor 50-200 rpm) of `--duration` simulated seconds each.

    PYTHONPATH=python:build/release/python python3 bench/python/sweep_speedup.py [--duration 10]
"""
import argparse
import pathlib
import time

import tendril

SCENE = pathlib.Path(__file__).resolve().parents[2] / "examples/flagellated_robot.yaml"


def timed(workers, duration):
    start = time.perf_counter()
    df = tendril.sweep(SCENE, {"flagellated_robot.motor_rpm": [50, 100, 150, 200], "duration": [duration]},
                       ["speed"], workers=workers)
    elapsed = time.perf_counter() - start
    assert (df["status"] == "completed").all()
    return elapsed, df["wall_time"].mean()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    for _ in range(args.repeat):
        t1, run1 = timed(1, args.duration)
        t2, run2 = timed(2, args.duration)
        print(f"1 worker {t1:.2f} s (a run {run1:.2f} s), 2 workers {t2:.2f} s (a run {run2:.2f} s): "
              f"speed-up {t1 / t2:.2f}")


if __name__ == "__main__":
    main()
