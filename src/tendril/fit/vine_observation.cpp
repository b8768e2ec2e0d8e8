#include "tendril/fit/vine_observation.hpp"

#include <cmath>

#include <unsupported/Eigen/AutoDiff>

#include "tendril/fit/polyline_resample.hpp"

namespace tendril::fit {

namespace {

template <class S>
using MatS = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

// centre-line vertices base .. tip (m x 2) and their derivative d vec(vertices) / dq (2m x 3n)
template <class S>
void centerline(const vine::VineModel& model, const Eigen::Matrix<S, Eigen::Dynamic, 1>& q,
                MatS<S>& vertices, MatS<S>& dvertices) {
  using std::cos;
  using std::sin;
  const int n = model.num_bodies, m = n + 1;
  vertices.resize(m, 2);
  dvertices = MatS<S>::Zero(2 * m, q.size());
  vertices.row(0) = model.base.transpose().cast<S>();
  for (int i = 0; i < n; ++i) {
    // body i's proximal end (i > 0) is vertex i; the tip is vertex n
    const S th = q(3 * i + 2);
    const Eigen::Matrix<S, 2, 1> e(cos(th), sin(th)), de(-sin(th), cos(th));
    const auto set = [&](int vertex, double sign) {
      vertices.row(vertex) =
          (q.template segment<2>(3 * i) + (sign * model.half_length[i]) * e).transpose();
      for (int c = 0; c < 2; ++c) {
        dvertices(2 * vertex + c, 3 * i + c) = S(1.0);
        dvertices(2 * vertex + c, 3 * i + 2) = (sign * model.half_length[i]) * de[c];
      }
    };
    if (i > 0) set(i, -1.0);
    if (i + 1 == n) set(n, +1.0);
  }
}

// the observed points and d vec(points) / dq
template <class S>
void observe(const vine::VineModel& model, const Eigen::Matrix<S, Eigen::Dynamic, 1>& q,
             Observation observation, int measured_points, MatS<S>& points, MatS<S>* dpoints) {
  MatS<S> vertices, dvertices;
  centerline<S>(model, q, vertices, dvertices);
  if (observation == Observation::tip) {
    const int tip = static_cast<int>(vertices.rows()) - 1;
    points = vertices.row(tip);
    if (dpoints) *dpoints = dvertices.middleRows(2 * tip, 2);
    return;
  }
  const BasicResampledPolyline<S> resampled = resample_polyline<S>(vertices, measured_points);
  points = resampled.points;
  if (dpoints) *dpoints = resampled.jacobian * dvertices;
}

}  // namespace

void observe_vine(const vine::VineModel& model, const VecX& q, Observation observation,
                  int measured_points, MatX& points, MatX* dpoints) {
  observe<double>(model, q, observation, measured_points, points, dpoints);
}

MatX observation_curvature(const vine::VineModel& model, const VecX& q, Observation observation,
                           int measured_points, const VecX& weights) {
  using AD = Eigen::AutoDiffScalar<VecX>;
  const int n = static_cast<int>(q.size());
  Eigen::Matrix<AD, Eigen::Dynamic, 1> qa(n);
  for (int i = 0; i < n; ++i) qa(i) = AD(q(i), VecX::Unit(n, i));
  MatS<AD> points, dpoints;
  observe<AD>(model, qa, observation, measured_points, points, &dpoints);
  // d/dq of weights^T dpoints: row b of the result is d(weights^T dpoints(:, b)) / dq
  MatX out = MatX::Zero(n, n);
  for (int a = 0; a < dpoints.rows(); ++a)
    for (int b = 0; b < n; ++b) {
      const VecX& d = dpoints(a, b).derivatives();
      if (d.size() == n) out.row(b) += weights(a) * d.transpose();
    }
  return out;
}

}  // namespace tendril::fit
