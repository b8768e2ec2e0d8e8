#include "tendril/fit/shape_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::fit {

namespace {

double mean_of(const std::vector<FrameShapeError>& e, double FrameShapeError::*field) {
  double sum = 0.0;
  for (const FrameShapeError& f : e) sum += f.*field;
  return e.empty() ? std::nan("") : sum / static_cast<double>(e.size());
}

io::Json errors_json(const std::vector<FrameShapeError>& e) {
  io::Json j = io::Json::object();
  io::Json steps = io::Json::array(), mean = io::Json::array(), tip = io::Json::array();
  for (const FrameShapeError& f : e) {
    steps.push_back(f.step);
    mean.push_back(f.mean_distance);
    tip.push_back(f.tip_error);
  }
  j["step"] = std::move(steps);
  j["mean_distance"] = std::move(mean);
  j["tip_error"] = std::move(tip);
  j["mean_distance_mean"] = mean_of(e, &FrameShapeError::mean_distance);
  j["tip_error_mean"] = mean_of(e, &FrameShapeError::tip_error);
  return j;
}

}  // namespace

double distance_to_polyline(const Vec2& p, const MatX& line) {
  TENDRIL_ASSERT(line.rows() >= 1 && line.cols() == 2, "a polyline of 2D points");
  double best = (p - line.row(0).transpose()).norm();
  for (Eigen::Index k = 0; k + 1 < line.rows(); ++k) {
    const Vec2 a = line.row(k).transpose(), b = line.row(k + 1).transpose();
    const double length2 = (b - a).squaredNorm();
    const double t = length2 > 0.0 ? std::clamp((p - a).dot(b - a) / length2, 0.0, 1.0) : 0.0;
    best = std::min(best, (p - (a + t * (b - a))).norm());
  }
  return best;
}

double symmetric_mean_distance(const MatX& a, const MatX& b) {
  const auto one_way = [](const MatX& from, const MatX& to) {
    double sum = 0.0;
    for (Eigen::Index k = 0; k < from.rows(); ++k)
      sum += distance_to_polyline(from.row(k).transpose(), to);
    return sum / static_cast<double>(from.rows());
  };
  return 0.5 * (one_way(a, b) + one_way(b, a));
}

std::vector<FrameShapeError> shape_errors(const std::vector<MeasuredFrame>& frames,
                                          const std::vector<MatX>& simulated) {
  std::vector<FrameShapeError> out;
  for (std::size_t f = 0; f < std::min(frames.size(), simulated.size()); ++f) {
    const MatX& m = frames[f].points;
    const MatX& s = simulated[f];
    FrameShapeError e;
    e.step = frames[f].step;
    e.tip_error = (s.row(s.rows() - 1) - m.row(m.rows() - 1)).norm();
    e.mean_distance = s.rows() > 1 ? symmetric_mean_distance(m, s) : std::nan("");
    out.push_back(e);
  }
  return out;
}

io::Json shape_error_json(const std::vector<FrameShapeError>& fitted,
                          const std::vector<FrameShapeError>& guess) {
  io::Json j = io::Json::object();
  j["fitted"] = errors_json(fitted);
  j["guess"] = errors_json(guess);
  return j;
}

std::string shape_error_summary(const std::vector<FrameShapeError>& fitted,
                                const std::vector<FrameShapeError>& guess) {
  std::string text =
      "shape error per frame [mm] (mean nearest-point distance, tip): guess -> fitted\n";
  for (std::size_t f = 0; f < fitted.size(); ++f) {
    const bool has_guess = f < guess.size();
    text += fmt::format(
        "  step {:5d}  {:8.3f} -> {:8.3f}   tip {:8.3f} -> {:8.3f}\n", fitted[f].step,
        has_guess ? 1e3 * guess[f].mean_distance : std::nan(""), 1e3 * fitted[f].mean_distance,
        has_guess ? 1e3 * guess[f].tip_error : std::nan(""), 1e3 * fitted[f].tip_error);
  }
  text += fmt::format("  mean        {:8.3f} -> {:8.3f}   tip {:8.3f} -> {:8.3f}\n",
                      1e3 * mean_of(guess, &FrameShapeError::mean_distance),
                      1e3 * mean_of(fitted, &FrameShapeError::mean_distance),
                      1e3 * mean_of(guess, &FrameShapeError::tip_error),
                      1e3 * mean_of(fitted, &FrameShapeError::tip_error));
  return text;
}

}  // namespace tendril::fit
