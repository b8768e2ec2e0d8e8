"""A cantilever whose tip is pulled by a Python custom force: a damped spring to a target moving on a
circle, F = -k (x_tip - x_target(t)) - c u_tip, with its Jacobian (dF/dq = -k I, dF/du = -c I on the
tip's three DOFs) so Newton converges quadratically (mat_dismech 5.5).

    python3 examples/python/rod_custom_force.py [--plot distance.png]
"""
import argparse
import pathlib

import numpy as np

import tendril

SCENE = pathlib.Path(__file__).resolve().parents[1] / "cantilever_gravity.yaml"
K, C = 20.0, 0.2  # spring stiffness [N/m] and damping [N s/m]


def target(t):
    """The target [m]: a circle of radius 0.2 m in the y-z plane at x = 0.9 m, one turn per second."""
    return np.array([0.9, 0.2 * np.sin(2 * np.pi * t), 0.2 * np.cos(2 * np.pi * t)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", help="write tip-target distance against time to this PNG")
    args = parser.parse_args()

    overrides = {"duration": 1.0, "integrator.dt": 0.005, "rods.0.geometry.num_nodes": 21}
    probe = tendril.Simulation.from_file(SCENE, overrides)
    n, tip = probe.num_dofs, 3 * (probe.num_nodes - 1) + np.arange(3)

    def force(q, u, t):
        F = np.zeros(n)
        F[tip] = -K * (q[tip] - target(t)) - C * u[tip]
        return F

    def jacobian(q, u, t):
        return -K * np.eye(3), -C * np.eye(3)

    spring = tendril.CustomForce(force, jacobian, dofs=list(tip), name="tip_spring")
    sim = tendril.Simulation.from_file(SCENE, overrides, forces=[spring])
    times, distances, iterations = [], [], []
    while not sim.finished:
        report = sim.step()
        if not report.ok:
            raise SystemExit(f"step failed: {report.message}")
        times.append(sim.state.time)
        distances.append(np.linalg.norm(sim.state.positions[-1] - target(sim.state.time)))
        iterations.append(report.iterations)
    print(f"{len(times)} steps, {np.mean(iterations):.2f} Newton iterations per step")
    print(f"tip-target distance: start {distances[0]:.3f} m, mean over the last half {np.mean(distances[100:]):.3f} m")
    if not np.mean(distances[100:]) < distances[0]:
        raise SystemExit("the spring does not pull the tip towards the target")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot(times, distances)
        ax.set_xlabel("t [s]"), ax.set_ylabel("|x_tip - x_target| [m]")
        fig.savefig(args.plot, dpi=100, bbox_inches="tight")


if __name__ == "__main__":
    main()
