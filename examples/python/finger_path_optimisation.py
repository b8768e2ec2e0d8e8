"""The actuation of a soft finger chosen with the gradient of its run: the natural curvature of each
of its bend-twist springs (examples/soft_finger.yaml, switched on at t = 0) such that its tip passes
through the waypoints of a grasping path at t = 0.05, 0.10, ..., 0.25 s.

The objective is L = 1/2 sum_i |x_tip(t_i) - w_i|^2 [m^2]; its gradient with respect to all 19
curvatures comes from one forward run and one backward pass (Simulation.run_with_gradient, the
discrete adjoint, docs/physics/gradients.md), where finite differences would need 20 runs. L-BFGS-B
(scipy) minimises it from the straight finger (all curvatures 0). The waypoints are those of a finger
whose curvature rises linearly from base to tip (30 1/m at the tip), so a path exists; the optimiser
is not told that profile.

    python3 examples/python/finger_path_optimisation.py [--iterations N] [--require-factor F]
                                                       [--out OUT] [--plot path.png]

--require-factor F exits with an error unless L falls by at least F. --out writes the run with the
optimised curvatures as a run folder (tendril view OUT).
"""
import argparse
from pathlib import Path

import numpy as np
from scipy import optimize

import tendril

SCENE = Path(__file__).resolve().parent.parent / "soft_finger.yaml"
STEPS = 50                                 # 0.25 s of 5 ms
WAYPOINT_STEPS = [10, 20, 30, 40, 50]      # t = 0.05 .. 0.25 s
TIP_CURVATURE = 30.0                       # the reference finger's curvature at the tip [1/m]


def waypoints(sim):
    """The tip at WAYPOINT_STEPS of a finger whose curvature rises linearly along it."""
    reference = tendril.Simulation.from_file(SCENE)
    x = reference.state.positions
    s = np.linalg.norm(x[1:-1] - x[0], axis=1)              # arc length of each spring's node [m]
    l = reference.controls.rest_length[0]                   # Voronoi length of the uniform rod [m]
    reference.controls.natural_curvature[:, 0] = TIP_CURVATURE * s / s[-1] * l
    points = []
    for step in range(1, STEPS + 1):
        assert reference.step().ok
        if step in WAYPOINT_STEPS:
            points.append(reference.state.positions[-1].copy())
    return points


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=60, help="L-BFGS-B iterations at most")
    parser.add_argument("--require-factor", type=float, help="fail unless L falls by this factor")
    parser.add_argument("--out", help="write the optimised run folder here (then: tendril view OUT)")
    parser.add_argument("--plot", help="write the tip path and the waypoints to this PNG")
    args = parser.parse_args()

    sim = tendril.Simulation.from_file(SCENE)
    tip = len(sim.state.positions) - 1
    targets = [(tip, step, tuple(w)) for step, w in zip(WAYPOINT_STEPS, waypoints(sim))]
    springs = len(sim.controls.natural_curvature)
    names = [f"springs[{k}].natural_curvature_1" for k in range(springs)]
    evaluated = {}  # L at every point evaluated, for the iteration report

    def objective(kappa_bar):
        r = sim.run_with_gradient(STEPS, targets, list(zip(names, map(float, kappa_bar))))
        if not r["ok"]:
            raise SystemExit(f"the run failed: {r['message']}")
        evaluated[kappa_bar.tobytes()] = r["value"]
        return r["value"], np.array([r["gradient"][n] for n in names])

    def report(kappa_bar):
        report.iteration += 1
        print(f"iteration {report.iteration:3d}  L = {evaluated[kappa_bar.tobytes()]:.6e} m^2")
    report.iteration = 0

    start = objective(np.zeros(springs))[0]
    print(f"start (straight finger): L = {start:.6e} m^2")
    result = optimize.minimize(objective, np.zeros(springs), jac=True, method="L-BFGS-B",
                               callback=report,
                               options={"maxiter": args.iterations, "ftol": 1e-15, "gtol": 1e-14})
    factor = start / result.fun
    print(f"L = {result.fun:.6e} m^2 after {result.nit} iterations ({result.nfev} runs with gradient): "
          f"fell by {factor:.3g}; {result.message}")
    print("integrated natural curvature per spring:", np.round(result.x, 4))
    if args.require_factor and not factor >= args.require_factor:
        raise SystemExit(f"L fell by {factor:.3g} only, not by {args.require_factor:g}")
    if args.out or args.plot:
        sim.controls.natural_curvature[:, 0] = result.x
        tips = []
        run = sim.run(args.out, progress=lambda p: tips.append(sim.state.positions[-1].copy()))
        if not run.ok:
            raise SystemExit(f"the optimised run failed: {run.message}")
        if args.out:
            print(f"run folder written: tendril view {args.out}")
        if args.plot:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            tips = np.array(tips)
            fig, ax = plt.subplots(figsize=(5, 4))
            ax.plot(tips[:, 0], tips[:, 2], label="optimised tip path")
            w = np.array([t[2] for t in targets])
            ax.plot(w[:, 0], w[:, 2], "o", label="waypoints")
            ax.set_xlabel("x [m]")
            ax.set_ylabel("z [m]")
            ax.axis("equal")
            ax.legend()
            fig.savefig(args.plot, dpi=120, bbox_inches="tight")


if __name__ == "__main__":
    main()
