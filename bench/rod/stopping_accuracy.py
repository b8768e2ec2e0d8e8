"""Accuracy of Newton stopping rules on the rod benchmarks (issue 29): the cantilever of bench_rod_step
(examples/cantilever_gravity.yaml, implicit Euler, dt 1e-3 s) at 101, 401 and 1601 nodes over its first
second, and the legged robot of bench_contact_step (examples/legged_robot.yaml, floor contact and friction,
dt 2.5e-3 s) over 800 steps. For each Newton setting: max over steps and nodes of |x - x_ref|, with x_ref
the same scene solved to the round-off floor (force_tolerance 0), and the mean Newton iterations per step;
for scale, the discretisation error of the time step (dt against dt / 2 at the same times, both at the
round-off floor) and the largest travel of a node.

    PYTHONPATH=python:build/release/python /usr/bin/python3 bench/rod/stopping_accuracy.py [--scale 1]

--scale divides every step count (a quick look); the figures in the report are at 1.
"""
import argparse

import numpy as np

import tendril

# (label, scene file in examples/, overrides, dt [s], steps)
SCENES = [
    ("cantilever 101 nodes", "cantilever_gravity.yaml", {"rods.0.geometry.num_nodes": 101}, 1e-3, 1000),
    ("cantilever 401 nodes", "cantilever_gravity.yaml", {"rods.0.geometry.num_nodes": 401}, 1e-3, 1000),
    ("cantilever 1601 nodes", "cantilever_gravity.yaml", {"rods.0.geometry.num_nodes": 1601}, 1e-3, 1000),
    ("legged robot", "legged_robot.yaml", {}, 2.5e-3, 800),
]

# (label, overrides of integrator.*): the default and py-dismech's rule with its fixture's tolerances
# (tol 1e-4 N, ftol 1e-4, dtol 1e-2 m/s), from the inertial guess and from q_k as py-dismech
DISMECH = {"integrator.newton.stopping": "dismech", "integrator.newton.max_iterations": 25}
SETTINGS = [
    ("defaults (force_tolerance 1e-8 relative)", {}),
    ("dismech rule, inertial guess", DISMECH),
    ("dismech rule, from q_k", {**DISMECH, "integrator.initial_guess": "previous"}),
]
REFERENCE = {"integrator.newton.force_tolerance": 0}


def trajectory(scene, overrides, dt, steps):
    """Node positions (steps x nodes x 3) after each step, and the mean Newton iterations per step."""
    settings = {**overrides, "integrator.dt": dt, "duration": 1.0e4}
    sim = tendril.Simulation.from_file(f"examples/{scene}", {k: str(v) for k, v in settings.items()})

    def step():
        report = sim.step()
        assert report.ok, report.message
        return report.iterations, np.array(sim.state.positions)

    iterations, positions = zip(*(step() for _ in range(steps)))
    return np.array(positions), sum(iterations) / steps


def largest_distance(a, b):
    """max over steps and nodes of |a - b| [m]"""
    return float(np.linalg.norm(a - b, axis=-1).max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    for label, scene, overrides, dt, steps in SCENES:
        steps //= args.scale
        reference, ref_iterations = trajectory(scene, {**overrides, **REFERENCE}, dt, steps)
        half, _ = trajectory(scene, {**overrides, **REFERENCE}, dt / 2, 2 * steps)
        travel = largest_distance(reference, reference[0:1])
        print(f"## {label}, {steps} steps of {dt:g} s: reference (force_tolerance 0) "
              f"{ref_iterations:.2f} iterations/step; largest travel of a node {travel:.3g} m; "
              f"max |x(dt) - x(dt/2)| = {largest_distance(reference, half[1::2]):.3g} m")
        for name, setting in SETTINGS:
            x, iterations = trajectory(scene, {**overrides, **setting}, dt, steps)
            print(f"   {name}: max |x - x_ref| = {largest_distance(x, reference):.3g} m, "
                  f"{iterations:.2f} iterations/step", flush=True)


if __name__ == "__main__":
    main()
