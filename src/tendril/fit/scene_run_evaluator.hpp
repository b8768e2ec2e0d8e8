#pragma once
/// Runs of a rod scene for fits (fit/run_least_squares.hpp): one run in this process with its
/// overrides, returning the observables a fit compares with measurements (fit/run_observables.hpp),
/// and a batch evaluator that runs a batch on a pool of worker threads (each run is its own
/// Simulation).

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tendril/fit/run_least_squares.hpp"

namespace tendril::fit {

/// Runs `scene_file` with `settings` (no run directory) and returns `observables` of its run
/// (parse_run_observable); a bad override or observable or a failed run is a failed outcome with
/// the reason.
RunOutcome run_scene(const std::filesystem::path& scene_file, const RunSettings& settings,
                     const std::vector<std::string>& observables);

/// Evaluates batches by calling `run` for each run's settings on `jobs` threads (>= 1); after
/// SIGINT / SIGTERM (io::stop_signal()) the runs not yet started fail as "interrupted".
RunBatchEvaluator thread_pool(std::function<RunOutcome(const RunSettings&)> run, int jobs);

/// Evaluates batches of runs of `scene_file` on `jobs` threads (>= 1).
RunBatchEvaluator thread_pool_evaluator(std::filesystem::path scene_file,
                                        std::vector<std::string> observables, int jobs);

}  // namespace tendril::fit
