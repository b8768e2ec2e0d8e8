#pragma once
/// The vine methods' fitted trajectory as a run folder the viewer opens (`tendril view
/// DIR/trajectory`): the fit's scene, from its start state (with data.track: the first frame's),
/// run with the fitted K and C (per joint when fitted per joint) through the last measured frame.
/// docs/physics/fitting.md, "What the fit writes".

#include <filesystem>

#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::fit {

/// The scene overrides of the fitted run: the fit's settings, vine.stiffness and vine.damping at
/// the fitted values, vine.steps the last frame's step.
RunSettings fitted_vine_settings(const FitFile& file, const FitReport& report);

/// Runs the fitted scene into `out_dir` (a vine run folder; vine::run_vine).
io::RunResult write_fitted_trajectory(const FitFile& file, const FitReport& report,
                                      const std::filesystem::path& out_dir);

}  // namespace tendril::fit
