// Gradients of rod runs from Python (docs/physics/gradients.md): Simulation.run_with_gradient.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "rod_simulation.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/adjoint/section_parameters.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::python {
namespace {

using namespace pybind11::literals;

/// The adjoint parameter of a Python name: youngs_modulus_scale, density_scale,
/// shear_modulus_scale, radius_scale (rods) and thickness_scale (shells) multiply what the
/// parameter scales in the model as built (1: unchanged), natural_curvature_1/_2 set a uniform
/// natural curvature [1/m] about that material axis.
adjoint::Parameter parameter_named(const Model& model, const std::string& name, double value) {
  adjoint::Parameter p;
  if (name == "youngs_modulus_scale")
    p = adjoint::youngs_modulus(model, 1.0);
  else if (name == "density_scale")
    p = adjoint::density(model, 1.0);
  else if (name == "shear_modulus_scale")
    p = adjoint::shear_modulus(model, 1.0);
  else if (name == "radius_scale")
    p = adjoint::rod_radius(model, 1.0);
  else if (name == "thickness_scale")
    p = adjoint::shell_thickness(model, 1.0);
  else if (name == "natural_curvature_1" || name == "natural_curvature_2")
    p = adjoint::uniform_natural_curvature(name.back() == '1' ? 0 : 1, value);
  else
    throw InputError("parameters", name,
                     "youngs_modulus_scale, density_scale, shear_modulus_scale, radius_scale, "
                     "thickness_scale, natural_curvature_1 or natural_curvature_2");
  p.name = name;
  p.value = value;
  return p;
}

/// Runs `steps` steps from the simulation's state (which stays unchanged; with static_start, from
/// its static equilibrium under the scene's static options) with the parameters at the given
/// values and returns L = 1/2 sum |x_node(step) - target|^2 with its gradient.
py::dict run_with_gradient(RodSimulation& s, int steps,
                           const std::vector<std::tuple<int, int, Vec3>>& targets,
                           const std::vector<std::pair<std::string, double>>& parameters,
                           int checkpoint_interval, bool static_start) {
  const auto held = s.lock().hold();
  const sim::Simulation& facade = s.constant();
  if (facade.scene().solve == sim::Solve::static_equilibrium)
    throw InputError("integrator.type", "static",
                     "implicit_euler or implicit_midpoint (a static start: static_start=True)");
  if (!facade.model().prescribed.empty() && s.facade().state().time != 0.0)
    throw InputError("time", number_text(s.facade().state().time) + " s",
                     "0 (a scene with moving clamps is differentiated from its start)");
  std::vector<adjoint::NodeTarget> node_targets;
  for (const auto& [node, step, target] : targets) node_targets.push_back({node, step, target});
  std::vector<adjoint::Parameter> list;
  for (const auto& [name, value] : parameters)
    list.push_back(parameter_named(facade.model(), name, value));
  adjoint::GradientOptions options;
  options.checkpoint_interval = checkpoint_interval;
  if (static_start) options.static_start = facade.scene().statics;
  const adjoint::RunGradient g = adjoint::run_with_gradient(
      facade.model(), facade.scene().dynamics, s.facade().state(), steps,
      adjoint::distance_to_targets(facade.model(), std::move(node_targets)), list, options);
  py::dict gradient;
  for (std::size_t i = 0; i < list.size(); ++i)
    gradient[py::str(list[i].name)] = g.parameters[static_cast<Eigen::Index>(i)];
  return py::dict("ok"_a = g.ok, "message"_a = g.message, "value"_a = g.value,
                  "gradient"_a = gradient, "initial_velocity"_a = g.initial_velocity,
                  "initial_position"_a = g.initial_position, "substeps"_a = g.substeps,
                  "contact_switches"_a = g.contact_switches);
}

}  // namespace

void bind_adjoint(py::module_& m) {
  auto simulation = py::reinterpret_borrow<py::class_<RodSimulation>>(m.attr("Simulation"));
  simulation.def("run_with_gradient", &run_with_gradient, "steps"_a, "targets"_a,
                 "parameters"_a = std::vector<std::pair<std::string, double>>{},
                 "checkpoint_interval"_a = 1, "static_start"_a = false);
}

}  // namespace tendril::python
