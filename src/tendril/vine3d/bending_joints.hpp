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

#include <vector>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "tendril/core/types.hpp"
#include "tendril/vine3d/vine3d_model.hpp"

namespace tendril::vine3d {

/// beta_j = (phi_y, phi_z) of bending joint j [rad] and, in `phi`, the whole rotation vector.
Vec2 bend_angles(const Vine3dModel& model, const Vine3dState& state, int joint, Vec3& phi);

/// The generalised bend moment of joint j at bend deviation delta = beta - beta_0 [rad]: K_j delta,
/// or with the inflated-beam law M(|delta|) delta / |delta| (the axisymmetric tube bends by the
/// bend's magnitude in its plane) [N m].
Vec2 bend_moment(const Vine3dModel& model, int joint, const Vec2& deviation);

/// The value of a scalar: x itself, or an AutoDiff scalar's value.
inline double scalar_value(double x) {
  return x;
}
template <class D>
double scalar_value(const Eigen::AutoDiffScalar<D>& x) {
  return x.value();
}

/// B = P J_r^-1(phi) R_b^T of a joint between the parent orientation r_a and the body's r_b, and
/// in `phi` log(R_a^T R_b), on a scalar S (double, or AutoDiff for the step derivatives):
/// betadot = B (omega_b - omega_a) (2 x 3), and the torque on body b of a generalised bend moment
/// m is -B^T m.
template <class S>
Eigen::Matrix<S, 2, 3> bend_rate_map(const QuatT<S>& r_a, const QuatT<S>& r_b, Vec3T<S>& phi) {
  phi = rotation_log(QuatT<S>(r_a.conjugate() * r_b));
  // row k of P J_r^-1 R_b^T is (R_b J_r^-T e_k)^T, k = y, z
  const Mat3T<S> rb = r_b.toRotationMatrix();
  Eigen::Matrix<S, 2, 3> map;
  const S coefficient = right_jacobian_inverse_coefficient(S(phi.squaredNorm()));
  for (int k = 0; k < 2; ++k)
    map.row(k) = rb * right_jacobian_inverse_transpose_times(phi, coefficient,
                                                             Vec3T<S>(Vec3::Unit(k + 1).cast<S>()));
  return map;
}

/// The generalised bend moment at bend deviation delta = beta - beta_0 [rad] of a joint of
/// stiffness K = `stiffness` (bend_moment), on a scalar S; with the inflated-beam law the moment's
/// derivative enters through the law's tangent.
template <class S>
Eigen::Matrix<S, 2, 1> joint_moment(const Vine3dModel& model, const S& stiffness,
                                    const Eigen::Matrix<S, 2, 1>& deviation) {
  using std::sqrt;
  if (model.bending_law == BendingLaw::linear) return stiffness * deviation;
  const S angle = sqrt(deviation.squaredNorm());
  const double angle_value = scalar_value(angle);
  if (angle_value == 0.0) return Eigen::Matrix<S, 2, 1>::Zero();
  // M(angle) to first order about its value: exact in value and first derivative
  const vine::BendingMoment law =
      vine::inflated_beam_joint_moment(model.inflated_beam, angle_value);
  return (law.moment + law.stiffness * (angle - angle_value)) / angle * deviation;
}

/// The torque of bending joint j on its distal body (its parent takes minus it) [N m], world frame,
/// from its bend rate map B and rotation vector phi (bend_rate_map) and the relative angular
/// velocity `relative` = omega_b - omega_a [rad/s], with K_j = `stiffness` and C_j = `damping`:
/// -B^T (M(beta - beta_0) + C_j betadot), the damper only if `with_damping`. On a scalar S.
template <class S>
Vec3T<S> bend_torque(const Vine3dModel& model, int joint, const Eigen::Matrix<S, 2, 3>& rate_map,
                     const Vec3T<S>& phi, const Vec3T<S>& relative, const S& stiffness,
                     const S& damping, bool with_damping) {
  Eigen::Matrix<S, 2, 1> moment = joint_moment(
      model, stiffness,
      Eigen::Matrix<S, 2, 1>(phi.template tail<2>() - model.rest_bend[joint].template cast<S>()));
  if (with_damping) moment += damping * (rate_map * relative);
  return -(rate_map.transpose() * moment);
}

/// bend_torque at the parent's and the body's orientations r_a, r_b.
template <class S>
Vec3T<S> bend_torque(const Vine3dModel& model, int joint, const QuatT<S>& r_a, const QuatT<S>& r_b,
                     const Vec3T<S>& relative, const S& stiffness, const S& damping,
                     bool with_damping) {
  Vec3T<S> phi;
  const Eigen::Matrix<S, 2, 3> rate_map = bend_rate_map(r_a, r_b, phi);
  return bend_torque(model, joint, rate_map, phi, relative, stiffness, damping, with_damping);
}

/// Sum over the bending joints of K_j / 2 |beta_j - beta_0,j|^2 (or the inflated beam's joint
/// energy of |beta_j - beta_0,j|) [J].
double bending_energy(const Vine3dModel& model, const Vine3dState& state);

/// F(q, v) (6 #bodies: force [N] then torque [N m] per body, world frame): bending springs,
/// dampers (if `with_damping`, at `velocity`), gravity on body_mass and the gyroscopic torque
/// -omega x I_w omega with I_w = R diag(I_a, I_t, I_t) R^T. If `rate_maps` is given, it receives
/// each bending joint's B_j (bend_rate_map; #bending).
void applied_forces(const Vine3dModel& model, const Vine3dState& state, const VecX& velocity,
                    VecX& force, bool with_damping = true,
                    std::vector<Eigen::Matrix<double, 2, 3>>* rate_maps = nullptr);

/// I_w of body i: R_i diag(I_a, I_t, I_t) R_i^T = I_t I + (I_a - I_t) e_i e_i^T with the body axis
/// e_i = R_i e_x [kg m^2], scaled by body_mass / m_i (the everted material of the tip body spread
/// as its own).
Mat3 world_inertia(const Vine3dModel& model, const Vine3dState& state, int body);

}  // namespace tendril::vine3d
