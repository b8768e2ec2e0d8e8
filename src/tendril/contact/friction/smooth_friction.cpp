#include "tendril/contact/friction/smooth_friction.hpp"

#include <cmath>

namespace tendril::contact {

FrictionDirection smooth_friction_direction(const Vec3& v, double slip_tolerance) {
  const double half_k2 = 7.5 / slip_tolerance;  // K2 / 2 [s/m]
  const double speed = v.norm();
  const double y = half_k2 * speed;
  // gamma / s and c = (gamma' - gamma / s) / s^2, with gamma = tanh(y), gamma' = (K2/2) (1 - tanh^2
  // y)
  double gamma_over_s, c;
  if (y < 1e-3) {
    // tanh(y)/y = 1 - y^2/3 + 2 y^4/15, (1 - tanh^2 y) - tanh(y)/y = -2 y^2/3 + 8 y^4/15
    const double y2 = y * y;
    gamma_over_s = half_k2 * (1.0 - y2 / 3.0 + 2.0 * y2 * y2 / 15.0);
    c = half_k2 * half_k2 * half_k2 * (-2.0 / 3.0 + 8.0 * y2 / 15.0);
  } else {
    const double gamma = std::tanh(y);
    gamma_over_s = gamma / speed;
    c = (half_k2 * (1.0 - gamma * gamma) - gamma_over_s) / (speed * speed);
  }
  FrictionDirection out;
  out.h = gamma_over_s * v;
  out.dh_dv = gamma_over_s * Mat3::Identity() + c * v * v.transpose();
  return out;
}

}  // namespace tendril::contact
