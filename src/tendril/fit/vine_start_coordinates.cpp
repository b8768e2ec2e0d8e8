#include "tendril/fit/vine_start_coordinates.hpp"

#include <cmath>

namespace tendril::fit {

VecX start_coordinates(const vine::VineModel& model, const VecX& q) {
  const int pins = model.num_pins();
  VecX xi(model.num_bodies);
  for (int j = 0; j < pins; ++j) xi(j) = q(6 * j + 2);
  for (int j = 0; j < model.num_prismatic(); ++j) {
    const auto a = static_cast<std::size_t>(2 * j);
    const Vec2 h = q.segment<2>(6 * j + 3) - q.segment<2>(6 * j);
    xi(pins + j) = h.norm() - model.half_length[a] - model.half_length[a + 1];
  }
  return xi;
}

VecX start_configuration(const vine::VineModel& model, const VecX& xi, MatX* dq_dxi) {
  const int n = model.num_bodies, pins = model.num_pins();
  VecX q(3 * n);
  if (dq_dxi) dq_dxi->setZero(3 * n, n);
  Vec2 anchor = model.base;
  // d anchor / d xi (2 x n): the proximal end of body 2j depends on phi_0 .. phi_{j-1} and
  // e_0 .. e_{j-1}
  MatX danchor = MatX::Zero(2, n);
  for (int j = 0; j < pins; ++j) {
    const auto a = static_cast<std::size_t>(2 * j);
    const double phi = xi(j);
    const Vec2 u(std::cos(phi), std::sin(phi)), du(-std::sin(phi), std::cos(phi));
    const bool paired = 2 * j + 1 < n;
    // distances along u from the anchor: body 2j's centre, its partner's centre, the next anchor
    const double d0 = model.half_length[a];
    const double d1 = paired ? model.half_length[a + 1] : 0.0;
    const double gap = paired ? xi(pins + j) : 0.0;
    const double along[3] = {d0, 2.0 * d0 + gap + d1, 2.0 * d0 + gap + 2.0 * d1};
    for (int b = 0; b < (paired ? 2 : 1); ++b) {
      const int body = 2 * j + b;
      q.segment<2>(3 * body) = anchor + along[b] * u;
      q(3 * body + 2) = phi;
      if (!dq_dxi) continue;
      dq_dxi->block(3 * body, 0, 2, n) = danchor;
      dq_dxi->block<2, 1>(3 * body, j) += along[b] * du;
      if (b == 1) dq_dxi->block<2, 1>(3 * body, pins + j) += u;
      (*dq_dxi)(3 * body + 2, j) = 1.0;
    }
    danchor.col(j) += along[2] * du;
    if (paired) danchor.col(pins + j) += u;
    anchor += along[2] * u;
  }
  return q;
}

}  // namespace tendril::fit
