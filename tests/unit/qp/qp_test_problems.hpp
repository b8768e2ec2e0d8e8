#pragma once
// Builders of small QpProblems from dense matrices, shared by the QP solver tests.

#include "tendril/qp/qp_problem.hpp"

namespace tendril::qp::test {

inline SparseMatrix to_sparse(const MatX& dense) {
  SparseMatrix m = dense.sparseView();
  m.makeCompressed();
  return m;
}

/// minimise 1/2 x'Px + c'x s.t. A_eq x = b_eq, A_in x >= b_in (dense inputs; empty matrices need n
/// columns).
inline QpProblem make_problem(const MatX& P, const VecX& c, const MatX& A_eq, const VecX& b_eq,
                              const MatX& A_in, const VecX& b_in) {
  return QpProblem{to_sparse(P), c, to_sparse(A_eq), b_eq, to_sparse(A_in), b_in};
}

}  // namespace tendril::qp::test
