#pragma once
// The adjoint parameters of a rod or shell scene by their Python names
// (Simulation.run_with_gradient, docs/python.md "Gradients of a run"; docs/physics/gradients.md
// "Parameters").

#include <string>
#include <utility>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::python {

/// The model the gradient is taken on and its parameters.
struct SceneParameters {
  /// the scene's model; the actuators whose table knots are parameters are replaced by the
  /// equivalent ControlSchedule (the same values at every time)
  Model model;
  std::vector<adjoint::Parameter> parameters;  ///< named as given, at the given values
};

/// The parameters (name, value) of `facade`'s scene (InputError "parameters" naming an unknown or
/// inapplicable name, listing the names allowed).
SceneParameters scene_parameters(const sim::Simulation& facade,
                                 const std::vector<std::pair<std::string, double>>& named);

}  // namespace tendril::python
