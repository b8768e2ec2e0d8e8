#pragma once
/// vine3d_shooting's fitted trajectory and measured points as 3D vine run folders the viewer opens
/// (`tendril view DIR/trajectory DIR/measured`), as fit/fitted_trajectory.hpp does for the planar
/// vine (docs/physics/fitting.md, "Method `vine3d_shooting`").

#include <filesystem>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::fit {

/// The scene overrides of the fitted run: the fit's settings, vine3d.stiffness and vine3d.damping
/// at their fitted values, and vine3d.steps the last tracked frame's step. The run's run.json
/// records them.
RunSettings fitted_vine3d_settings(const FitFile& file, const FitReport& report);

/// Runs the fitted 3D vine scene from its start into `out_dir` (a vine3d run folder).
io::RunResult write_fitted_vine3d_trajectory(const FitFile& file, const FitReport& report,
                                             const std::filesystem::path& out_dir);

/// The tracked frames (file.tracked_points) as a vine3d run folder in `out_dir`: one saved frame
/// per tracked frame at the start's time + step x vine3d.dt (frame_time [s]), its joint points the
/// centre line (centerline (F, n + 1, 3) [m]) and the midpoints between them the bodies
/// (body_position (F, n, 3) [m]); the scene record (tube diameter, obstacles) is the fit's scene.
/// Returns the folder.
std::filesystem::path write_measured_vine3d_run(const FitFile& file,
                                                const std::filesystem::path& out_dir);

}  // namespace tendril::fit
