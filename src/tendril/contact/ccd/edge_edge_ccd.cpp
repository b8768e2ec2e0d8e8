#include "tendril/contact/ccd/edge_edge_ccd.hpp"

#include "tendril/contact/ccd/additive_ccd.hpp"

namespace tendril::contact {

double edge_edge_collision_free_fraction(const Vec12& x, const Vec12& p, double keep,
                                         double t_max) {
  return additive_collision_free_fraction(x, p, 2, keep, t_max, [](const Vec12& y) {
    return segment_closest_points(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6),
                                  y.segment<3>(9))
        .distance;
  });
}

}  // namespace tendril::contact
