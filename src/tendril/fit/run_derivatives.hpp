#pragma once
/// Runs of a rod or shell scene with the derivatives of their observables with respect to fitted
/// scene keys: the evaluator of `tendril fit`'s method adjoint_lm (fit/run_least_squares.hpp,
/// fit_runs' `derivatives`). Each fitted key is an adjoint::Parameter
/// (fit/scene_key_parameters.hpp). Each observable
/// (fit/run_observables.hpp) is an adjoint::Objective. Implicit Euler runs are differentiated by
/// the forward sensitivities (adjoint/forward_sensitivity.hpp: one run, a factorization and one
/// solve per parameter at each step, for every observable at once), implicit midpoint and
/// quasi-static runs (integrator.type static) by the adjoint (adjoint/run_gradient.hpp, a forward
/// and a backward pass per observable).

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/fit/run_least_squares.hpp"
#include "tendril/fit/scene_key_parameters.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::fit {

/// InputError unless adjoint_lm differentiates the run of `scene` with respect to `keys` (each of
/// differentiated_keys()) for `observables`: a scene whose duration is a whole number of steps
/// ("duration"; a static scene's may be 0, its one solve), observables the adjoint has
/// ("efficiency" only with head drag; a static scene's are node coordinates and, without point
/// moments, its elastic energy: "observable"), and a key of degree > 1 (a rod's radius, a shell's
/// thickness) only in a scene whose terms are all polynomial in it (no contact or media: "key").
void check_differentiable(const sim::RodScene& scene, const std::vector<std::string>& keys,
                          const std::vector<std::string>& observables);

/// Runs `scene_file` with `settings` (which set every key of `keys`) and returns its
/// `observables` (as run_scene) with their derivatives with respect to `keys`. A bad override, what
/// check_differentiable refuses or a failed run is a failed outcome with the reason.
RunOutcome run_scene_with_derivatives(const std::filesystem::path& scene_file,
                                      const RunSettings& settings,
                                      const std::vector<std::string>& keys,
                                      const std::vector<std::string>& observables);

/// Evaluates batches of run_scene_with_derivatives on `jobs` threads (>= 1).
RunBatchEvaluator derivative_evaluator(std::filesystem::path scene_file,
                                       std::vector<std::string> keys,
                                       std::vector<std::string> observables, int jobs);

}  // namespace tendril::fit
