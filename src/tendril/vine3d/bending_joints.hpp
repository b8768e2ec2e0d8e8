#pragma once
/// Bending springs and dampers of the 3D vine (vine paper eq. 7, 8 in 3D;
/// docs/physics/vine3d.md#bending-stiffness-and-damping), gravity and the bodies' gyroscopic
/// torque: the generalised forces F of the step (world-frame force and torque per body).
///
/// Bending joint j between body a (the base frame for j = 0) and body b: the relative rotation
/// vector phi = log(R_a^T R_b) (rotation.hpp); its components about the parent's y and z axes are
/// the bend beta = (phi_y, phi_z) [rad] (phi_x, the torsion, is held by the twist row). Energy and
/// dissipation (linear law; docs/physics/vine3d.md#inflated-beam-bending for the wrinkling tube's)
///   E_j = K_j / 2 |beta - beta_0|^2,   D_j = C_j / 2 |betadot|^2,
///   betadot = P J_r^-1(phi) R_b^T (omega_b - omega_a),  P = [e_y e_z]^T,
/// give the torque on body b  tau_b = -R_b J_r^-T(phi) P^T (K_j (beta - beta_0) + C_j betadot) and
/// tau_a = -tau_b (world frame). In a plane (rotations about e_z) beta_z is the planar pin angle
/// theta_b - theta_a and tau_b . e_z is eq. 7.

#include "tendril/core/types.hpp"
#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::vine3d {

/// beta_j = (phi_y, phi_z) of bending joint j [rad] and, in `phi`, the whole rotation vector.
Vec2 bend_angles(const Vine3dModel& model, const Vine3dState& state, int joint, Vec3& phi);

/// B_j = P J_r^-1(phi) R_b^T: betadot_j = B_j (omega_b - omega_a) (2 x 3), and the torque on body
/// b of a generalised bend moment m is -B_j^T m.
Eigen::Matrix<double, 2, 3> bend_rate_map(const Vine3dModel& model, const Vine3dState& state,
                                          int joint);

/// The generalised bend moment of joint j at bend deviation delta = beta - beta_0 [rad]: K_j delta,
/// or with the inflated-beam law M(|delta|) delta / |delta| (the axisymmetric tube bends by the
/// bend's magnitude in its plane) [N m].
Vec2 bend_moment(const Vine3dModel& model, int joint, const Vec2& deviation);

/// Sum over the bending joints of K_j / 2 |beta_j - beta_0,j|^2 (or the inflated beam's joint
/// energy of |beta_j - beta_0,j|) [J].
double bending_energy(const Vine3dModel& model, const Vine3dState& state);

/// F(q, v) (6 #bodies: force [N] then torque [N m] per body, world frame): bending springs,
/// dampers (if `with_damping`, at `velocity`), gravity on body_mass and the gyroscopic torque
/// -omega x I_w omega with I_w = R diag(I_a, I_t, I_t) R^T.
void applied_forces(const Vine3dModel& model, const Vine3dState& state, const VecX& velocity,
                    VecX& force, bool with_damping = true);

/// I_w of body i: R_i diag(I_a, I_t, I_t) R_i^T [kg m^2], scaled by body_mass / m_i (the everted
/// material of the tip body spread as its own).
Mat3 world_inertia(const Vine3dModel& model, const Vine3dState& state, int body);

}  // namespace tendril::vine3d
