#pragma once
/// Derivatives of the 3D vine's step map (x_k; K, C, u) -> x_{k+1} of the last step
/// (docs/physics/vine3d.md#step-derivatives), by implicit differentiation of the QP's KKT system at
/// its solution, as the planar vine/step_derivatives.hpp. With A = [A_eq; active inequality rows]
/// (z_i > threshold) and lambda = [y; z_active], the residuals r1 = P V + c - A^T lambda and
/// r2 = A V - b vanish at the solution, so
///   [P  -A^T; A  0] [dV/dtheta; dlambda/dtheta] = -[dr1/dtheta; dr2/dtheta]
/// (the KKT matrix factorised once). The partial derivatives dr/dtheta at the fixed
/// (V, lambda) are exact: Eigen AutoDiff, term by term, of the templates the step assembles its
/// data from (joint_rows.hpp, bending_joints.hpp, contact_rows.hpp, the mass blocks), as the planar
/// vine/step_kkt.hpp does with its rows. A closest contact point's offset s along its body moves
/// with the pose (d/ds sd(p + s e) = 0 differentiated implicitly); the tip's everted mass
/// (Vine3dModel::everted_density) is a function of the prismatic joints and the growth rates.
///
/// State tangents per body i, world frame: (dp_i, dtheta_i, dv_i, domega_i) with r_i ->
/// exp(dtheta_i) r_i (12 per body, body-major). Through the update p_{k+1} = p_k + Delta t v_{k+1}
/// and r_{k+1} = exp(Delta t omega_{k+1}) r_k:
///   dp_{k+1} = dp_k + Delta t dv_{k+1},
///   dtheta_{k+1} = R(Delta t omega_{k+1}) dtheta_k + Delta t J_l(Delta t omega_{k+1}) domega_{k+1}
/// with J_l the left Jacobian of SO(3) (J_l(phi) = J_r(phi)^T).

#include "tendril/core/types.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {

/// Jacobians of the last step; n = 12 #bodies state tangents.
struct Vine3dStepDerivatives {
  bool ok = false;              ///< false if the last step did not solve or the KKT is singular
  int active_inequalities = 0;  ///< contact rows treated as active
  MatX dx_dx;                   ///< d x_{k+1} / d x_k (n x n)
  MatX dx_dK;                   ///< w.r.t. the bending stiffnesses K_j (n x #bending)
  MatX dx_dC;                   ///< w.r.t. the bending dampings C_j (n x #bending)
  MatX dx_du;                   ///< w.r.t. the joint growth rates u_j (n x #prismatic)
};

/// Differentiates the last step of `stepper` (call after a successful step()).
/// `active_threshold`: z_i above it (scaled QP units) marks a contact row active.
Vine3dStepDerivatives step_derivatives(const Vine3dStepper& stepper,
                                       double active_threshold = 1e-12);

}  // namespace tendril::vine3d
