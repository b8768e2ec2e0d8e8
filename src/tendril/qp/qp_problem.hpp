#pragma once
/// Convex quadratic programs of the vine-robot steps, planar and 3D (docs/physics/qp_solver.md).
///
///   minimise   1/2 x^T P x + c^T x
///   subject to A_eq x = b_eq,   A_in x >= b_in
///
/// Lagrangian and sign convention (used by every multiplier in this folder):
///   L(x, y, z) = 1/2 x^T P x + c^T x - y^T (A_eq x - b_eq) - z^T (A_in x - b_in),   z >= 0,
/// so stationarity reads  P x + c - A_eq^T y - A_in^T z = 0.

#include <string_view>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"

namespace tendril::qp {

/// One QP. Dimensions: n variables, m_eq equalities, m_in inequalities (any of m_eq, m_in may be
/// 0).
struct QpProblem {
  SparseMatrix P;     ///< Hessian (n x n), symmetric positive semidefinite, both triangles stored
  VecX c;             ///< linear term (n)
  SparseMatrix A_eq;  ///< equality rows (m_eq x n)
  VecX b_eq;          ///< equality right-hand side (m_eq)
  SparseMatrix A_in;  ///< inequality rows A_in x >= b_in (m_in x n)
  VecX b_in;          ///< inequality right-hand side (m_in)

  int num_variables() const { return static_cast<int>(c.size()); }
  int num_equalities() const { return static_cast<int>(b_eq.size()); }
  int num_inequalities() const { return static_cast<int>(b_in.size()); }
  /// Throws InputError naming the member ("qp.A_eq", ...) if a dimension does not match or a value
  /// is not finite.
  void validate() const;
  /// True if every value of P, c, A_eq, b_eq, A_in and b_in is finite (a caller that reports
  /// overflow as a numerical failure rather than bad input tests this first).
  bool all_finite() const;
};

/// Outcome of a solve. Only `solved` means the KKT residual met QpOptions::tolerance.
enum class QpStatus {
  solved,      ///< KKT residual <= tolerance
  infeasible,  ///< a Farkas certificate (y, z >= 0: A_eq^T y + A_in^T z = 0, b^T (y, z) > 0) was
               ///< found
  unbounded,   ///< a direction d with P d = 0, A_eq d = 0, A_in d >= 0, c^T d < 0 was found
  max_iterations,     ///< iteration limits reached before the tolerance
  numerical_failure,  ///< the KKT factorisation broke down
};

/// Lower-case name of a status ("solved", "infeasible", ...).
std::string_view to_string(QpStatus status);

/// max_i |v_i|, 0 for an empty vector (the QP solvers' residual norm).
inline double inf_norm(const VecX& v) {
  return v.size() == 0 ? 0.0 : v.lpNorm<Eigen::Infinity>();
}

/// Scaled KKT residuals of a primal-dual point (all dimensionless, see docs/physics/qp_solver.md):
///   dual scale    s_d = max(1, |c|, |P x|, |A_eq^T y|, |A_in^T z|)         (inf-norms)
///   primal scales s_e = max(1, |b_eq|, |A_eq x|),  s_i = max(1, |b_in|, |A_in x|)
///   z scale       s_z = max(1, |z|)
/// stationarity     = |P x + c - A_eq^T y - A_in^T z| / s_d
/// equality         = |A_eq x - b_eq| / s_e
/// inequality       = max_i max(0, b_in - A_in x)_i / s_i
/// dual_sign        = max_i max(0, -z_i) / s_z
/// complementarity  = max_i |z_i (A_in x - b_in)_i| / (s_z s_i)
/// kkt              = the largest of the five.
/// All six are +inf if x, y, z or a scale is not finite (such a point is never `solved`).
struct QpResiduals {
  double stationarity = 0.0;
  double equality = 0.0;
  double inequality = 0.0;
  double dual_sign = 0.0;
  double complementarity = 0.0;
  double kkt = 0.0;
};

/// Vectors reused by qp_residuals, so that repeated evaluations do not allocate.
struct QpResidualWork {
  VecX px, aty, atz;  // P x, A_eq^T y, A_in^T z (n)
  VecX ax_eq;         // A_eq x (m_eq)
  VecX slack;         // A_in x - b_in (m_in)
};

/// Residuals of (x (n), y (m_eq), z (m_in)) for `problem`.
QpResiduals qp_residuals(const QpProblem& problem, const VecX& x, const VecX& y, const VecX& z,
                         QpResidualWork& work);
/// Same, with temporary work vectors.
QpResiduals qp_residuals(const QpProblem& problem, const VecX& x, const VecX& y, const VecX& z);

/// Objective 1/2 x^T P x + c^T x.
double qp_objective(const QpProblem& problem, const VecX& x);

/// Result of QpSolver::solve. x, y_eq, z_in hold the best point found whatever the status.
struct QpSolution {
  VecX x;     ///< primal solution (n)
  VecX y_eq;  ///< multipliers of A_eq x = b_eq (m_eq)
  VecX z_in;  ///< multipliers of A_in x >= b_in (m_in), >= 0 at a solution
  QpStatus status = QpStatus::numerical_failure;
  int iterations = 0;                ///< active-set iterations + interior-point iterations
  int factorizations = 0;            ///< numeric LDL^T factorisations of the KKT matrix
  bool used_interior_point = false;  ///< the active-set method needed the interior-point fallback
  double kkt_residual = 0.0;         ///< QpResiduals::kkt of (x, y_eq, z_in)
  double primal_residual = 0.0;      ///< max(equality, inequality) of QpResiduals
  double dual_residual = 0.0;        ///< QpResiduals::stationarity
  double complementarity = 0.0;      ///< QpResiduals::complementarity
  double objective = 0.0;            ///< 1/2 x^T P x + c^T x
};

}  // namespace tendril::qp
