#pragma once
/// Measured and simulated centre-line points of a vine fit, frame by frame, as a CSV table for
/// plotting (apps/cli/plot_fit_points.py draws one panel per frame).

#include <filesystem>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::fit {

/// Writes `frame,step,point,measured_x,measured_y,simulated_x,simulated_y` (points in [m]), one row
/// per point, atomically (a temporary file renamed into place). simulated[f] has as many rows as
/// frames[f].points, or one (the tip, compared with the last measured point).
void write_fit_points_csv(const std::filesystem::path& file, const std::vector<MeasuredFrame>& frames,
                          const std::vector<MatX>& simulated);

}  // namespace tendril::fit
