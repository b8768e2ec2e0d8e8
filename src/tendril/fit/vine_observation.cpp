#include "tendril/fit/vine_observation.hpp"

#include <cmath>

#include "tendril/fit/polyline_resample.hpp"

namespace tendril::fit {

namespace {

// centre-line vertices base .. tip (m x 2) and their derivative d vec(vertices) / dq (2m x 3n)
void centerline(const vine::VineModel& model, const VecX& q, MatX& vertices, MatX& dvertices) {
  const int n = model.num_bodies, m = n + 1;
  vertices.resize(m, 2);
  dvertices = MatX::Zero(2 * m, q.size());
  vertices.row(0) = model.base.transpose();
  for (int i = 0; i < n; ++i) {
    // body i's proximal end (i > 0) is vertex i; the tip is vertex n
    const double th = q(3 * i + 2);
    const Vec2 e(std::cos(th), std::sin(th)), de(-std::sin(th), std::cos(th));
    const auto set = [&](int vertex, double sign) {
      vertices.row(vertex) = (q.segment<2>(3 * i) + sign * model.half_length[i] * e).transpose();
      for (int c = 0; c < 2; ++c) {
        dvertices(2 * vertex + c, 3 * i + c) = 1.0;
        dvertices(2 * vertex + c, 3 * i + 2) = sign * model.half_length[i] * de[c];
      }
    };
    if (i > 0) set(i, -1.0);
    if (i + 1 == n) set(n, +1.0);
  }
}

}  // namespace

void observe_vine(const vine::VineModel& model, const VecX& q, Observation observation, int measured_points,
                  MatX& points, MatX* dpoints) {
  MatX vertices, dvertices;
  centerline(model, q, vertices, dvertices);
  if (observation == Observation::tip) {
    const int tip = static_cast<int>(vertices.rows()) - 1;
    points = vertices.row(tip);
    if (dpoints) *dpoints = dvertices.middleRows(2 * tip, 2);
    return;
  }
  const ResampledPolyline resampled = resample_polyline(vertices, measured_points);
  points = resampled.points;
  if (dpoints) *dpoints = resampled.jacobian * dvertices;
}

}  // namespace tendril::fit
