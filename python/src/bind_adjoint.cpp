// Gradients of rod runs from Python (docs/physics/gradients.md): Simulation.run_with_gradient.
#include <utility>

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "adjoint_parameters.hpp"
#include "bindings.hpp"
#include "rod_simulation.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/run_derivatives.hpp"

namespace tendril::python {
namespace {

using namespace pybind11::literals;

/// l_k from a Python callable f(step, q, u) -> (value, dl/dq) or (value, dl/dq, dl/du), the
/// gradients arrays of #dofs finite entries (ValueError naming the objective otherwise).
adjoint::Objective python_objective(py::object f, int dofs) {
  return {[f = std::move(f), dofs](int step, const State& s, VecX& dq, VecX& du) {
            const py::tuple r = f(step, s.q, s.u);
            if (r.size() != 2 && r.size() != 3)
              throw py::value_error(fmt::format(
                  "objective returned a tuple of {}; allowed: (value, dl_dq) or (value, dl_dq, "
                  "dl_du)",
                  r.size()));
            const auto add = [&](const py::handle& h, VecX& out, const char* what) {
              if (h.is_none()) return;
              const VecX g = h.cast<VecX>();
              if (g.size() != dofs || !g.allFinite())
                throw py::value_error(fmt::format(
                    "objective returned {}: got {} entries{}; allowed: {} finite values", what,
                    g.size(), g.allFinite() ? "" : " with a non-finite one", dofs));
              out += g;
            };
            add(r[1], dq, "dl_dq");
            if (r.size() == 3) add(r[2], du, "dl_du");
            return r[0].cast<double>();
          },
          {}};
}

/// Runs `steps` steps (static solves in a scene with integrator.type static) from the simulation's
/// state (which stays unchanged; with static_start, from
/// its static equilibrium under the scene's static options) with the parameters at the given
/// values and returns L = 1/2 sum |x_node(step) - target|^2 (plus the user objective's sum over
/// the states, if given) with its gradient.
py::dict run_with_gradient(RodSimulation& s, int steps,
                           const std::vector<std::tuple<int, int, Vec3>>& targets,
                           const std::vector<std::pair<std::string, double>>& parameters,
                           int checkpoint_interval, py::object objective, bool static_start) {
  const auto held = s.lock().hold();
  const sim::Simulation& facade = s.constant();
  const bool quasi_static = facade.scene().solve == sim::Solve::static_equilibrium;
  if (quasi_static && static_start)
    throw InputError("static_start", "True",
                     "False for a scene with integrator.type static (its steps are static solves)");
  if (!facade.model().prescribed.empty() && s.facade().state().time != 0.0)
    throw InputError("time", number_text(s.facade().state().time) + " s",
                     "0 (a scene with moving clamps is differentiated from its start)");
  std::vector<adjoint::NodeTarget> node_targets;
  for (const auto& [node, step, target] : targets) node_targets.push_back({node, step, target});
  SceneParameters scene = scene_parameters(s, parameters);
  const std::vector<adjoint::Parameter>& list = scene.parameters;
  adjoint::GradientOptions options;
  options.checkpoint_interval = checkpoint_interval;
  if (static_start) options.static_start = facade.scene().statics;
  DynamicsOptions dynamics = facade.scene().dynamics;
  if (quasi_static) {  // a static solve every integrator.dt, as the scene steps
    options.quasi_static = facade.scene().statics;
    dynamics.dt = facade.scene().dt;
  }
  std::vector<adjoint::Objective> terms{
      adjoint::distance_to_targets(scene.model, std::move(node_targets))};
  if (!objective.is_none()) {
    if (!PyCallable_Check(objective.ptr()))
      throw InputError("objective", py::str(py::type::of(objective)).cast<std::string>(),
                       "a callable f(step, q, u) -> (value, dl_dq[, dl_du]), or None");
    terms.push_back(python_objective(std::move(objective), scene.model.dofs.size()));
  }
  const adjoint::RunGradient g =
      adjoint::run_with_gradient(scene.model, dynamics, s.facade().state(), steps,
                                 adjoint::sum(std::move(terms)), list, options);
  py::dict gradient;
  for (std::size_t i = 0; i < list.size(); ++i)
    gradient[py::str(list[i].name)] = g.parameters[static_cast<Eigen::Index>(i)];
  return py::dict("ok"_a = g.ok, "message"_a = g.message, "value"_a = g.value,
                  "gradient"_a = gradient, "initial_velocity"_a = g.initial_velocity,
                  "initial_position"_a = g.initial_position, "substeps"_a = g.substeps,
                  "contact_switches"_a = g.contact_switches);
}

/// run_with_gradient's docstring, with the table of the differentiated scene keys.
std::string run_with_gradient_doc() {
  return "Runs `steps` steps from the current state (left unchanged) and returns value and exact "
         "gradient (discrete adjoint, docs/physics/gradients.md) of L = 1/2 sum |x_node(step) - "
         "target|^2 over `targets` [(node, step, (x, y, z))] plus the sum of objective(step, q, u) "
         "-> (l, dl_dq[, dl_du]).\n\n"
         "parameters: [(name, value)]. A name is a scene key as in the scene file and tendril "
         "fit's adjoint_lm (the same mapping: the scene loaded again with the key at its value, "
         "with this simulation's overrides and Python forces), one of:\n  " +
         fit::comma_separated(fit::differentiated_keys()) +
         "\n(indices in [] or after a dot: rods[0].material.E, rods.0.material.E), or one of the "
         "parameters no scene key expresses: natural_curvature_1, natural_curvature_2 (uniform, "
         "[1/m]), springs[k].natural_curvature_1 or _2, edges[e].rest_length, "
         "hinges[h].natural_angle, shell_edges[e].natural_fold, rest_length_scale, "
         "poisson_ratio, "
         "point_loads[j].force_x, _y or _z, actuation[a].table[j] (docs/python.md).\n\n"
         "Returns {ok, message, value, gradient: {name: dL/dp}, initial_velocity, "
         "initial_position, substeps, contact_switches}.";
}

}  // namespace

void bind_adjoint(py::module_& m) {
  auto simulation = py::reinterpret_borrow<py::class_<RodSimulation>>(m.attr("Simulation"));
  static const std::string doc = run_with_gradient_doc();
  simulation.def("run_with_gradient", &run_with_gradient, doc.c_str(), "steps"_a, "targets"_a,
                 "parameters"_a = std::vector<std::pair<std::string, double>>{},
                 "checkpoint_interval"_a = 1, "objective"_a = py::none(), "static_start"_a = false);
}

}  // namespace tendril::python
