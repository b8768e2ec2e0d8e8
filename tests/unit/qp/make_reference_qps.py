#!/usr/bin/env python3
"""Writes seeded random convex QPs and cvxopt's solutions for test_qp_reference.

Usage: make_reference_qps.py OUTPUT_FILE

Problems (minimise 1/2 x'Px + c'x s.t. A_eq x = b_eq, A_in x >= b_in):
  feasible    random SPD or PSD P, full-row-rank A_eq, A_in with a known interior point x0
              (b_in = A_in x0 - slack, slack > 0), c chosen so that the problem is bounded;
  degenerate  duplicated equality rows, duplicated inequality rows, inequalities active with a
              zero multiplier, rank-deficient P that is bounded by the constraints;
  infeasible  inconsistent equalities, contradicting inequalities, inequalities contradicting the
              equalities; each with an explicit Farkas certificate checked here;
  unbounded   P singular along a feasible direction d with c'd < 0 (checked here).
The reference objective comes from cvxopt.solvers.qp (G x <= h with G = -A_in, h = -b_in) on an
equivalent problem without duplicated equality rows (cvxopt needs rank(A_eq) = m_eq).

File format (text, one record per line): "problem NAME KIND STATUS n m_eq m_in", then lines
"objective v", "P ...", "c ...", "A_eq ...", "b_eq ...", "A_in ...", "b_in ..." with dense row-major
values, and "end".
"""

import os
import sys

try:
    import numpy as np
    from cvxopt import matrix, solvers
except ImportError as error:  # the test must fail, never skip: say how to fix it
    sys.exit(f"make_reference_qps.py: {error}; install python3-numpy and python3-cvxopt (scripts/setup.sh)")

SEED = 20261121
solvers.options["show_progress"] = False
solvers.options["maxiters"] = 200
TIGHT = {"abstol": 1e-10, "reltol": 1e-10, "feastol": 1e-10, "show_progress": False}  # first try; cvxopt's defaults if it stalls


def random_psd(rng, n, rank):
    b = rng.standard_normal((n, rank))
    return b @ b.T


def random_spd(rng, n):
    return random_psd(rng, n, n) + 0.1 * np.eye(n)


def cvxopt_objective(p, c, a_eq, b_eq, a_in, b_in):
    """cvxopt's optimal objective, or None if cvxopt fails (the caller draws another problem).
    Duplicated equality rows must already be removed."""
    args = [matrix(p), matrix(c)]
    args += [matrix(-a_in), matrix(-b_in)] if a_in.shape[0] else [None, None]
    if a_eq.shape[0]:
        args += [matrix(a_eq), matrix(b_eq)]
    for options in (TIGHT, {"show_progress": False}):
        try:
            result = solvers.qp(*args, options=options)
        except (ValueError, ArithmeticError):
            continue
        if result["status"] == "optimal":
            x = np.array(result["x"]).ravel()
            return 0.5 * x @ p @ x + c @ x
    return None


def bounded_linear_term(rng, p, a_eq, a_in):
    """c = P w + A_eq' y + A_in' z with z >= 0: bounded below on the feasible set (weak duality)."""
    n = p.shape[0]
    c = p @ rng.standard_normal(n)
    if a_eq.shape[0]:
        c += a_eq.T @ rng.standard_normal(a_eq.shape[0])
    if a_in.shape[0]:
        c += a_in.T @ rng.exponential(1.0, a_in.shape[0])
    return c


def well_posed_for_cvxopt(p, a_eq, a_in):
    """cvxopt.solvers.qp needs rank(A_eq) = m_eq and rank([P; A_eq; G]) = n."""
    n = p.shape[0]
    full_row_rank = a_eq.shape[0] == 0 or np.linalg.matrix_rank(a_eq) == a_eq.shape[0]
    return full_row_rank and np.linalg.matrix_rank(np.vstack([p, a_eq, a_in])) == n


def feasible(rng, index):
    while True:
        problem = feasible_candidate(rng, index)
        if well_posed_for_cvxopt(problem[1], problem[3], problem[5]):
            reference = cvxopt_objective(*problem[1:])
            if reference is not None:
                return (*problem, reference)


def feasible_candidate(rng, index):
    n = int(rng.integers(2, 31))
    m_eq = int(rng.integers(0, n))
    m_in = int(rng.integers(0, 2 * n + 1))
    p = random_spd(rng, n) if rng.random() < 0.6 else random_psd(rng, n, int(rng.integers(1, n + 1)))
    a_eq = rng.standard_normal((m_eq, n))
    a_in = rng.standard_normal((m_in, n))
    x0 = rng.standard_normal(n)
    b_eq = a_eq @ x0
    b_in = a_in @ x0 - rng.uniform(0.05, 1.0, m_in)
    c = bounded_linear_term(rng, p, a_eq, a_in) + 3.0 * p @ rng.standard_normal(n)
    return f"feasible_{index}", p, c, a_eq, b_eq, a_in, b_in


def degenerate(rng, index):
    while True:
        problem = degenerate_candidate(rng, index)
        if problem is not None:
            return problem


def degenerate_candidate(rng, index):
    """A problem with a constructed solution x*: some active rows have zero multipliers."""
    n = int(rng.integers(3, 26))
    m_eq = int(rng.integers(1, max(2, n // 2)))
    m_active = int(rng.integers(1, n - m_eq + 1))
    m_loose = int(rng.integers(0, n + 1))
    p = random_psd(rng, n, int(rng.integers(1, n + 1))) if rng.random() < 0.5 else random_spd(rng, n)
    a_eq = rng.standard_normal((m_eq, n))
    a_in = rng.standard_normal((m_active + m_loose, n))
    x_star = rng.standard_normal(n)
    b_eq = a_eq @ x_star
    slack = np.concatenate([np.zeros(m_active), rng.uniform(0.1, 1.0, m_loose)])
    b_in = a_in @ x_star - slack
    z_star = np.concatenate([rng.exponential(1.0, m_active) * (rng.random(m_active) < 0.5), np.zeros(m_loose)])
    c = -p @ x_star + a_eq.T @ rng.standard_normal(m_eq) + a_in.T @ z_star
    if not well_posed_for_cvxopt(p, a_eq, a_in):
        return None
    reference = cvxopt_objective(p, c, a_eq, b_eq, a_in, b_in)
    if reference is None:
        return None
    # duplicate one equality row and one inequality row (same solution set, dependent constraints)
    a_eq = np.vstack([a_eq, a_eq[:1]])
    b_eq = np.concatenate([b_eq, b_eq[:1]])
    a_in = np.vstack([a_in, a_in[:1]])
    b_in = np.concatenate([b_in, b_in[:1]])
    return f"degenerate_{index}", p, c, a_eq, b_eq, a_in, b_in, reference


def infeasible(rng, index):
    n = int(rng.integers(2, 21))
    kind = index % 3
    p = random_spd(rng, n)
    c = rng.standard_normal(n)
    m_eq = int(rng.integers(1, n))
    a_eq = rng.standard_normal((m_eq, n))
    b_eq = a_eq @ rng.standard_normal(n)
    a_in = rng.standard_normal((int(rng.integers(0, n)), n))
    b_in = a_in @ rng.standard_normal(n) - 10.0
    y = np.zeros(m_eq)
    z = np.zeros(a_in.shape[0])
    if kind == 0:
        # equality row 0 repeated with a different right-hand side
        a_eq = np.vstack([a_eq, a_eq[:1]])
        b_eq = np.concatenate([b_eq, b_eq[:1] + 1.0])
        y = np.concatenate([y, [0.0]])
        y[0], y[-1] = -1.0, 1.0
    elif kind == 1:
        # a'x >= beta and a'x <= beta - 1
        a = rng.standard_normal(n)
        a_in = np.vstack([a_in, a, -a])
        b_in = np.concatenate([b_in, [0.5, 0.5]])
        z = np.concatenate([z, [1.0, 1.0]])
    else:
        # a = A_eq' w is constant (= w'b_eq) on the affine set; ask for a'x >= w'b_eq + 1
        w = rng.standard_normal(m_eq)
        a_in = np.vstack([a_in, a_eq.T @ w])
        b_in = np.concatenate([b_in, [w @ b_eq + 1.0]])
        y = -w
        z = np.concatenate([z, [1.0]])
    assert np.abs(a_eq.T @ y + a_in.T @ z).max() < 1e-12 and b_eq @ y + b_in @ z > 0.5, "certificate broken"
    return f"infeasible_{index}", p, c, a_eq, b_eq, a_in, b_in


def unbounded(rng, index):
    n = int(rng.integers(2, 21))
    d = rng.standard_normal(n)
    d /= np.linalg.norm(d)
    project = np.eye(n) - np.outer(d, d)
    p = project @ random_psd(rng, n, n) @ project
    m_eq = int(rng.integers(0, n - 1))
    a_eq = rng.standard_normal((m_eq, n)) @ project
    a_in = rng.standard_normal((int(rng.integers(0, n)), n))
    a_in -= np.outer(np.minimum(a_in @ d, 0.0), d)  # a_i'd >= 0
    x0 = rng.standard_normal(n)
    c = rng.standard_normal(n)
    c -= (c @ d + 1.0) * d  # c'd = -1
    assert np.abs(p @ d).max() < 1e-12 and (a_in @ d).min(initial=0.0) > -1e-12 and c @ d < -0.5
    return f"unbounded_{index}", p, c, a_eq, a_eq @ x0, a_in, a_in @ x0 - 0.5


def write(out, name, kind, status, p, c, a_eq, b_eq, a_in, b_in, objective):
    n = p.shape[0]
    out.write(f"problem {name} {kind} {status} {n} {a_eq.shape[0]} {a_in.shape[0]}\n")
    out.write(f"objective {objective!r}\n")
    for key, values in (("P", p), ("c", c), ("A_eq", a_eq), ("b_eq", b_eq), ("A_in", a_in), ("b_in", b_in)):
        out.write(key + "".join(f" {v!r}" for v in np.asarray(values, dtype=float).ravel()) + "\n")
    out.write("end\n")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_reference_qps.py OUTPUT_FILE")
    rng = np.random.default_rng(SEED)
    temporary = sys.argv[1] + ".tmp"
    with open(temporary, "w") as out:
        for i in range(200):
            name, *data = feasible(rng, i)
            write(out, name, "feasible", "solved", *data)
        for i in range(100):
            name, *data = degenerate(rng, i)
            write(out, name, "degenerate", "solved", *data)
        for i in range(45):
            name, *data = infeasible(rng, i)
            write(out, name, "infeasible", "infeasible", *data, float("nan"))
        for i in range(15):
            name, *data = unbounded(rng, i)
            write(out, name, "unbounded", "unbounded", *data, float("nan"))
    os.replace(temporary, sys.argv[1])


if __name__ == "__main__":
    main()
