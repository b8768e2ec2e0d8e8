#pragma once
/// Runs of a rod or shell scene with the derivatives of their observables with respect to fitted
/// scene keys: the evaluator of `tendril fit`'s method adjoint_lm (fit/run_least_squares.hpp,
/// fit_runs' `derivatives`). Each fitted key is an adjoint::Parameter whose model is the scene
/// loaded with the key at its value, so it acts exactly as the key does in the scene; the table of
/// differentiated keys gives the degree of the polynomial the step's residual is in the key's value
/// (its exact difference stencil, adjoint/parameter_residual.hpp). Each observable
/// (fit/run_observables.hpp) is an adjoint::Objective. Implicit Euler runs are differentiated by
/// the forward sensitivities (adjoint/forward_sensitivity.hpp: one run, a factorization and one
/// solve per parameter at each step, for every observable at once), implicit midpoint and
/// quasi-static runs (integrator.type static) by the adjoint (adjoint/run_gradient.hpp, a forward
/// and a backward pass per observable).

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/fit/run_least_squares.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::fit {

/// "rods.0.material.E" / "rods[0].material.E" -> "rods[].material.E" (the schema's generic path).
std::string key_schema_path(const std::string& key);

/// The scene keys adjoint_lm differentiates (schema paths, docs/physics/fitting.md).
std::vector<std::string> differentiated_keys();

/// True if adjoint_lm differentiates the scene keys of schema path `path` ("rods[].material.E").
bool is_differentiated_key(const std::string& path);

/// InputError unless adjoint_lm differentiates the run of `scene` with respect to `keys` (each of
/// differentiated_keys()) for `observables`: a scene whose duration is a whole number of steps
/// ("duration"; a static scene's may be 0, its one solve), observables the adjoint has
/// ("efficiency" only with head drag; a static scene's are node coordinates and, without point
/// moments, its elastic energy: "observable"), and a key of degree > 1 (a rod's radius, a shell's
/// thickness) only in a scene whose terms are all polynomial in it (no contact or media: "key").
void check_differentiable(const sim::RodScene& scene, const std::vector<std::string>& keys,
                          const std::vector<std::string>& observables);

/// InputError "key" unless adjoint_lm differentiates each of `keys` in `scene`: a key of
/// differentiated_keys(), of degree > 1 only in a scene whose terms are all polynomial in it, a
/// shell's Poisson ratio only in a scene of one shell whose hinge_stiffness is not set.
void check_keys(const sim::RodScene& scene, const std::vector<std::string>& keys);

/// The model of the scene being differentiated, loaded with further "key=value" settings (after
/// its own).
using SceneModelLoader = std::function<Model(const RunSettings& settings)>;

/// The scene keys `keys` (check_keys) at `values` as adjoint parameters of `scene`'s model, in
/// that order: each records its value, and the last one's apply() loads the model with every key
/// at its recorded value (`load`), so each key acts exactly as it does in the scene (parameters
/// listed after them apply to that model). The one mapping of scene keys to parameters, of
/// adjoint_lm and of Python's Simulation.run_with_gradient.
std::vector<adjoint::Parameter> scene_key_parameters(const sim::RodScene& scene,
                                                     SceneModelLoader load,
                                                     const std::vector<std::string>& keys,
                                                     const std::vector<double>& values);

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
