#include "tendril/contact/friction/point_triangle_friction.hpp"

namespace tendril::contact {

PairFriction imc_point_triangle_friction(const Vec12& x, const Vec12& u, double radius_sum,
                                         const ContactParameters& params, bool with_jacobians) {
  const PointTriangleDistance d = point_triangle_distance(
      x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), with_jacobians);
  const Vec3& b = d.closest.barycentric;
  const std::array<double, 4> c = {1.0, -b[0], -b[1], -b[2]};
  std::array<Vec12, 4> dc;
  dc[0].setZero();
  for (int k = 0; k < 3; ++k) dc[k + 1] = -d.dbarycentric_dx.row(k).transpose();
  return imc_friction(x, u, c, dc, d.closest.w, d.closest.distance, radius_sum, params,
                      with_jacobians);
}

}  // namespace tendril::contact
