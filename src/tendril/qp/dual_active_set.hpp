#pragma once
/// Dual active-set method of Goldfarb and Idnani for strictly convex QPs (internal to tendril_qp).
/// D. Goldfarb, A. Idnani, "A numerically stable dual method for solving strictly convex quadratic
/// programs", Math. Programming 27, 1983; see docs/physics/qp_solver.md.

#include <vector>

#include "tendril/qp/active_set.hpp"

namespace tendril::qp {

/// Runs at most `max_iterations` iterations (one factorisation each) of the dual method. It starts
/// from the minimiser on the equalities and the rows of `working` (the warm start: the previous
/// solve's working set) if their multipliers are >= 0 (rows with negative ones are dropped, at most
/// twice), else from the minimiser on the equalities alone. The working set W (`working`: m_in
/// flags, the final working set on return) stays linearly independent and its multipliers
/// non-negative: each iteration takes the most violated row p and moves x, the multipliers of W and
/// z_p along the direction that keeps stationarity and A_W x = b_W until row p holds (p joins W) or
/// a multiplier of W reaches 0 (that row leaves W). A row p that is a linear combination of A_eq
/// and the rows of W does not move x (the direction's curvature a_p' dx is below 1e-6 of a_p'
/// diag(P)^-1 a_p): then only multipliers move, until a row of W leaves. So dependent active rows
/// (the edges of a sticking point's friction pyramid, contact points tied by joints), on which the
/// primal-dual method cycles, never enter W together. P must be positive definite on the null space
/// of A_eq. Ends with one solve of the equality-constrained QP on W; `converged` when no row is
/// violated by more than tol s_i. `point` receives the last point.
ActiveSetResult solve_dual_active_set(const QpProblem& problem, const QpOptions& options,
                                      int max_iterations, QpWorkspace& work,
                                      std::vector<char>& working, QpPoint& point);

}  // namespace tendril::qp
