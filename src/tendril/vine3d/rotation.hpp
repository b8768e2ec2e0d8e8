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

/// [a]x: the matrix of the cross product a x . (3 x 3).
Mat3 skew(const Vec3& a);

/// exp(phi): the unit quaternion of the rotation by |phi| [rad] about phi / |phi|.
Quat rotation_exp(const Vec3& phi);

/// log(r): the rotation vector phi [rad] of a unit quaternion, |phi| <= pi.
Vec3 rotation_log(const Quat& r);

/// J_r^-1(phi) = I + [phi]x / 2 + (1 / theta^2 - (1 + cos theta) / (2 theta sin theta)) [phi]x^2,
/// theta = |phi| < pi.
Mat3 right_jacobian_inverse(const Vec3& phi);

}  // namespace tendril::vine3d
