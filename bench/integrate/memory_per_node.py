#!/usr/bin/python3
"""Peak resident memory per node of rods, shells and contact scenes from 10^3 to 10^5 nodes, with the linear
solver the automatic choice takes for each.

Each scene runs in a fresh Python process through the module (`tendril.Simulation.from_dict`, its steps'
`StepReport.linear_solver`); the peak RSS is that process's (getrusage of the child), the interpreter's own
(numpy and the module imported, nothing built) is measured the same way and subtracted, and the table gives
the rest per node. Scenes:
- rod: examples/cantilever_gravity.yaml's cantilever (L 1 m, r 5 mm, E 10 MPa) with N nodes, 2 implicit
  Euler steps of 1 ms;
- shell: a square plate 0.1 m x 0.1 m of k x k nodes (right pattern, h 2 mm, E 1 GPa, nu 0.3, mid-edge
  bending or, with --bending hinge, hinge bending), clamped by two columns, a static solve under gravity;
- contact: a rod of N nodes (1 mm apart, r 0.4 mm, E 2 MPa) lying 0.1 mm above the ground with ground
  contact (friction 0.25) and self-contact, 2 steps of 0.1 ms.

Usage: PYTHONPATH=python:build/release/python bench/integrate/memory_per_node.py [--max-nodes 100000]
       [--scenes rod,shell,contact] [--bending midedge|hinge]
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from peak_rss import peak_rss_and_output  # noqa: E402

CHILD = """
import json, sys, tendril
scene = json.loads(sys.argv[1])
if scene:
    sim = tendril.Simulation.from_dict(scene)
    solvers = set()
    while not sim.finished:
        r = sim.step()
        if not r.ok:
            sys.exit("step failed: " + r.message)
        solvers.add(r.linear_solver)
    print(json.dumps({"dofs": sim.num_dofs, "solver": " ".join(sorted(solvers))}))
else:
    print(json.dumps({}))
"""


def rod(n):
    return {"duration": 0.002, "output": {"interval": 0.002},
            "rods": [{"geometry": {"type": "straight", "start": [0, 0, 0], "direction": [1, 0, 0], "length": 1.0,
                                   "num_nodes": n},
                      "clamp": "start", "material": {"E": 1.0e7, "nu": 0.5, "density": 1273.52, "radius": 0.005}}],
            "forces": {"gravity": [0, 0, -9.81]}, "integrator": {"type": "implicit_euler", "dt": 1.0e-3}}


def shell(k, bending):
    return {"duration": 0,
            "shells": [{"geometry": {"type": "rectangle", "length": 0.1, "width": 0.1, "nodes_x": k, "nodes_y": k,
                                     "pattern": "right"},
                        "material": {"E": 1.0e9, "nu": 0.3, "density": 1200, "thickness": 0.002},
                        "clamp": {"side": "x_min", "rows": 2}, "bending": bending}],
            "forces": {"gravity": [0, 0, -9.81]}, "integrator": {"type": "static"}}


def contact(n):
    length = (n - 1) * 1e-3
    return {"duration": 2e-4, "output": {"interval": 2e-4},
            "rods": [{"geometry": {"type": "straight", "start": [0, 0, 5e-4], "end": [length, 0, 5e-4], "num_nodes": n},
                      "material": {"E": 2.0e6, "nu": 0.3, "density": 1500, "radius": 4e-4}}],
            "forces": {"gravity": [0, 0, -9.8]},
            "contact": {"stiffness": 20, "distance_tolerance": 2.0e-4, "slip_tolerance": 1.0e-3,
                        "ground": {"friction": 0.25}, "self": {"friction": 0.25}},
            "integrator": {"type": "implicit_euler", "dt": 1.0e-4}}


def measure(scene, what):
    """(peak RSS [KiB], wall time [s], the child's report) of one scene in a fresh process."""
    start = time.monotonic()
    rss, output = peak_rss_and_output([sys.executable, "-c", CHILD, json.dumps(scene)], what)
    return rss, time.monotonic() - start, json.loads(output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-nodes", type=int, default=100000)
    parser.add_argument("--scenes", default="rod,shell,contact", help="comma-separated: rod, shell, contact")
    parser.add_argument("--bending", default="midedge", choices=["midedge", "hinge"], help="the shell plates' model")
    args = parser.parse_args()
    base, _, _ = measure(None, "the interpreter alone")
    cases = [("rod", n, rod(n)) for n in (1000, 10000, 100000)]
    cases += [("shell", k * k, shell(k, args.bending)) for k in (32, 100, 150, 224, 300, 316)]
    cases += [("contact", n, contact(n)) for n in (1000, 10000, 100000)]
    print(f"interpreter and module alone: {base / 1024:.1f} MiB")
    print(f"{'scene':>8} {'nodes':>8} {'DOFs':>8} {'linear solver':>14} {'peak RSS [MiB]':>15} "
          f"{'KiB per node':>13} {'wall [s]':>9}")
    for name, nodes, scene in cases:
        if nodes > args.max_nodes or name not in args.scenes.split(","):
            continue
        rss, wall, report = measure(scene, f"{name} with {nodes} nodes")
        print(f"{name:>8} {nodes:>8} {report['dofs']:>8} {report['solver']:>14} {rss / 1024:>15.1f} "
              f"{(rss - base) / nodes:>13.2f} {wall:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
