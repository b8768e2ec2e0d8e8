#pragma once
/// How far a simulated centre-line is from a measured one, frame by frame
/// (docs/physics/fitting.md, "Shape error per frame"): the symmetric mean nearest-point distance
/// of the two polylines and the distance of their tips. Written into fit.json and the summary of
/// the vine methods, for the fitted values and for the initial guess.

#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/io/json.hpp"

namespace tendril::fit {

struct FrameShapeError {
  int step = 0;                ///< the frame's simulation step
  double mean_distance = 0.0;  ///< symmetric mean nearest-point distance [m] (NaN: tip only)
  double tip_error = 0.0;      ///< |simulated tip - measured tip| [m]
};

/// Distance from `p` to the polyline through the rows of `line` (>= 1 row) [m].
double distance_to_polyline(const Vec2& p, const MatX& line);

/// (1/2) (mean over a's points of their distance to polyline b + mean over b's points of their
/// distance to polyline a) [m]; a and b are (m x 2) and (k x 2), m, k >= 1.
double symmetric_mean_distance(const MatX& a, const MatX& b);

/// One entry per frame that has a simulated set (simulated[f]: the frame's points, or one row for
/// the tip, compared with the last measured point; then mean_distance is NaN).
std::vector<FrameShapeError> shape_errors(const std::vector<MeasuredFrame>& frames,
                                          const std::vector<MatX>& simulated);

/// fit.json's `shape_error`: per frame step, mean_distance and tip_error [m] of the fit and of the
/// initial guess, and their means over the frames.
io::Json shape_error_json(const std::vector<FrameShapeError>& fitted,
                          const std::vector<FrameShapeError>& guess);

/// The summary's table: one line per frame, the guess's and the fit's errors in mm.
std::string shape_error_summary(const std::vector<FrameShapeError>& fitted,
                                const std::vector<FrameShapeError>& guess);

}  // namespace tendril::fit
