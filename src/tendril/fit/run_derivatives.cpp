#include "tendril/fit/run_derivatives.hpp"

#include <cmath>
#include <exception>

#include "tendril/adjoint/forward_sensitivity.hpp"
#include "tendril/adjoint/medium_parameter.hpp"
#include "tendril/adjoint/robot_objective.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::fit {
namespace {

const HeadDrag* head_drag(const Model& model, std::size_t& index) {
  for (index = 0; index < model.forces.size(); ++index)
    if (const auto* h = dynamic_cast<const HeadDrag*>(model.forces[index].get())) return h;
  return nullptr;
}

/// The adjoint parameter of a differentiated key, at the model's value; empty name if the model
/// lacks what the key acts on.
adjoint::Parameter parameter_of(const Model& model, const std::string& key) {
  std::size_t head = 0;
  const HeadDrag* drag = head_drag(model, head);
  if (key == "flagellated_robot.motor_rpm") return adjoint::motor_rpm(model, 0);
  if (!drag) return {};
  if (key == "flagellated_robot.C1") return adjoint::head_drag_c1(model, head);
  if (key == "flagellated_robot.C2") return adjoint::head_drag_c2(model, head);
  if (key == "flagellated_robot.mu") return adjoint::medium_mu(model, drag->parameters().mu);
  return {};
}

adjoint::Objective objective_of(const sim::RodScene& scene, const std::string& name,
                                const adjoint::SlopeWindow& window) {
  const sim::ObservableSpec& spec = *scene.observables;
  if (name == "speed") return adjoint::robot_speed(scene.model, spec.head_edge, spec.axis, window);
  const int edge = name == "head_rotation_rate" ? spec.head_edge : spec.tail_edge;
  return adjoint::robot_head_rotation(scene.model, edge, spec.axis, window);
}

/// The observables of the loaded scene's run and their derivatives (outcome.ok set on success).
void differentiate(const sim::RodScene& scene, const std::vector<std::string>& keys,
                   const std::vector<std::string>& observables, RunOutcome& outcome) {
  std::vector<adjoint::Parameter> parameters;
  for (const std::string& key : keys) {
    parameters.push_back(parameter_of(scene.model, key));
    if (parameters.back().name.empty()) {
      outcome.message = "the scene has nothing that " + key + " acts on";
      return;
    }
  }
  const int steps = std::max(1, static_cast<int>(std::ceil(scene.duration / scene.dt - 1e-9)));
  const adjoint::SlopeWindow window{0.0, scene.dt, steps,
                                    scene.observables->steady_start.value_or(0.5 * scene.duration)};
  State initial;
  initial.q = scene.q_initial;
  initial.u = scene.u_initial;
  initialize_frames(scene.model, initial.q, initial.frames);
  std::vector<adjoint::Objective> objectives;
  for (const std::string& name : observables)
    objectives.push_back(objective_of(scene, name, window));
  const adjoint::RunSensitivities r = adjoint::run_with_sensitivities(
      scene.model, scene.dynamics, initial, steps, objectives, parameters);
  if (!r.ok) {
    outcome.message = r.message;
    return;
  }
  outcome.derivatives = r.derivatives;
  for (std::size_t k = 0; k < observables.size(); ++k) {
    // the rotation rates are the absolute values of the signed slopes
    const auto kk = static_cast<Eigen::Index>(k);
    const double sign = observables[k] != "speed" && r.values[kk] < 0.0 ? -1.0 : 1.0;
    outcome.values.push_back(sign * r.values[kk]);
    outcome.derivatives.row(kk) *= sign;
  }
  outcome.ok = true;
}

}  // namespace

const std::vector<std::string>& differentiated_keys() {
  static const std::vector<std::string> keys = {"flagellated_robot.C1", "flagellated_robot.C2",
                                                "flagellated_robot.mu",
                                                "flagellated_robot.motor_rpm"};
  return keys;
}

const std::vector<std::string>& differentiated_observables() {
  static const std::vector<std::string> names = {"speed", "head_rotation_rate",
                                                 "tail_rotation_rate"};
  return names;
}

RunOutcome run_scene_with_derivatives(const std::filesystem::path& scene_file,
                                      const RunSettings& settings,
                                      const std::vector<std::string>& keys,
                                      const std::vector<std::string>& observables) {
  RunOutcome outcome;
  try {
    const sim::RodScene scene = sim::load_rod_scene_file(scene_file, settings);
    if (!scene.observables)
      outcome.message = "the scene has no observables (e.g. a flagellated_robot scene)";
    else if (scene.solve != sim::Solve::implicit_euler)
      outcome.message = "the scene's integrator is not implicit_euler (the adjoint's scheme)";
    else
      differentiate(scene, keys, observables, outcome);
  } catch (const std::exception& e) {
    outcome.message = e.what();
  }
  return outcome;
}

RunBatchEvaluator derivative_evaluator(std::filesystem::path scene_file,
                                       std::vector<std::string> keys,
                                       std::vector<std::string> observables, int jobs) {
  return thread_pool(
      [scene_file = std::move(scene_file), keys = std::move(keys),
       observables = std::move(observables)](const RunSettings& settings) {
        return run_scene_with_derivatives(scene_file, settings, keys, observables);
      },
      jobs);
}

}  // namespace tendril::fit
