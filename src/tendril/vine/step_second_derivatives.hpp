#pragma once
/// Second derivatives of the step map (q_k, v_k; K, C) -> (q_{k+1}, v_{k+1}) of the last step,
/// contracted with a weight on its outputs, by differentiating the step QP's KKT system twice at
/// the solution's active set (docs/physics/vine.md#second-derivatives).
///
/// For s = w_q . q_{k+1} + w_v . v_{k+1} + w_h . (held impulses) and theta = (q_k, v_k, K_j, C_j):
/// since q_{k+1} = q_k + Delta t v_{k+1}, s = w_q . q_k + omega . v_{k+1} (+ w_h . m_ref
/// lambda_held) with omega = w_v + Delta t w_q. With x = (v_{k+1}, lambda), F(x, theta) = 0 the KKT
/// residual (vine/step_kkt.hpp, linear in x), X = dx/dtheta and the adjoint mu from (dF/dx)^T mu =
/// ds/dx, differentiating mu . F(x(theta), theta) = 0 twice gives
///   d2s/dtheta2 = -( L_tt + X^T L_xt + L_xt^T X ),   L = mu . F,
/// L_tt, L_xt its second partials (L_xx = 0). The rows' partials come from nested forward AutoDiff
/// of the row templates (vine/constraint_rows.hpp), the springs' and dampers' by hand (F is
/// bilinear in K and q, C and v). The same active set and one-sidedness as
/// vine/step_derivatives.hpp; the joint growth rates u enter linearly and are not among theta.

#include "tendril/core/types.hpp"
#include "tendril/vine/constraint_rows.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

struct StepSecondDerivatives {
  bool ok = false;  ///< false if the last step did not solve or its KKT matrix is singular
  /// d2s / dtheta2, theta = (q_k (n), v_k (n), K_j (#pins), C_j (#pins)); symmetric
  /// ((2n + 2 #pins)^2, n = 3 #bodies)
  MatX hessian;
};

/// Differentiates the last step of `stepper` twice (call after a successful step()). w_q, w_v: (n)
/// weights on q_{k+1}, v_{k+1}; w_held: (#bilateral contacts) on the held normal impulses [per N s]
/// (empty: none). `active_threshold` as in step_derivatives.
StepSecondDerivatives step_second_derivatives(const VineStepper& stepper, const VecX& w_q,
                                              const VecX& w_v, const VecX& w_held = {},
                                              double active_threshold = 1e-12);

/// A row of the step QP and its first and second derivatives w.r.t. its 12 local inputs
/// (q_local (6), v_local (6)), by nested forward AutoDiff of evaluate_row.
struct RowSecondDerivatives {
  VecN<6> a = VecN<6>::Zero();  ///< coefficients on v_{k+1}
  double rhs = 0.0, phi = 0.0;  ///< right-hand side; Phi [m] for contact rows
  Eigen::Matrix<double, 6, 12> da = Eigen::Matrix<double, 6, 12>::Zero();  ///< d a_l / d(local)
  VecN<12> drhs = VecN<12>::Zero(), dphi = VecN<12>::Zero();
  MatN<12> d2a[6];  ///< d2 a_l / d(local)^2
  MatN<12> d2rhs = MatN<12>::Zero(), d2phi = MatN<12>::Zero();
};

RowSecondDerivatives row_second_derivatives(const RowSpec& row, const RowContext& context,
                                            const VecN<6>& q_local, const VecN<6>& v_local);

/// The Hessian of a(q, v) . v in the row's 12 local inputs (q_local, v_local), the row applied to
/// the velocity it is evaluated at (a growth row with look-ahead 0: g(q, v); a joint row: dc/dq v).
inline MatN<12> velocity_row_hessian(const RowSecondDerivatives& d, const VecN<6>& v_local) {
  MatN<12> h = MatN<12>::Zero();
  for (int l = 0; l < 6; ++l) {
    h += v_local(l) * d.d2a[l];
    h.row(6 + l) += d.da.row(l);
    h.col(6 + l) += d.da.row(l).transpose();
  }
  return h;
}

}  // namespace tendril::vine
