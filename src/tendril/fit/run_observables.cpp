#include "tendril/fit/run_observables.hpp"

#include <cmath>
#include <cstddef>

#include <fmt/format.h>

#include "tendril/adjoint/energy_objective.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/measurement_csv.hpp"

namespace tendril::fit {
namespace {

/// The robot observables (sim::RobotObservables::named_values).
std::vector<std::string> robot_names() {
  std::vector<std::string> names;
  for (const auto& [name, value] : sim::RobotObservables::named_values({})) names.push_back(name);
  return names;
}

[[noreturn]] void refuse(const std::string& name, const std::string& allowed) {
  throw InputError("observable", name, allowed);
}

/// Reads a whole number from text[at..] up to `end`; -1 if there is none.
int index_at(const std::string& text, std::size_t at, std::size_t end) {
  if (end == std::string::npos || end <= at || end - at > 6) return -1;
  const std::string digits = text.substr(at, end - at);
  return digits.find_first_not_of("0123456789") == std::string::npos ? std::stoi(digits) : -1;
}

/// The model node of "rods[i].nodes[j]" / "shells[i].nodes[j]" (the text before ".x@t").
int scene_node(const sim::RodScene& scene, const std::string& name, const std::string& node) {
  for (const auto& [body, lists] :
       {std::pair{std::string("rods["), &scene.rod_nodes}, {"shells[", &scene.shell_nodes}}) {
    if (node.rfind(body, 0) != 0) continue;
    const std::size_t close = node.find(']', body.size());
    const int b = index_at(node, body.size(), close);
    const std::string nodes = "].nodes[";
    if (b < 0 || node.compare(close, nodes.size(), nodes) != 0 || node.back() != ']') break;
    const int n = index_at(node, close + nodes.size(), node.size() - 1);
    if (b >= static_cast<int>(lists->size()))
      refuse(name, fmt::format("a node of the scene (it has {} {})", lists->size(),
                               body.substr(0, body.size() - 1)));
    const std::vector<int>& list = (*lists)[static_cast<std::size_t>(b)];
    if (n < 0 || n >= static_cast<int>(list.size()))
      refuse(name, fmt::format("a node index of {}{}] in 0..{}", body, b, list.size() - 1));
    return list[static_cast<std::size_t>(n)];
  }
  refuse(name, run_observable_syntax());
}

/// The state index of time `text` [s] on the scene's step grid.
int state_at(const sim::RodScene& scene, const std::string& name, const std::string& text) {
  double t = 0.0;
  if (!parse_real(text, t)) refuse(name, run_observable_syntax());
  const double k = std::round(t / scene.dt);
  if (!(k >= 0.0 && std::abs(k * scene.dt - t) <= 1e-9 * scene.dt &&
        k * scene.dt <= scene.duration + 1e-9 * scene.dt))
    refuse(name, fmt::format("a time t in [0, {}] s that is a whole number of steps of dt = {} s",
                             number_text(scene.duration), number_text(scene.dt)));
  // a static scene of duration 0 is one solve, its step 1 at t = 0
  const bool one_solve = scene.solve == sim::Solve::static_equilibrium && scene.duration == 0.0;
  return one_solve ? 1 : static_cast<int>(k);
}

/// A node coordinate's or an energy's value at `state`.
double state_value(const Model& model, const State& state, const RunObservable& o) {
  if (o.energy == "kinetic_energy") return adjoint::kinetic_energy(model, state);
  if (o.energy == "elastic_energy") return adjoint::elastic_energy(model, state);
  return state.q[model.dofs.node(o.node) + o.axis];
}

}  // namespace

std::string run_observable_syntax() {
  return "a robot observable (" + comma_separated(robot_names()) +
         "), a node's coordinate at a time, rods[i].nodes[j].x@t or shells[i].nodes[j].z@t (x, "
         "y or z [m] at t [s], a whole number of steps after t = 0), or an energy at a time, "
         "kinetic_energy@t or elastic_energy@t [J]";
}

RunObservable parse_run_observable(const sim::RodScene& scene, const std::string& name) {
  RunObservable o;
  o.name = name;
  for (const std::string& robot : robot_names())
    if (name == robot) {
      if (!scene.observables)
        refuse(name,
               "a node coordinate (the scene has no robot observables, e.g. a "
               "flagellated_robot scene has)");
      o.robot = name;
      return o;
    }
  const std::size_t at = name.find('@');
  for (const char* energy : {"kinetic_energy", "elastic_energy"})
    if (at != std::string::npos && name.compare(0, at, energy) == 0) {
      o.energy = energy;
      o.step = state_at(scene, name, name.substr(at + 1));
      return o;
    }
  if (at == std::string::npos || at < 2 || name[at - 2] != '.')
    refuse(name, run_observable_syntax());
  const std::string axes = "xyz";
  if (axes.find(name[at - 1]) == std::string::npos) refuse(name, run_observable_syntax());
  o.axis = static_cast<int>(axes.find(name[at - 1]));
  o.node = scene_node(scene, name, name.substr(0, at - 2));
  o.step = state_at(scene, name, name.substr(at + 1));
  return o;
}

RunOutcome simulate_observables(sim::Simulation& simulation,
                                const std::vector<RunObservable>& observables) {
  RunOutcome outcome;
  outcome.values.assign(observables.size(), std::nan(""));
  const auto record = [&] {
    const auto k = static_cast<int>(simulation.steps_taken());
    for (std::size_t i = 0; i < observables.size(); ++i)
      if (observables[i].robot.empty() && observables[i].step == k)
        outcome.values[i] = state_value(simulation.model(), simulation.state(), observables[i]);
  };
  record();
  while (!simulation.finished()) {
    const StepReport report = simulation.step();
    if (!report.ok()) {
      outcome.message =
          fmt::format("step {} failed: {}", simulation.steps_taken() + 1, report.message);
      return outcome;
    }
    record();
  }
  for (std::size_t i = 0; i < observables.size(); ++i) {
    if (observables[i].robot.empty()) continue;
    for (const auto& [n, value] :
         sim::RobotObservables::named_values(simulation.observables()->summary()))
      if (n == observables[i].robot) outcome.values[i] = value;
  }
  outcome.ok = true;
  return outcome;
}

}  // namespace tendril::fit
