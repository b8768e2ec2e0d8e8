#pragma once
/// Measured and simulated centre-line points of a vine fit, frame by frame, as a CSV table for
/// plotting (apps/cli/plot_fit_points.py draws one panel per frame). `tendril fit` writes it as the
/// vine methods' residuals.csv.

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::fit {

/// The table `frame,step,point,measured_x,measured_y,simulated_x,simulated_y` (points in [m]) with
/// its header, one row per simulated point. simulated[f] has as many rows as frames[f].points, or
/// one (the tip, compared with the last measured point); there may be fewer simulated sets than
/// frames (a simulation that failed part-way): the frames after them are left out.
std::string fit_points_csv(const std::vector<MeasuredFrame>& frames,
                           const std::vector<MatX>& simulated);

/// Writes fit_points_csv(frames, simulated) to `file` atomically (a temporary file renamed into
/// place).
void write_fit_points_csv(const std::filesystem::path& file,
                          const std::vector<MeasuredFrame>& frames,
                          const std::vector<MatX>& simulated);

}  // namespace tendril::fit
