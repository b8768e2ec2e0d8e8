#pragma once
/// The smooth Coulomb law of IMC (mat_dismech eq. 23): a friction force
///   F_fr = -mu |F_n| h(v),   h(v) = gamma(|v|) v / |v|,
///   gamma(s) = 2 / (1 + e^{-K2 s}) - 1 = tanh(K2 s / 2),   K2 = 15 / nu,
/// on a tangential slip velocity v [m/s], with the slip tolerance nu [m/s] and the normal force
/// |F_n| [N]. gamma rises from 0 (stick) to 1 (slip, |v| >> nu); h is smooth at v = 0, where
/// h ~ (K2 / 2) v (a stiff viscous law inside the stick zone). docs/physics/contact.md, "Friction".

#include "tendril/core/types.hpp"

namespace tendril::contact {

/// h(v) [-] and its Jacobian dh/dv [s/m].
struct FrictionDirection {
  Vec3 h = Vec3::Zero();
  Mat3 dh_dv = Mat3::Zero();
};

/// h and dh/dv = (gamma / s) I + (gamma' - gamma / s) v v^T / s^2 at slip velocity v [m/s] for the
/// slip tolerance nu [m/s] (> 0); series for K2 |v| / 2 < 1e-3 keep it exact to round-off near 0.
FrictionDirection smooth_friction_direction(const Vec3& v, double slip_tolerance);

}  // namespace tendril::contact
