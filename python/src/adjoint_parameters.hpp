#pragma once
// The adjoint parameters of a rod or shell scene by their Python names
// (Simulation.run_with_gradient, docs/python.md "Gradients of a run"; docs/physics/gradients.md
// "Parameters").

#include <string>
#include <utility>
#include <vector>

#include "rod_simulation.hpp"
#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"

namespace tendril::python {

/// The model the gradient is taken on and its parameters.
struct SceneParameters {
  /// the scene's model; the actuators whose table knots are parameters are replaced by the
  /// equivalent ControlSchedule (the same values at every time)
  Model model;
  std::vector<adjoint::Parameter> parameters;  ///< named as given, at the given values
};

/// The parameters (name, value) of `simulation`'s scene (InputError "parameters" naming an unknown
/// or inapplicable name, listing the names allowed; InputError "key" for a scene key the scene
/// does not differentiate, fit::check_keys). A name is a scene key of tendril fit's adjoint_lm
/// ("rods[0].material.E", fit::scene_key_parameters: the scene loaded again with the key at its
/// value, as in the scene file), or one of the parameters no scene key expresses:
/// rest_length_scale, poisson_ratio (of every rod and shell), natural_curvature_1 or _2 (uniform,
/// affine in kappa), springs[k].natural_curvature_1 or _2, edges[e].rest_length,
/// hinges[h].natural_angle, shell_edges[e].natural_fold, point_loads[j].force_x, _y or _z and
/// actuation[a].table[j]. The scene keys' parameters come first in the list (the last of them
/// loads the model the others then apply to), the others after them in the order given.
SceneParameters scene_parameters(const RodSimulation& simulation,
                                 const std::vector<std::pair<std::string, double>>& named);

}  // namespace tendril::python
