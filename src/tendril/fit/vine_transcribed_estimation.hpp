#pragma once
/// The joint state and parameter estimation (eq. 16) by direct transcription
/// (EstimationFormulation::transcribed): the step's own unknowns are NLP variables and the step
/// QP's optimality conditions (eq. 15; docs/physics/vine.md, "The step") NLP equality constraints,
/// so IPOPT never solves a QP inside. Per step i = 0 .. N-1, with M the mass matrix, m_ref the step
/// QP's mass scale and its multipliers y = impulse / m_ref [m/s] (rows in velocity units, as the
/// QP's):
///
///   q_{i+1} - q_i - Delta t v_{i+1} - r_q,i = 0                                      (n)
///   v_{i+1} - v_i - M^-1 (Delta t F(q_i, v_i; K, C) + m_ref A(q_i, v_i)^T y_i) - r_v,i = 0   (n)
///   a_j(q_i) . v_{i+1} + c_j(q_i) / Delta t = 0          joint rows j                (2 #bodies)
///   a_j(q_i, v_i) . v_{i+1} - u_j,i = 0                  growth rows (look-ahead beta)
///   (#prismatic) L_c(q_i) . v_{i+1} + Phi_c(q_i) / Delta t = 0        the known contacts at step
///   i, y_c >= 0 (a bound)
///
/// A = the rows' coefficients (vine/constraint_rows.hpp), F the springs, dampers and gravity
/// (vine/applied_forces.hpp, the paper's explicit springs). r_v is a velocity error (M^-1 applied),
/// so R keeps the step-map formulation's meaning. With r = 0 the conditions are the step QP's KKT
/// conditions with the known contacts active: the trajectory is one of the simulator (the other
/// contact points get no rows: in the wall growth only the tip touches). The first state is on the
/// joints: c(q_0) / Delta t = 0, dc/dq(q_0) v_0 = 0 and h^ . hdot(q_0, v_0) = u_0 (without them the
/// components M^-1 A^T of v_0 are absorbed by y_0 and undetermined). Variables
///   x = [Z_0 .. Z_N (q_i, v_i), r_0 .. r_{N-1} (2n each), y_0 .. y_{N-1}, K / K_scale, C /
///   C_scale];
/// objective sum_frames |p_hat - p(q_i)|^2 / sigma_p^2 + r^T R r as in
/// fit/vine_joint_estimation.hpp. Exact sparse Jacobian and exact Hessian of the Lagrangian: every
/// block is local to one step and a row's two bodies, with the rows' first and second derivatives
/// from nested AutoDiff of their templates (vine::row_second_derivatives); F is bilinear in (K, q)
/// and (C, v). No QP, no finite differences. With trust_region_iterations > 0 a bounded sparse
/// Levenberg-Marquardt pass (fit/sparse_levenberg_marquardt.hpp) first minimises the problem as
/// least squares over [Z, y, K, C] (r eliminated as the dynamics rows' defects, the other rows as
/// penalties, y_c >= 0 and K, C as bounds), and IPOPT starts warm from its point with the
/// multipliers at which the least squares are stationary. docs/physics/fitting.md. Internal to
/// src/tendril/fit: reached through estimate_vine_states_and_parameters and
/// evaluate_joint_estimation.

#include <vector>

#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit::detail {

JointEstimationResult estimate_transcribed(const vine::VineModel& model,
                                           const vine::VineState& start,
                                           const std::vector<MeasuredFrame>& frames,
                                           const JointEstimationOptions& options);

/// The transcribed problem at x (empty: its initial guess, the simulation with its multipliers).
JointEstimationProblemEvaluation evaluate_transcribed(const vine::VineModel& model,
                                                      const vine::VineState& start,
                                                      const std::vector<MeasuredFrame>& frames,
                                                      const JointEstimationOptions& options,
                                                      const VecX& x, const VecX& multipliers);

}  // namespace tendril::fit::detail
