#include "tendril/fit/run_derivatives.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>

#include <fmt/format.h>

#include "tendril/adjoint/energy_objective.hpp"
#include "tendril/adjoint/forward_sensitivity.hpp"
#include "tendril/adjoint/robot_objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/run_observables.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"
#include "tendril/sim/robot_observables.hpp"

namespace tendril::fit {
namespace {

/// The value a run's settings give `key` (the last "key=value"); InputError if none does.
double setting_value(const RunSettings& settings, const std::string& key) {
  for (auto it = settings.rbegin(); it != settings.rend(); ++it) {
    double value = 0.0;
    if (it->rfind(key + "=", 0) == 0 && parse_real(it->substr(key.size() + 1), value)) return value;
  }
  throw InputError(key, "(not set)", "a fitted key that the run's settings set");
}

/// The elastic energy at an equilibrium of a quasi-static run: at equilibrium its gradient on the
/// twists (and on the frame angles, dE/dphi = dE/dtheta) balances the external moments on them, 0
/// in the scenes check_differentiable takes (no point moments), so it is left out and the adjoint
/// of the equilibria sees node positions only (docs/physics/fitting.md, "Method adjoint_lm").
adjoint::Objective equilibrium_elastic_energy(const Model& model, int step,
                                              const std::vector<adjoint::Parameter>& parameters) {
  adjoint::Objective o = adjoint::elastic_energy(model, step, parameters);
  o.frame_angle_gradient = nullptr;
  o.at_state = [energy = o.at_state, dofs = model.dofs](int k, const State& s, VecX& dq, VecX& du) {
    VecX gradient = VecX::Zero(dq.size());
    const double value = energy(k, s, gradient, du);
    for (int i = 0; i < dofs.size(); ++i)
      if (!dofs.is_twist(i)) dq[i] += gradient[i];
    return value;
  };
  return o;
}

/// The adjoint objective of an observable; an energy's with its explicit dependence on the
/// parameters.
adjoint::Objective objective_of(const sim::RodScene& scene, const RunObservable& o,
                                const adjoint::SlopeWindow& window,
                                const std::vector<adjoint::Parameter>& parameters) {
  if (o.energy == "kinetic_energy") return adjoint::kinetic_energy(scene.model, o.step, parameters);
  if (o.energy == "elastic_energy")
    return scene.solve == sim::Solve::static_equilibrium
               ? equilibrium_elastic_energy(scene.model, o.step, parameters)
               : adjoint::elastic_energy(scene.model, o.step, parameters);
  if (o.robot.empty())
    return adjoint::node_position(scene.model, o.node, Vec3::Unit(o.axis), o.step);
  const sim::ObservableSpec& spec = *scene.observables;
  if (o.robot == "speed")
    return adjoint::robot_speed(scene.model, spec.head_edge, spec.axis, window);
  const int edge = o.robot == "head_rotation_rate" ? spec.head_edge : spec.tail_edge;
  return adjoint::robot_head_rotation(scene.model, edge, spec.axis, window);
}

/// True if one of the model's energies or forces is named `name`.
bool has_term(const Model& model, std::string_view name) {
  for (const auto& e : model.energies)
    if (e->name() == name) return true;
  for (const auto& f : model.forces)
    if (f->name() == name) return true;
  return false;
}

/// The number of steps of dt in the scene's duration.
int scene_steps(const sim::RodScene& scene) {
  return std::max(1, static_cast<int>(std::ceil(scene.duration / scene.dt - 1e-9)));
}

/// The run's objectives and their derivatives: the forward sensitivities for implicit Euler, the
/// adjoint of each objective for the midpoint rule and for quasi-static scenes (integrator.type
/// static: a static solve at each t_k = k dt, as Simulation runs them; one solve at t = 0 for a
/// duration of 0).
adjoint::RunSensitivities differentiate_run(const sim::RodScene& scene,
                                            const std::vector<adjoint::Objective>& objectives,
                                            const std::vector<adjoint::Parameter>& parameters) {
  State initial;
  initial.q = scene.q_initial;
  initial.u = scene.u_initial;
  initialize_frames(scene.model, initial.q, initial.frames);
  const int steps = scene_steps(scene);
  // Simulation's steps: each ends at k dt, the last at the duration
  if (scene.solve == sim::Solve::implicit_euler)
    return adjoint::run_with_sensitivities(scene.model, scene.dynamics, initial, steps, objectives,
                                           parameters, scene.duration);
  DynamicsOptions options = scene.dynamics;
  adjoint::GradientOptions gradient;
  gradient.end_time = scene.duration;
  if (scene.solve == sim::Solve::static_equilibrium) {
    gradient.quasi_static = scene.statics;
    options.dt = scene.duration > 0.0 ? scene.dt : 0.0;
  }
  adjoint::RunSensitivities r;
  r.values.resize(static_cast<Eigen::Index>(objectives.size()));
  r.derivatives.resize(r.values.size(), static_cast<Eigen::Index>(parameters.size()));
  for (std::size_t j = 0; j < objectives.size(); ++j) {
    const adjoint::RunGradient g = adjoint::run_with_gradient(scene.model, options, initial, steps,
                                                              objectives[j], parameters, gradient);
    if (!g.ok) {
      r.message = g.message;
      return r;
    }
    r.values[static_cast<Eigen::Index>(j)] = g.value;
    r.derivatives.row(static_cast<Eigen::Index>(j)) = g.parameters.transpose();
  }
  r.ok = true;
  return r;
}

/// d(6 C1 / (8 C2 a))/dp_i [1/m per unit of p_i]: flagellated_robot.C1 and forces.head_drag.C1
/// set C1 to their value, the C2 keys C2; no other differentiated key reaches C1, C2 or a.
VecX drag_ratio_gradient(const HeadDragParameters& head,
                         const std::vector<adjoint::Parameter>& parameters) {
  VecX d = VecX::Zero(static_cast<Eigen::Index>(parameters.size()));
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const std::string path = key_schema_path(parameters[i].name);
    const auto ii = static_cast<Eigen::Index>(i);
    if (path == "flagellated_robot.C1" || path == "forces.head_drag.C1")
      d[ii] = 6.0 / (8.0 * head.shape_factor_torque * head.radius);
    if (path == "flagellated_robot.C2" || path == "forces.head_drag.C2")
      d[ii] = -sim::drag_ratio(head) / head.shape_factor_torque;
  }
  return d;
}

/// The efficiency eta = R |v| / |omega_h| (R = 6 C1 / (8 C2 a)) from the objectives v and the
/// signed omega_h (rows `v_row` and `w_row` of `r`) and R's explicit gradient `d_ratio`; its
/// derivatives by the chain rule into `derivative`.
double efficiency(const adjoint::RunSensitivities& r, Eigen::Index v_row, Eigen::Index w_row,
                  double ratio, const VecX& d_ratio, Eigen::RowVectorXd& derivative) {
  const double v = r.values[v_row], w = r.values[w_row];
  const double sv = v < 0.0 ? -1.0 : 1.0, sw = w < 0.0 ? -1.0 : 1.0;
  derivative = ratio * (sv * r.derivatives.row(v_row) / std::abs(w) -
                        sw * std::abs(v) * r.derivatives.row(w_row) / (w * w)) +
               std::abs(v) / std::abs(w) * d_ratio.transpose();
  return ratio * std::abs(v) / std::abs(w);
}

/// The observables of the loaded scene's run and their derivatives (outcome.ok set on success):
/// an efficiency from the objectives v and omega_h, the others each from their objective; a robot
/// objective that several observables read is run once.
void differentiate(const sim::RodScene& scene, const std::vector<adjoint::Parameter>& parameters,
                   const std::vector<RunObservable>& observables, RunOutcome& outcome) {
  const adjoint::SlopeWindow window{
      0.0, scene.dt, scene_steps(scene),
      scene.observables ? scene.observables->steady_start.value_or(0.5 * scene.duration) : 0.0};
  std::vector<adjoint::Objective> objectives;
  std::vector<std::string> robot_of;  // each objective's robot observable ("" for the others)
  const auto row_of = [&](const RunObservable& o) {
    if (!o.robot.empty())
      for (std::size_t j = 0; j < robot_of.size(); ++j)
        if (robot_of[j] == o.robot) return static_cast<Eigen::Index>(j);
    objectives.push_back(objective_of(scene, o, window, parameters));
    robot_of.push_back(o.robot);
    return static_cast<Eigen::Index>(objectives.size() - 1);
  };
  std::vector<std::array<Eigen::Index, 2>> rows;  // each observable's objective(s): v, omega_h
  for (const RunObservable& o : observables) {
    if (o.robot != "efficiency") {
      rows.push_back({row_of(o), -1});
      continue;
    }
    RunObservable v = o, w = o;
    v.robot = "speed";
    w.robot = "head_rotation_rate";
    rows.push_back({row_of(v), row_of(w)});
  }
  const adjoint::RunSensitivities r = differentiate_run(scene, objectives, parameters);
  if (!r.ok) {
    outcome.message = r.message;
    return;
  }
  outcome.derivatives.resize(static_cast<Eigen::Index>(observables.size()), r.derivatives.cols());
  for (std::size_t k = 0; k < observables.size(); ++k) {
    const auto kk = static_cast<Eigen::Index>(k);
    const Eigen::Index j = rows[k][0];
    if (observables[k].robot == "efficiency") {
      const HeadDragParameters& head = *sim::head_drag_parameters(scene.model);
      Eigen::RowVectorXd derivative;
      outcome.values.push_back(efficiency(r, j, rows[k][1], sim::drag_ratio(head),
                                          drag_ratio_gradient(head, parameters), derivative));
      outcome.derivatives.row(kk) = derivative;
      continue;
    }
    // the rotation rates are the absolute values of the signed slopes
    const bool rate = observables[k].robot.find("rotation_rate") != std::string::npos;
    const double sign = rate && r.values[j] < 0.0 ? -1.0 : 1.0;
    outcome.values.push_back(sign * r.values[j]);
    outcome.derivatives.row(kk) = sign * r.derivatives.row(j);
  }
  outcome.ok = true;
}

}  // namespace

void check_differentiable(const sim::RodScene& scene, const std::vector<std::string>& keys,
                          const std::vector<std::string>& observables) {
  const bool statics = scene.solve == sim::Solve::static_equilibrium;
  const int steps = scene_steps(scene);
  const bool one_solve = statics && scene.duration == 0.0;
  if (!one_solve && std::abs(steps * scene.dt - scene.duration) > 1e-9 * scene.dt)
    throw InputError("duration", fmt::format("{}", scene.duration),
                     fmt::format("a whole number of steps of integrator.dt = {} s (method "
                                 "adjoint_lm differentiates steps of dt{})",
                                 scene.dt, statics ? "; or 0, one static solve" : ""));
  for (const std::string& name : observables) {
    const RunObservable o = parse_run_observable(scene, name);
    if (statics && !(o.robot.empty() && o.energy != "kinetic_energy"))
      throw InputError("observable", name,
                       "a node coordinate or elastic_energy@t (adjoint_lm differentiates the node "
                       "positions of a quasi-static run, integrator.type static)");
    if (statics && !o.energy.empty() && has_term(scene.model, "point_moment"))
      throw InputError("observable", name,
                       "a node coordinate (the elastic energy of a quasi-static run is "
                       "differentiated without point moments, which hold its twists' gradient)");
    if (o.robot == "efficiency" && sim::head_drag_parameters(scene.model) == nullptr)
      throw InputError("observable", name,
                       "an observable of a scene with head drag (forces.head_drag, as a "
                       "flagellated_robot scene has: the efficiency reads its C1, C2 and radius)");
  }
  check_keys(scene, keys);
}

RunOutcome run_scene_with_derivatives(const std::filesystem::path& scene_file,
                                      const RunSettings& settings,
                                      const std::vector<std::string>& keys,
                                      const std::vector<std::string>& observables) {
  RunOutcome outcome;
  try {
    const sim::RodScene scene = sim::load_rod_scene_file(scene_file, settings);
    check_differentiable(scene, keys, observables);
    std::vector<RunObservable> parsed;
    for (const std::string& name : observables) parsed.push_back(parse_run_observable(scene, name));
    std::vector<double> values;
    for (const std::string& key : keys) values.push_back(setting_value(settings, key));
    RunSettings others;  // the keys' are set at their values
    for (const std::string& s : settings)
      if (std::none_of(keys.begin(), keys.end(),
                       [&s](const std::string& key) { return s.rfind(key + "=", 0) == 0; }))
        others.push_back(s);
    const SceneModelLoader load = [scene_file, others](const RunSettings& set) {
      RunSettings all = others;
      all.insert(all.end(), set.begin(), set.end());
      return sim::load_rod_scene_file(scene_file, all).model;
    };
    differentiate(scene, scene_key_parameters(scene, load, keys, values), parsed, outcome);
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
