#pragma once
/// The vine methods' fitted trajectory as a run folder the viewer opens (`tendril view
/// DIR/trajectory`): the fit's scene, from its start state (with data.track: the first frame's, as
/// estimated by vine_shooting), run with the fitted parameters through the last measured frame;
/// and the measured frames as a run folder of the same kind (`tendril view DIR/trajectory
/// DIR/measured` shows them side by side). docs/physics/fitting.md, "What the vine fits write".

#include <filesystem>
#include <string>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::fit {

/// The scene overrides of the fitted run: the fit's settings, then every fitted parameter at its
/// fitted value through the scene key that sets it (vine.stiffness and vine.damping as lists,
/// per joint when fitted per joint; vine.growth.rate or the schedule's row
/// vine.growth.schedule[i][1]; vine.rest_angles; vine.contact.radius; the inflated-beam law's
/// M_c and theta_w as vine.inflated_beam.pressure = M_c / (pi r^3) and wrinkling_strain =
/// theta_w r / l, r and l held), the estimated start (vine.initial_state.q) when the fit
/// estimated it, and vine.steps the last frame's step. The run's run.json records them all.
RunSettings fitted_vine_settings(const FitFile& file, const FitReport& report);

/// Empty if the fitted trajectory can be written, else the first parameter key no override can
/// set: a growth sample of a schedule read from vine.growth.table_csv.
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
