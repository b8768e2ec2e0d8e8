#pragma once
/// Rotations of the 3D vine's bodies (docs/physics/vine3d.md#orientation-and-its-update).
///
/// A body's orientation is a unit quaternion r (body to world: R(r) x_body = x_world). Angular
/// velocities omega are in the world frame, and a step rotates by the exponential map:
///   r_{k+1} = exp(Delta t omega_{k+1}) r_k,   exp(phi) = (cos |phi|/2, sin(|phi|/2) phi / |phi|),
/// so a rotation about a fixed axis adds its angles exactly (the planar theta += Delta t omega).
/// The log map phi = log(r) returns the rotation vector (|phi| <= pi), and the right Jacobian's
/// inverse maps a body-frame perturbation delta to the change of the log:
///   log(R exp(delta)) = log(R) + J_r^-1(log R) delta + O(|delta|^2)
/// (Sola, Deray, Atchuthan, "A micro Lie theory for state estimation in robotics", 2018: the
/// right Jacobian of SO(3)).

#include <Eigen/Geometry>

#include "tendril/core/types.hpp"

namespace tendril::vine3d {

using Quat = Eigen::Quaterniond;

/// Rotations and vectors on a scalar S (double, or Eigen AutoDiff for the step derivatives).
template <class S>
using Vec3T = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3T = Eigen::Matrix<S, 3, 3>;
template <class S>
using QuatT = Eigen::Quaternion<S>;

/// [a]x: the matrix of the cross product a x . (3 x 3).
template <class S>
Mat3T<S> skew(const Vec3T<S>& a) {
  Mat3T<S> m;
  m << S(0.0), -a.z(), a.y(), a.z(), S(0.0), -a.x(), -a.y(), a.x(), S(0.0);
  return m;
}

/// exp(phi): the unit quaternion of the rotation by |phi| [rad] about phi / |phi|.
Quat rotation_exp(const Vec3& phi);

/// log(r): the rotation vector phi [rad] of a unit quaternion, |phi| <= pi.
template <class S>
Vec3T<S> rotation_log(const QuatT<S>& r) {
  using std::atan2;
  using std::sqrt;
  // the representative with w >= 0 gives the rotation angle in [0, pi]
  const double sign = r.w() < 0.0 ? -1.0 : 1.0;
  const Vec3T<S> v = sign * r.vec();
  const S w = sign * r.w();
  const S s2 = v.squaredNorm();
  // 2 atan2(s, w) / s = 2 / w (1 - s^2 / (3 w^2) + ...): 2 / w below s = 1e-8 (relative error
  // < 4e-17, w > 0.7 there)
  if (s2 < 1e-16) return (S(2.0) / w) * v;
  const S s = sqrt(s2);
  return (S(2.0) * atan2(s, w) / s) * v;
}

/// c(theta^2) = 1 / theta^2 - (1 + cos theta) / (2 theta sin theta), theta = |phi| < pi: the
/// coefficient of [phi]x^2 in J_r^-1(phi).
template <class S>
S right_jacobian_inverse_coefficient(const S& theta2) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  // 1 / theta^2 - (1 + cos theta) / (2 theta sin theta) = 1/12 + theta^2 / 720 + O(theta^4)
  if (theta2 < 1e-8) return S(1.0 / 12.0) + theta2 / 720.0;
  const S theta = sqrt(theta2);
  return S(1.0) / (theta * theta) - (S(1.0) + cos(theta)) / (S(2.0) * theta * sin(theta));
}

/// J_r^-1(phi) = I + [phi]x / 2 + c(theta^2) [phi]x^2, theta = |phi| < pi.
template <class S>
Mat3T<S> right_jacobian_inverse(const Vec3T<S>& phi) {
  const Mat3T<S> a = skew(phi);
  return Mat3T<S>::Identity() + S(0.5) * a +
         right_jacobian_inverse_coefficient(phi.squaredNorm()) * a * a;
}

/// J_r^-T(phi) u = u - phi x u / 2 + c phi x (phi x u) without forming the matrix
/// ([phi]x^T = -[phi]x), with c = right_jacobian_inverse_coefficient(|phi|^2) (shared by the
/// vectors u of one phi): with u = e_i, row i of J_r^-1 as a column.
template <class S>
Vec3T<S> right_jacobian_inverse_transpose_times(const Vec3T<S>& phi, const S& c,
                                                const Vec3T<S>& u) {
  const Vec3T<S> pu = phi.cross(u);
  return u - S(0.5) * pu + c * phi.cross(pu);
}

}  // namespace tendril::vine3d
