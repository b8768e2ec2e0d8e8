#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {

Mat39 triangle_normal_jacobian(const Vec3& x0, const Vec3& x1, const Vec3& x2) {
  // n = u x v with u = x_1 - x_0, v = x_2 - x_0: dn = -[v]_x du + [u]_x dv
  const Vec3 u = x1 - x0;
  const Vec3 v = x2 - x0;
  Mat39 j;
  j.block<3, 3>(0, 0) = cross_matrix(v - u);
  j.block<3, 3>(0, 3) = -cross_matrix(v);
  j.block<3, 3>(0, 6) = cross_matrix(u);
  return j;
}

}  // namespace tendril
