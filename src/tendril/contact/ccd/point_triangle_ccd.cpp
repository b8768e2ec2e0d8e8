#include "tendril/contact/ccd/point_triangle_ccd.hpp"

#include "tendril/contact/ccd/additive_ccd.hpp"

namespace tendril::contact {

double point_triangle_collision_free_fraction(const Vec12& x, const Vec12& dx, double keep,
                                              double t_max) {
  return additive_collision_free_fraction(x, dx, 1, keep, t_max, [](const Vec12& y) {
    return point_triangle_closest_point(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6),
                                        y.segment<3>(9))
        .distance;
  });
}

}  // namespace tendril::contact
