#pragma once
/// The scene keys `tendril fit`'s adjoint_lm and Python's run_with_gradient differentiate, as
/// adjoint parameters: each key's parameter is the scene loaded with the key at its value, so it
/// acts exactly as the key does in the scene; the table of keys gives the degree of the polynomial
/// the step's residual is in the key's value (its exact difference stencil,
/// adjoint/parameter_residual.hpp).

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

}  // namespace tendril::fit
