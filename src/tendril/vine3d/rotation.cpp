#include "tendril/vine3d/rotation.hpp"

#include <cmath>

namespace tendril::vine3d {

Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return m;
}

Quat rotation_exp(const Vec3& phi) {
  const double theta = phi.norm();
  // sin(theta / 2) / theta, by its series below 1e-4 rad (error < 1e-18)
  const double k = theta < 1e-4 ? 0.5 - theta * theta / 48.0 : std::sin(0.5 * theta) / theta;
  return Quat(std::cos(0.5 * theta), k * phi.x(), k * phi.y(), k * phi.z());
}

Vec3 rotation_log(const Quat& r) {
  // the representative with w >= 0 gives the rotation angle in [0, pi]
  const double sign = r.w() < 0.0 ? -1.0 : 1.0;
  const Vec3 v = sign * r.vec();
  const double w = sign * r.w();
  const double s = v.norm();
  // 2 atan2(s, w) / s = 2 / w (1 - s^2 / (3 w^2) + ...): 2 / w below s = 1e-8 (relative error
  // < 4e-17, w > 0.7 there)
  const double k = s < 1e-8 ? 2.0 / w : 2.0 * std::atan2(s, w) / s;
  return k * v;
}

Mat3 right_jacobian_inverse(const Vec3& phi) {
  const double theta = phi.norm();
  // 1 / theta^2 - (1 + cos theta) / (2 theta sin theta) = 1/12 + theta^2 / 720 + O(theta^4)
  const double c = theta < 1e-4 ? 1.0 / 12.0 + theta * theta / 720.0
                                : 1.0 / (theta * theta) -
                                      (1.0 + std::cos(theta)) / (2.0 * theta * std::sin(theta));
  const Mat3 a = skew(phi);
  return Mat3::Identity() + 0.5 * a + c * a * a;
}

}  // namespace tendril::vine3d
