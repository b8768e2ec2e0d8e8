#pragma once
/// `tendril fit`'s method vine3d_shooting (docs/physics/fitting.md, "Method `vine3d_shooting`"):
/// the 3D vine's uniform bending stiffness K and damping C fitted to tracked 3D joint points by
/// single shooting (vine3d/shooting_fit3d.hpp), reported as every method's FitReport: the values
/// with their sigmas, the history, the measured and simulated points as residuals.csv, and in
/// fit.json the covariance of (K, C), their correlation, the noise the residuals imply and the RMS
/// point error.

#include <string>
#include <vector>

#include "tendril/fit/fit_methods.hpp"

namespace tendril::fit {

/// Runs the fit of `file` (method vine3d_shooting) with the context's progress.
FitReport vine3d_shooting(const FitFile& file, const FitContext& context);

/// The table
/// `frame,step,point,measured_x,measured_y,measured_z,simulated_x,simulated_y,simulated_z` (points
/// in [m]) with its header, one row per tracked point of the frames simulated (simulated[f] the
/// joint points of frame f; fewer sets than frames leave the later frames out).
std::string tracked_points_csv(const std::vector<vine3d::TrackedFrame3>& frames,
                               const std::vector<MatX>& simulated);

}  // namespace tendril::fit
