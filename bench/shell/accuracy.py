"""Accuracy of Newton stopping rules on bench_shell_step's 451-node shell cantilever (issue 10): over the
first 60 implicit Euler steps (dt 1e-2 s) of its fall, max over steps and nodes of |x - x_ref|, with x_ref the
same scene solved to the round-off floor (force_tolerance 0), per bending model and Newton setting; and,
for scale, the discretisation error of the time step (dt 1e-2 against 5e-3 s at the same times, both at the
round-off floor). Prints one table row per setting with the mean Newton iterations per step.

    PYTHONPATH=python:build/release/python /usr/bin/python3 bench/shell/accuracy.py [--steps 60]
"""
import argparse

import numpy as np

import tendril

SCENE = """duration: 1.0e6
shells:
  - geometry: {{type: rectangle, length: 0.1, width: 0.025, nodes_x: 41, nodes_y: 11, pattern: right}}
    material: {{E: 1.0e7, nu: 0.3, density: 1200, thickness: 0.002}}
    clamp: {{side: x_min, rows: 2}}
    bending: {bending}
forces: {{gravity: [0, 0, -9.81]}}
integrator: {{type: implicit_euler, dt: {dt}, initial_guess: {guess}, newton: {newton}}}
"""

# (label, initial guess, Newton options as a YAML flow mapping): bench_shell_step's variants (its `newton:`
# argument in brackets) and the looser settings they were chosen from
DISMECH = "stopping: dismech, max_iterations: 25"
SETTINGS = [
    ("[0] defaults (force_tolerance 1e-8 relative)", "inertial", "{}"),
    ("[1] chord steps 0.5", "inertial", "{chord_contraction: 0.5}"),
    ("[2] force_tolerance_abs 1e-5 N", "inertial", "{force_tolerance_abs: 1.0e-5}"),
    ("[3] force_tolerance_abs 1e-5 N, chord 0.5", "inertial", "{force_tolerance_abs: 1.0e-5, chord_contraction: 0.5}"),
    ("[4] py-dismech rule, its fixture (tol 1e-4 N, ftol 1e-4, dtol 1e-2 m/s), from q_k as py-dismech",
     "previous", "{" + DISMECH + "}"),
    ("[5] force_tolerance_abs 5e-6 N", "inertial", "{force_tolerance_abs: 5.0e-6}"),
    ("[6] force_tolerance_abs 5e-6 N, chord 0.5", "inertial", "{force_tolerance_abs: 5.0e-6, chord_contraction: 0.5}"),
    ("[7] py-dismech rule, its fixture, inertial guess", "inertial", "{" + DISMECH + "}"),
    ("py-dismech rule, its fixture, inertial guess, chord 0.5", "inertial", "{" + DISMECH + ", chord_contraction: 0.5}"),
    ("py-dismech rule, tol 1e-4 N only (ftol, dtol 0)", "inertial",
     "{stopping: dismech, dismech: {relative_tolerance: 0, velocity_tolerance: 0}}"),
    ("force_tolerance_abs 1e-4 N", "inertial", "{force_tolerance_abs: 1.0e-4}"),
    ("force_tolerance 1e-3 (relative)", "inertial", "{force_tolerance: 1.0e-3}"),
]


def trajectory(bending, newton, steps, dt=1e-2, guess="inertial"):
    """Node positions (steps x nodes x 3) after each step, and the mean Newton iterations per step."""
    sim = tendril.Simulation.from_yaml(SCENE.format(bending=bending, dt=dt, guess=guess, newton=newton))
    xs, iterations = [], 0
    for _ in range(steps):
        report = sim.step()
        assert report.ok, report.message
        iterations += report.iterations
        xs.append(np.array(sim.state.positions))
    return np.array(xs), iterations / steps


def max_distance(a, b):
    return float(np.max(np.linalg.norm(a - b, axis=-1)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args()
    for bending in ("hinge", "midedge"):
        reference, ref_iterations = trajectory(bending, "{force_tolerance: 0}", args.steps)
        half, _ = trajectory(bending, "{force_tolerance: 0}", 2 * args.steps, dt=5e-3)
        tip = float(np.max(np.abs(reference[:, :, 2] - reference[0:1, :, 2]))) if len(reference) else 0.0
        print(f"## {bending}: reference (force_tolerance 0) {ref_iterations:.2f} iterations/step; "
              f"largest vertical travel of a node over the window {tip:.3g} m")
        print(f"   discretisation scale: max |x(dt 1e-2) - x(dt 5e-3)| = {max_distance(reference, half[1::2]):.3g} m")
        for label, guess, newton in SETTINGS:
            x, iterations = trajectory(bending, newton, args.steps, guess=guess)
            print(f"   {label}: max |x - x_ref| = {max_distance(x, reference):.3g} m, "
                  f"{iterations:.2f} iterations/step")


if __name__ == "__main__":
    main()
