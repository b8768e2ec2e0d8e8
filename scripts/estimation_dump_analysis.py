#!/usr/bin/python3
"""What a transcribed joint estimation leaves undetermined at IPOPT's last point (a diagnostic).

Reads the dump the transcribed formulation writes when JointEstimationOptions::dump_directory is set
(the wall-growth test: TENDRIL_DUMP_DIR=DIR; tests/validation/fit/test_wall_growth_fit.cpp) and prints
(a) the constraint Jacobian J's smallest singular values with their left vectors (dependent rows) and
right vectors (variables J does not see), by block and step; (b) the reduced Hessian Z^T H Z on J's
null space (H the exact Lagrangian Hessian at IPOPT's multipliers): its smallest eigenvalues and
where their eigenvectors live; (c) IPOPT's last steps per block (steps.csv).
docs/physics/fitting.md, "What the wall growth leaves undetermined".

Usage: /usr/bin/python3 scripts/estimation_dump_analysis.py DIR [COUNT]
"""
import csv
import sys
from pathlib import Path

import numpy as np
import scipy.io


def read_layout(path):
    """(variable blocks, row blocks): lists of (name, step, first, count)."""
    variables, rows = [], []
    with open(path) as f:
        for rec in csv.DictReader(f):
            entry = (rec["block"], int(rec["step"]), int(rec["first"]), int(rec["count"]))
            (variables if rec["block"].startswith("var_") else rows).append(entry)
    return variables, rows


def owner(blocks, index):
    """'block[step] +offset' of an index."""
    for name, step, first, count in blocks:
        if first <= index < first + count:
            return f"{name[4:]}[{step}]+{index - first}"
    return f"? {index}"


def describe(vector, blocks, top=6):
    """The vector's largest entries and its norm per block kind."""
    order = np.argsort(-np.abs(vector))[:top]
    entries = ", ".join(f"{owner(blocks, i)}: {vector[i]:+.3g}" for i in order)
    kinds = {}
    for name, _, first, count in blocks:
        kinds[name] = kinds.get(name, 0.0) + float(np.sum(vector[first:first + count] ** 2))
    shares = ", ".join(f"{k[4:]} {np.sqrt(v):.2g}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:4])
    return f"{entries}\n      per block: {shares}"


def main():
    folder = Path(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    variables, rows = read_layout(folder / "layout.csv")
    jac = scipy.io.mmread(folder / "jacobian.mtx").toarray()
    hess = scipy.io.mmread(folder / "hessian.mtx").toarray()
    x = np.loadtxt(folder / "x.csv")
    lam = np.loadtxt(folder / "lambda.csv")
    g = np.loadtxt(folder / "constraints.csv")
    m, n = jac.shape
    print(f"{n} variables, {m} constraints; |g|_inf {np.abs(g).max():.3g}, |lambda|_inf {np.abs(lam).max():.3g} "
          f"at {owner(rows, int(np.argmax(np.abs(lam))))}")
    u, s, vt = np.linalg.svd(jac, full_matrices=True)
    print(f"(a) J: largest singular value {s[0]:.3g}; smallest {', '.join(f'{v:.3g}' for v in s[-count:][::-1])}")
    for k in range(1, count + 1):
        print(f"  sigma {s[-k]:.3g}: left vector (rows)\n      {describe(u[:, m - k], rows)}")
        print(f"    right vector (variables)\n      {describe(vt[m - k], variables)}")
    # (b) the reduced Hessian on the null space of J (the n - m right vectors beyond the rows)
    z = vt[m:].T
    reduced = z.T @ hess @ z
    reduced = 0.5 * (reduced + reduced.T)
    eigenvalues, eigenvectors = np.linalg.eigh(reduced)
    negative = int(np.sum(eigenvalues < 0))
    print(f"(b) Z^T H Z ({z.shape[1]} x {z.shape[1]}): {negative} negative eigenvalues; smallest |.| "
          f"{np.min(np.abs(eigenvalues)):.3g}, largest {eigenvalues[-1]:.3g}; lowest "
          f"{', '.join(f'{v:.3g}' for v in eigenvalues[:count])}")
    for k in np.argsort(np.abs(eigenvalues))[:count]:
        print(f"  |eigenvalue| small {eigenvalues[k]:.3g}:\n      {describe(z @ eigenvectors[:, k], variables)}")
    for k in range(min(count, negative)):
        print(f"  negative {eigenvalues[k]:.3g}:\n      {describe(z @ eigenvectors[:, k], variables)}")
    # (c) IPOPT's steps
    steps_path = folder / "steps.csv"
    if steps_path.exists() and steps_path.stat().st_size > 0:
        steps = np.atleast_2d(np.loadtxt(steps_path, delimiter=","))
        print("(c) IPOPT's last steps (search direction dx of the iteration before):")
        for line in steps[-count:]:
            print(f"  iteration {int(line[0])}, |dx| {line[1]:.3g}:\n      {describe(line[2:], variables)}")
    print(f"K = {x[variables[-2][2]]:.4g} (scaled), C = {x[variables[-1][2]]:.4g} (scaled)")


if __name__ == "__main__":
    main()
