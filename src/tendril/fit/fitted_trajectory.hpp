#pragma once
/// The vine methods' fitted trajectory as a run folder the viewer opens (`tendril view
/// DIR/trajectory`): the fit's scene, from its start state (with data.track: the first frame's),
/// run with the fitted K and C (per joint when fitted per joint) through the last measured frame;
/// and the measured frames as a run folder of the same kind (`tendril view DIR/trajectory
/// DIR/measured` shows them side by side). docs/physics/fitting.md, "What the vine fits write".

#include <filesystem>
#include <string>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::fit {

/// The scene overrides of the fitted run: the fit's settings, vine.stiffness and vine.damping at
/// the fitted values, vine.steps the last frame's step.
RunSettings fitted_vine_settings(const FitFile& file, const FitReport& report);

/// Empty if the fitted trajectory can be written (the fit's parameters are vine.stiffness then
/// vine.damping), else the first parameter key it cannot set: the other vine parameters (growth
/// rates, heading, contact radius, the inflated-beam law) are set on the model by the fits but have
/// no scene override that run.json could record, so no trajectory is written for them.
std::string unwritable_trajectory_key(const FitFile& file);

/// Runs the fitted scene into `out_dir` (a vine run folder; vine::run_vine).
io::RunResult write_fitted_trajectory(const FitFile& file, const FitReport& report,
                                      const std::filesystem::path& out_dir);

/// The measured frames (file.frames) as a vine run folder in `out_dir` that the viewer opens: one
/// saved frame per measured frame, at step x vine.dt, its points the centre-line (frame_time [s],
/// centerline (F, P, 2) [m]) and the segments between them the bodies (body_pose (F, P - 1, 3):
/// midpoint and angle [m, m, rad]); the scene (tube diameter, walls) is the fit's run scene.
/// Returns the folder, or an empty path (nothing written) when the frames have different numbers
/// of points (data.csv's frames may; data.track's never do).
std::filesystem::path write_measured_run(const FitFile& file, const std::filesystem::path& out_dir);

}  // namespace tendril::fit
