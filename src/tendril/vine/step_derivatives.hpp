#pragma once
/// Derivative of the step map (q_k, v_k; K, C, u, theta_bar, r_c, M_c, theta_w) ->
/// (q_{k+1}, v_{k+1}) of the last step, by
/// implicit differentiation of the QP's KKT system at the solution's active set
/// (docs/physics/vine.md#derivatives). With A = [A_eq; inequality rows with z_i > 0] and
/// lambda = [y; z_active], the KKT conditions
///   r1 = P v + c(theta) - A(theta)^T lambda = 0,   r2 = A(theta) v - b(theta) = 0
/// give  [P  -A^T; A  0] [dv/dtheta; dlambda/dtheta] = -[dr1/dtheta; dr2/dtheta]  and
/// dq_{k+1} = d q_k + Delta t dv_{k+1}. Partial derivatives of the rows come from Eigen AutoDiff of
/// the same row templates the step uses. Inequality rows with z_i = 0 are treated as inactive, so
/// at a weakly active contact (z_i = 0 and zero slack) this is a one-sided derivative. With body
/// contact the offset s* of each contact point is held at its value of the step (its change with
/// q, zero where s* is at a body end, is left out). Force-limited growth is not differentiated (ok
/// = false).

#include "tendril/core/types.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

/// Jacobians of the last step; n = 3 #bodies.
struct StepDerivatives {
  bool ok = false;  ///< false if the last step did not solve or the KKT matrix is singular
  int active_inequalities = 0;      ///< contact rows treated as active
  MatX dq_dq, dq_dv, dv_dq, dv_dv;  ///< d(q_{k+1}, v_{k+1}) / d(q_k, v_k) (n x n each)
  MatX dq_dK, dv_dK;                ///< w.r.t. pin stiffnesses K_j (n x #pins)
  MatX dq_dC, dv_dC;                ///< w.r.t. pin dampings C_j (n x #pins)
  MatX dq_du, dv_du;                ///< w.r.t. joint growth rates u_j (n x #prismatic)
  MatX dq_drest, dv_drest;          ///< w.r.t. pin rest angles theta_bar_j (n x #pins)
  VecX dq_dradius, dv_dradius;      ///< w.r.t. the contact radius r_c (n)
  /// w.r.t. the inflated-beam law's collapse moment M_c and wrinkling angle theta_w
  /// (InflatedBeam::wrinkling_angle) (n x 2; zero with the linear law)
  MatX dq_dlaw, dv_dlaw;
  /// Normal impulses of the bilateral contacts (VineStepper::bilateral_impulses) w.r.t. q_k, v_k
  /// (#bilateral x n each) [N s per unit], K_j and C_j (#bilateral x #pins)
  MatX dheld_dq, dheld_dv, dheld_dK, dheld_dC;
};

/// Differentiates the last step of `stepper` (call after a successful step()).
/// `active_threshold`: z_i above it (in the scaled units of the QP) marks a contact row active.
StepDerivatives step_derivatives(const VineStepper& stepper, double active_threshold = 1e-12);

}  // namespace tendril::vine
