"""A PneuNet actuator (mat_dismech 7.1: a rod whose natural curvature is actuated) bent by a Python
controller that ramps its natural curvature from 0 to kappa_max between quasi-static solves.

Without load the rod follows its natural shape: in the discrete rod every free edge turns by
phi = 2 atan(kappa l / 2) from the previous one (the curvature binormal's |kb| = 2 tan(phi / 2) equals the
integrated natural curvature kappa l, docs/physics/rods.md), a polygon inscribed in a circular arc; the
example checks the final tip against it (gravity sags this stiff rod by ~3e-5 m only).

The controller acts after every solve, as the `progress` callback of `sim.run(out, ...)`, so the run
is written as a run folder (docs/output_format.md) that `tendril view OUT` shows and `tendril render`
and `tendril plot` read, as for a run of `tendril run`.

    python3 examples/python/pneunet_controller.py [--out OUT] [--plot tip.png]
"""
import argparse
import math

import numpy as np

import tendril

KAPPA_MAX = 15.70  # final natural curvature [1/m] (examples/pneunet_kappa15_70.yaml)
LENGTH = 0.1       # rod length from the clamp [m]
SOLVES = 10        # quasi-static solves of the ramp

scene = {
    "description": "PneuNet ramped by a Python controller",
    "duration": 1.0,
    "rods": [{
        "geometry": {"type": "straight", "start": [0, 0, 0], "direction": [1, 0, 0], "length": LENGTH,
                     "num_nodes": 51},
        "clamp": "start",
        "material": {"E": 20.0e9, "nu": 0.5, "density": 1200, "radius": 0.001},
    }],
    "forces": {"gravity": [0, 0, -9.8]},
    "integrator": {"type": "static", "dt": 1.0 / SOLVES},
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the run folder here (then: tendril view OUT)")
    parser.add_argument("--plot", help="write the tip path to this PNG")
    args = parser.parse_args()

    sim = tendril.Simulation.from_dict(scene)
    kappa_bar = sim.controls.natural_curvature  # (S, 2) integrated curvature, a view of the model
    voronoi = sim.controls.rest_length[0]       # l_k of the uniform rod [m]: kappa_bar = kappa l_k
    x0 = sim.state.positions[1].copy()          # the clamped edge's free end
    tips = []

    def controller(step):
        """The natural curvature of solve `step` + 1: a linear ramp."""
        kappa_bar[:, 0] = KAPPA_MAX * (step + 1) / SOLVES * voronoi

    def after_solve(progress):
        tips.append(sim.state.positions[-1].copy())
        print(f"t = {progress.time:.1f} s  kappa = {kappa_bar[0, 0] / voronoi:6.2f} 1/m  tip = {np.round(tips[-1], 5)} m")
        controller(progress.step)

    controller(0)
    result = sim.run(args.out, progress=after_solve)
    if not result.ok:
        raise SystemExit(f"solve failed: {result.message}")
    if args.out:
        print(f"run folder written: tendril view {args.out}")

    # the natural shape: from the clamped edge's end (tangent +x) each edge turns by phi towards +z
    phi = 2.0 * math.atan(KAPPA_MAX * voronoi / 2.0)
    k = np.arange(1, sim.num_edges)
    arc = x0 + voronoi * np.array([np.cos(k * phi).sum(), 0.0, np.sin(k * phi).sum()])
    error = np.linalg.norm(tips[-1] - arc)
    print(f"final tip {np.round(tips[-1], 5)} m, natural shape {np.round(arc, 5)} m, distance {error:.2e} m")
    if error > 1e-3 * LENGTH:
        raise SystemExit("the final shape is not the natural arc")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        tips = np.array(tips)
        fig, ax = plt.subplots(figsize=(4, 4))
        ax.plot(sim.state.positions[:, 0], sim.state.positions[:, 2], "k-", label="final shape")
        ax.plot(tips[:, 0], tips[:, 2], "o-", label="tip during the ramp")
        ax.set_xlabel("x [m]"), ax.set_ylabel("z [m]"), ax.set_aspect("equal"), ax.legend()
        fig.savefig(args.plot, dpi=100, bbox_inches="tight")


if __name__ == "__main__":
    main()
