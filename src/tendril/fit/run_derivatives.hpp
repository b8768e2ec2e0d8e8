#pragma once
/// Runs of a rod scene with the derivatives of their observables with respect to fitted scene
/// keys, by the forward sensitivities of the run (adjoint/forward_sensitivity.hpp): the evaluator
/// of `tendril fit`'s method adjoint_lm (fit/run_least_squares.hpp, fit_runs' `derivatives`). One
/// run, with a factorization and one solve per parameter at each step, gives the derivatives of
/// every observable with respect to every parameter; the fit has at most four parameters and up to
/// three observables, where the adjoint (adjoint/run_gradient.hpp) would repeat the run and a
/// backward pass per observable.

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/fit/run_least_squares.hpp"

namespace tendril::fit {

/// The scene keys whose runs are differentiated: the flagellated robot's medium (C1, C2, mu) and
/// motor rate (motor_rpm), adjoint/medium_parameter.hpp.
const std::vector<std::string>& differentiated_keys();

/// The observables whose derivatives are computed: speed, head_rotation_rate, tail_rotation_rate
/// (adjoint/robot_objective.hpp).
const std::vector<std::string>& differentiated_observables();

/// Runs `scene_file` with `settings` (implicit Euler, no run directory) and returns its
/// `observables` (as run_scene) with their derivatives with respect to `keys` (each one of
/// differentiated_keys(), at the value the settings give it). A bad override, a scene without
/// observables or another solve, or a failed run (a step that needed dt halving included) is a
/// failed outcome with the reason.
RunOutcome run_scene_with_derivatives(const std::filesystem::path& scene_file,
                                      const RunSettings& settings,
                                      const std::vector<std::string>& keys,
                                      const std::vector<std::string>& observables);

/// Evaluates batches of run_scene_with_derivatives on `jobs` threads (>= 1).
RunBatchEvaluator derivative_evaluator(std::filesystem::path scene_file,
                                       std::vector<std::string> keys,
                                       std::vector<std::string> observables, int jobs);

}  // namespace tendril::fit
