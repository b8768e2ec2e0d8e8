#pragma once
/// The step QP's KKT system at the last step's active set, differentiated once: shared by the step
/// map's first derivatives (vine/step_derivatives.hpp) and its second derivatives
/// (vine/step_second_derivatives.hpp). docs/physics/vine.md#derivatives.
///
/// With x = (v_{k+1}, lambda), lambda = [y; z_active] (every equality row, the inequality rows with
/// z_i above the threshold) and theta = (q_k, v_k, K_j, C_j, u_j, theta_bar_j, r_c, M_c, theta_w),
/// the KKT residual
///   F(x, theta) = [r1; r2],  r1 = P v + c(theta) - A(theta)^T lambda,  r2 = A(theta) v - b(theta)
/// is linear in x for fixed theta; dF/dx = [P  -A^T; A  0] and dx/dtheta = -(dF/dx)^{-1} dF/dtheta.

#include <memory>
#include <vector>

#include <Eigen/SparseLU>

#include "tendril/core/types.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

struct StepKkt {
  int n = 0, pins = 0, prismatic = 0;
  /// parameter columns of theta: q (n) | v (n) | K (#pins) | C (#pins) | u (#prismatic) | rest
  /// angles theta_bar (#pins) | contact radius r_c (1) | the inflated-beam law's M_c, theta_w (2)
  int col_v = 0, col_k = 0, col_c = 0, col_u = 0, col_rest = 0, col_radius = 0, col_law = 0,
      num_params = 0;
  std::vector<const RowSpec*> rows;  ///< the active rows (equalities first, in the QP's order)
  std::vector<double> lambda;        ///< their multipliers (QP's scaled units)
  int active_inequalities = 0;
  SparseMatrix matrix;                                ///< dF/dx ((n + #rows)^2)
  std::unique_ptr<Eigen::SparseLU<SparseMatrix>> lu;  ///< its factorisation
  MatX dx;                                            ///< dx/dtheta ((n + #rows) x num_params)
};

/// Global DOF of local entry l (0..5) of a row, -1 for the world.
inline int row_global_dof(const RowSpec& row, int l) {
  const int body = l < 3 ? row.body_a : row.body_b;
  return body < 0 ? -1 : 3 * body + l % 3;
}

/// Linearises the last step of `stepper` (call after a successful step()). False if the step did
/// not solve, growth is force-limited (not differentiated) or the KKT matrix is singular.
bool linearise_step(const VineStepper& stepper, double active_threshold, StepKkt& out);

}  // namespace tendril::vine
