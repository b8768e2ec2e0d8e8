#pragma once
/// The directions of the 3D vine's contact rows at one contact point (vine paper eq. 13 in 3D;
/// docs/physics/vine3d.md#contact): the step holds, per point x = p + arm of a body (arm = s e),
/// d . (v + omega x arm) >= -Phi(x) / Delta t with Phi = sd(x) - r_c and d the normal n, or, in
/// contact (Phi <= the contact gap) with friction mu > 0, the four edges n +- mu t1, n +- mu t2 of
/// the Coulomb pyramid, t1 = e_z x n normalised (e_x x n where n is near e_z; in the plane z = 0
/// the planar tangent (-n_y, n_x)), t2 = n x t1. A template on the scalar so the step derivatives
/// differentiate it (Eigen AutoDiff).

#include <array>
#include <cmath>

#include "tendril/vine3d/obstacles.hpp"

namespace tendril::vine3d {

/// The row directions at x (`count` of them: 1, or 4 for the pyramid) and Phi(x) [m].
template <class S>
S contact_directions(const Obstacle3& obstacle, const Vec3T<S>& x, double contact_radius,
                     double friction, double contact_gap, std::array<Vec3T<S>, 4>& directions,
                     int& count) {
  using std::abs;
  Vec3T<S> n;
  const S phi = signed_distance(obstacle, x, n) - contact_radius;
  directions[0] = n;
  count = 1;
  if (!(friction > 0.0 && phi <= contact_gap)) return phi;
  const Vec3T<S> axis = (abs(n.z()) < 0.9 ? Vec3::UnitZ() : Vec3::UnitX()).template cast<S>();
  const Vec3T<S> t1 = Vec3T<S>(axis.cross(n)).normalized();
  const Vec3T<S> t2 = n.cross(t1);
  directions = {n + friction * t1, n - friction * t1, n + friction * t2, n - friction * t2};
  count = 4;
  return phi;
}

}  // namespace tendril::vine3d
