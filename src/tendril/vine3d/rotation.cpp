#include "tendril/vine3d/rotation.hpp"

#include <cmath>

namespace tendril::vine3d {

Quat rotation_exp(const Vec3& phi) {
  const double theta = phi.norm();
  // sin(theta / 2) / theta, by its series below 1e-4 rad (error < 1e-18)
  const double k = theta < 1e-4 ? 0.5 - theta * theta / 48.0 : std::sin(0.5 * theta) / theta;
  return Quat(std::cos(0.5 * theta), k * phi.x(), k * phi.y(), k * phi.z());
}

}  // namespace tendril::vine3d
