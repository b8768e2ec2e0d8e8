#include "tendril/fit/run_derivatives.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <memory>

#include <fmt/format.h>

#include "tendril/adjoint/energy_objective.hpp"
#include "tendril/adjoint/forward_sensitivity.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/adjoint/robot_objective.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/run_observables.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"
#include "tendril/sim/robot_observables.hpp"

namespace tendril::fit {
namespace {

/// A scene key whose runs adjoint_lm differentiates: the step's residual is a polynomial of
/// `degree` in its value (docs/physics/fitting.md, "Method adjoint_lm").
struct DifferentiatedKey {
  const char* path;  ///< schema path
  int degree;
};

/// The keys. Degree 1: stiffnesses, masses and drag coefficients proportional to the value, rest
/// twists and actuation values (affine in time's schedule), loads (the components of gravity and of
/// point loads, moments and surface loads), contact stiffness and friction.
/// A rod's radius (EA and masses ~ r^2, EI, GJ and rotational inertias ~ r^4) and a shell's
/// thickness (membranes and masses ~ h, bending ~ h^3) are polynomials only where no contact or
/// medium reads them (check_differentiable).
const std::vector<DifferentiatedKey>& key_table() {
  static const std::vector<DifferentiatedKey> keys = {
      {"rods[].material.E", 1},
      {"rods[].material.G", 1},
      {"rods[].material.density", 1},
      {"rods[].material.radius", 4},
      {"rods[].natural_twist", 1},
      {"rods[].rest_shape[].natural_twist", 1},
      {"rods[].stiffness_overrides[].stretch_stiffness", 1},
      {"rods[].stiffness_overrides[].bend_stiffness", 1},
      {"rods[].stiffness_overrides[].twist_stiffness", 1},
      {"shells[].material.E", 1},
      {"shells[].material.density", 1},
      {"shells[].material.thickness", 3},
      {"shells[].material.nu", 1},  // along its tangent, degree 2 with mid-edge bending
      {"shells[].edge_spring_stiffness", 1},
      {"shells[].hinge_stiffness", 1},
      {"forces.gravity[]", 1},  // a component of [x, y, z], as the keys below
      {"forces.point_loads[].force[]", 1},
      {"forces.point_moments[].moment[]", 1},
      {"forces.surface_loads[].load[]", 1},
      {"forces.follower_loads[].force", 1},
      {"forces.viscous_drag[].viscosity", 1},
      {"forces.rft[].eta_t", 1},
      {"forces.rft[].eta_n", 1},
      {"forces.rft[].mu", 1},
      {"forces.head_drag.C1", 1},
      {"forces.head_drag.C2", 1},
      {"forces.head_drag.mu", 1},
      {"contact.stiffness", 1},
      {"contact.ground.friction", 1},
      {"contact.obstacles[].friction", 1},
      {"contact.self.friction", 1},
      {"actuation[].schedule.rate", 1},
      {"actuation[].schedule.start", 1},
      {"actuation[].schedule.mean", 1},
      {"actuation[].schedule.amplitude", 1},
      {"flagellated_robot.C1", 1},
      {"flagellated_robot.C2", 1},
      {"flagellated_robot.mu", 1},
      {"flagellated_robot.motor_rpm", 1},
      {"flagellated_robot.E", 1},
      {"flagellated_robot.density", 1},
  };
  return keys;
}

/// The table's entry of a schema path ("rods[].material.E"); null if it is not differentiated.
const DifferentiatedKey* find_key(const std::string& path) {
  for (const DifferentiatedKey& k : key_table())
    if (path == k.path) return &k;
  return nullptr;
}

/// The terms in whose coefficients a rod's radius and a shell's thickness enter as polynomials.
bool polynomial_term(std::string_view name) {
  for (const char* n :
       {"stretch", "bend_twist", "gravity", "point_load", "point_moment", "follower_load",
        "membrane_cst", "membrane_springs", "hinge_bending", "midedge_bending"})
    if (name == n) return true;
  return false;
}

/// The value a run's settings give `key` (the last "key=value"); InputError if none does.
double setting_value(const RunSettings& settings, const std::string& key) {
  for (auto it = settings.rbegin(); it != settings.rend(); ++it) {
    double value = 0.0;
    if (it->rfind(key + "=", 0) == 0 && parse_real(it->substr(key.size() + 1), value)) return value;
  }
  throw InputError(key, "(not set)", "a fitted key that the run's settings set");
}

/// True for a shell's Poisson ratio, which the residual reads through 1/(1 + nu), nu/(1 - nu^2)
/// and 1/(1 - nu^2): its stencil moves the shell's stiffnesses along their tangent
/// (adjoint::poisson_ratio).
bool is_poisson_key(const std::string& key) {
  return key_schema_path(key) == "shells[].material.nu";
}

/// InputError unless the Poisson ratio key's tangent (adjoint::poisson_tangent_on_shells) is
/// that of the scene: one shell (the tangent moves every shell element), its hinge stiffness from
/// the material (a `hinge_stiffness` set does not follow nu).
void require_poisson_tangent(const sim::RodScene& scene, const std::string& key) {
  const io::Json* shells = scene.resolved.find("shells");
  const io::Json::Array* list = shells ? shells->elements() : nullptr;
  const io::Json* hinge = list && !list->empty() ? list->front().find("hinge_stiffness") : nullptr;
  if (scene.shell_nodes.size() != 1 || (hinge && !hinge->is_null()))
    throw InputError("key", key,
                     "a Poisson ratio of a scene with one shell whose hinge_stiffness is not set "
                     "(the stiffnesses' tangent in nu is that of the material's laws)");
}

/// The fitted keys of one run, shared by their parameters.
struct SceneKeys {
  SceneModelLoader load;
  std::vector<std::string> keys;
  std::vector<double> values;
  double tangent_offset = 0.0;  ///< t of the Poisson ratio key's stencil point at the next load
};

/// Loads the scene with every key at its recorded value into `model`, the Poisson ratio (the
/// scene's one shell) moved by the pending tangent offset.
void load_keys(SceneKeys& scene, Model& model) {
  RunSettings s;
  for (std::size_t j = 0; j < scene.keys.size(); ++j)
    s.push_back(parameter_setting(scene.keys[j], scene.values[j]));
  model = scene.load(s);
  if (scene.tangent_offset == 0.0) return;
  for (std::size_t j = 0; j < scene.keys.size(); ++j)
    if (is_poisson_key(scene.keys[j]))
      adjoint::poisson_tangent_on_shells(model, scene.values[j], scene.values[j],
                                         scene.tangent_offset);
  scene.tangent_offset = 0.0;
}

/// Fitted key i as an adjoint parameter: apply() records its value, and the last key's apply()
/// loads the scene with every key at its recorded value (with_parameters and the difference
/// stencils apply every parameter in order, so the last one sees them all), so each key acts
/// exactly as the scene makes it act. A Poisson ratio's tangent records its offset for that load.
adjoint::Parameter scene_key_parameter(const std::shared_ptr<SceneKeys>& scene, std::size_t i,
                                       const Model& model) {
  const std::string& key = scene->keys[i];
  const bool last = i + 1 == scene->keys.size();
  adjoint::Parameter p{key, scene->values[i], [scene, i, last](Model& m, double value) {
                         scene->values[i] = value;
                         if (last) load_keys(*scene, m);
                       }};
  p.degree = find_key(key_schema_path(key))->degree;
  if (is_poisson_key(key)) {
    p.tangent = [scene, i, last](Model& m, double value, double t) {
      scene->values[i] = value;
      scene->tangent_offset = t;
      if (last) load_keys(*scene, m);
    };
    // the mid-edge bending stiffness times its metric, both affine along the tangent
    p.degree = model.shells.midedge_triangles.empty() ? 1 : 2;
  }
  return p;
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

std::string key_schema_path(const std::string& key) {
  std::string out, segment;
  auto flush = [&] {
    if (segment.empty()) return;
    const bool index = segment.find_first_not_of("0123456789-") == std::string::npos;
    out += index ? "[]" : (out.empty() ? "" : ".") + segment;
    segment.clear();
  };
  for (char c : key) {
    if (c == '.' || c == '[' || c == ']')
      flush();
    else
      segment += c;
  }
  flush();
  return out;
}

std::vector<std::string> differentiated_keys() {
  std::vector<std::string> paths;
  for (const DifferentiatedKey& k : key_table()) paths.emplace_back(k.path);
  return paths;
}

bool is_differentiated_key(const std::string& path) {
  return find_key(path) != nullptr;
}

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

void check_keys(const sim::RodScene& scene, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const DifferentiatedKey* k = find_key(key_schema_path(key));
    if (k == nullptr)
      throw InputError(
          "key", key, "a key adjoint_lm differentiates: " + comma_separated(differentiated_keys()));
    if (is_poisson_key(key)) require_poisson_tangent(scene, key);
    if (k->degree == 1) continue;
    const auto refuse = [&](std::string_view term) {
      throw InputError("key", key,
                       fmt::format("a key of a scene without contact or media (the residual is a "
                                   "polynomial in it only there; the scene has {})",
                                   term));
    };
    for (const auto& e : scene.model.energies)
      if (!polynomial_term(e->name())) refuse(e->name());
    for (const auto& f : scene.model.forces)
      if (!polynomial_term(f->name())) refuse(f->name());
  }
}

std::vector<adjoint::Parameter> scene_key_parameters(const sim::RodScene& scene,
                                                     SceneModelLoader load,
                                                     const std::vector<std::string>& keys,
                                                     const std::vector<double>& values) {
  check_keys(scene, keys);
  auto shared = std::make_shared<SceneKeys>(SceneKeys{std::move(load), keys, values});
  std::vector<adjoint::Parameter> parameters;
  for (std::size_t i = 0; i < keys.size(); ++i)
    parameters.push_back(scene_key_parameter(shared, i, scene.model));
  return parameters;
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
