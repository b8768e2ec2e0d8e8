#include "tendril/sim/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>

#include <fmt/format.h>

#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/friction/point_triangle_friction.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/core/term.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/io/run_loop.hpp"
#include "tendril/sim/restart_state.hpp"

namespace tendril::sim {

Simulation::Simulation(RodScene scene)
    : scene_(std::make_unique<RodScene>(std::move(scene))),
      workspace_(std::make_unique<ModelWorkspace>(scene_->model)) {
  const RodScene& s = *scene_;
  state_.time = 0.0;
  state_.q = s.q_initial;
  for (const PrescribedMotion& m : s.model.prescribed) m.apply(0.0, s.q_initial, state_.q);
  state_.u = s.u_initial;
  initialize_frames(s.model, state_.q, state_.frames);
  if (s.solve == Solve::static_equilibrium) {
    static_solver_ =
        std::make_unique<StaticSolver>(s.model, s.statics, s.q_initial, workspace_.get());
    total_steps_ = s.duration > 0.0 ? static_cast<long>(std::ceil(s.duration / s.dt - 1e-9)) : 1;
  } else {
    stepper_ = std::make_unique<TimeStepper>(s.model, s.dynamics, s.q_initial, workspace_.get());
    total_steps_ = std::max(1L, static_cast<long>(std::ceil(s.duration / s.dt - 1e-9)));
  }
  for (int d = 0; d < s.model.dofs.size(); ++d)
    if (s.model.fixed[static_cast<std::size_t>(d)]) reaction_dofs_.push_back(d);
  acceleration_ = VecX::Zero(s.q_initial.size());
  if (s.observables)
    observables_ = std::make_unique<RobotObservables>(s.model, *s.observables, s.duration);
  record_observables();
  if (!s.restart_run.empty()) restore();
}

void Simulation::restore() {
  // what a step depends on beyond the record: contact candidate sets (chosen with the time since
  // their last update) and the observables' history are not saved
  if (has_contact())
    throw InputError("restart", "a scene with contact",
                     "a scene without contact (its candidate sets are not saved)");
  if (observables_)
    throw InputError("restart", "a scene with observables", "a scene without `observables`");
  RestartRecord r = read_restart(scene_->restart_run, scene_->restart_frame, scene_->model.dofs,
                                 state_, "restart");
  if (r.steps > total_steps_)
    throw InputError("restart.frame", fmt::format("a frame after {} steps", r.steps),
                     fmt::format("a frame within the scene's {} steps (duration)", total_steps_));
  state_.time = r.state.time;
  state_.q = r.state.q;  // copied into the storage views of q and u point to
  state_.u = r.state.u;
  state_.frames = std::move(r.state.frames);
  steps_ = r.steps;
  work_of_forces_ = r.work;
  forces_ = std::move(r.forces);
  // the last step's acceleration enters only the reactions of the frame restarted from, which is
  // not saved again
}

void Simulation::record_observables(const Kinematics* kin) {
  if (!observables_) return;
  if (!kin) {
    compute_kinematics(scene_->model, state_.frames, state_.q, kin_);
    kin = &kin_;
  }
  observables_->record(state_.time, state_.q, *kin);
}

Simulation Simulation::from_file(const std::filesystem::path& file,
                                 const std::vector<std::string>& overrides) {
  return Simulation(load_rod_scene_file(file, overrides));
}

namespace {

/// `message` with every model-wide "node N" / "edge N" followed by the scene's name for it
/// ("node 17 (rods[2].nodes[7])", "node 40 (shells[0].nodes[12])"), so a failure names what the
/// user wrote.
std::string with_scene_names(const std::string& message, const RodScene& s) {
  static const std::regex numbered(R"((node|edge) (\d+))");
  std::string out;
  auto last = message.cbegin();
  for (std::sregex_iterator it(message.begin(), message.end(), numbered), end; it != end; ++it) {
    const std::smatch& m = *it;
    out.append(last, m[0].second);
    last = m[0].second;
    const int index = std::stoi(m[2]);
    if (m[1] == "node") {
      const std::string name = scene_node_name(s, index);
      if (!name.empty()) out += " (" + name + ")";
      continue;
    }
    for (std::size_t r = 0; r < s.rod_edges.size(); ++r) {
      const auto at = std::find(s.rod_edges[r].begin(), s.rod_edges[r].end(), index);
      if (at == s.rod_edges[r].end()) continue;
      out += " (rods[" + std::to_string(r) + "].edges[" +
             std::to_string(at - s.rod_edges[r].begin()) + "])";
      break;
    }
  }
  out.append(last, message.cend());
  return out;
}

/// info.step_status_codes and info.step_criterion_codes: the names of the per-step codes.
void set_step_code_names(io::RunDirectory& run) {
  io::Json codes = io::Json::object();
  for (int c = 0; c <= static_cast<int>(StepStatus::singular_system); ++c)
    codes[std::to_string(c)] = std::string(to_string(static_cast<StepStatus>(c)));
  run.set_info("step_status_codes", std::move(codes));
  io::Json criteria = io::Json::object();
  for (int c = 0; c <= static_cast<int>(StopCriterion::velocity_change); ++c)
    criteria[std::to_string(c)] = std::string(to_string(static_cast<StopCriterion>(c)));
  run.set_info("step_criterion_codes", std::move(criteria));
}

/// Lists of index lists as JSON arrays of arrays.
template <class Rows>
io::Json int_rows(const Rows& rows) {
  io::Json json = io::Json::array();
  for (const auto& row : rows) {
    io::Json list = io::Json::array();
    for (int i : row) list.push_back(i);
    json.push_back(std::move(list));
  }
  return json;
}

/// The run's topology in info: node and edge counts, edges, each rod's nodes, the fixed DOFs whose
/// reactions are saved; for shells (format version 2) the triangles, each shell's nodes, the shell
/// edge of each xi and the shell edges at rod-shell joints.
void set_topology_info(io::RunDirectory& run, const RodScene& s,
                       const std::vector<int>& reaction_dofs) {
  const Model& m = s.model;
  run.set_info("num_nodes", static_cast<std::size_t>(m.dofs.num_nodes));
  run.set_info("num_edges", static_cast<std::size_t>(m.dofs.num_edges));
  run.set_info("edges", int_rows(m.rods.edges));
  run.set_info("rod_nodes", int_rows(s.rod_nodes));
  io::Json fixed = io::Json::array();
  for (int d : reaction_dofs) fixed.push_back(d);
  run.set_info("reaction_dofs", std::move(fixed));
  if (!m.shells.triangles.empty()) {
    run.set_info("triangles", int_rows(m.shells.triangles));
    run.set_info("shell_nodes", int_rows(s.shell_nodes));
    std::vector<std::array<int, 2>> xi_edges;
    for (int k : m.shells.xi_edge) xi_edges.push_back(m.shells.edges[static_cast<std::size_t>(k)]);
    run.set_info("xi_edges", int_rows(xi_edges));
  }
  if (m.dofs.num_joint_edges > 0) run.set_info("joint_edges", int_rows(m.shells.joint_edges));
}

}  // namespace

StepReport Simulation::step() {
  const RodScene& s = *scene_;
  if (finished())
    throw InputError("step()",
                     "(the run has ended at t = " + number_text(s.duration) + " s, its duration)",
                     "steps while t < duration (a larger duration runs on)");
  // the step ends at (k + 1) dt, the last one at T exactly
  const double t_end = steps_ + 1 >= total_steps_ ? s.duration : (steps_ + 1) * s.dt;
  StepReport report;
  const VecX q_before = state_.q;
  // the forces at the step's start, for the work of forces (at the first step: user callbacks are
  // called by steps, not by the constructor)
  if (forces_.size() == 0) forces_ = force_terms();
  if (static_solver_) {
    State trial = state_;
    trial.time = t_end;
    report = static_solver_->solve(trial);
    if (report.ok())
      state_ = trial;  // copied: q and u keep their storage (views of them stay valid)
  } else {
    stepper_->set_dt(t_end - state_.time);
    const VecX u_before = state_.u;
    const double t_before = state_.time;
    report = stepper_->step(state_);
    if (report.ok()) acceleration_ = (state_.u - u_before) / (state_.time - t_before);
  }
  if (report.ok() && !(state_.q.allFinite() && state_.u.allFinite())) {
    report.status = StepStatus::non_finite;
    report.message = "the state became non-finite";
  }
  if (!report.ok()) report.message = with_scene_names(report.message, s);
  if (report.ok()) {
    ++steps_;
    // the forces and kinematics at the new state: implicit Euler's last Newton evaluation was there
    // (the same up to round-off as evaluating them again from the accepted frames)
    const VecX forces_after =
        stepper_ && stepper_->end_forces() ? *stepper_->end_forces() : force_terms();
    work_of_forces_ += 0.5 * (forces_ + forces_after).dot(state_.q - q_before);
    forces_ = forces_after;
    record_observables(stepper_ ? &stepper_->end_kinematics() : nullptr);
  }
  return report;
}

void Simulation::evaluate(std::vector<std::pair<std::string, double>>* energies, VecX* gradient,
                          VecX* force) const {
  // the rest quantities scheduled by actuators, at the state's time
  std::unique_ptr<Model> actuated;
  if (!scene_->model.actuators.empty()) {
    actuated = std::make_unique<Model>(scene_->model);
    actuated_rods(scene_->model, state_.time, actuated->rods);
    actuated_hinges(scene_->model, state_.time, actuated->shells.hinges);
  }
  const Model& m = actuated ? *actuated : scene_->model;
  Kinematics kin;
  compute_kinematics(m, state_.frames, state_.q, kin);
  const EvalInput in{m, state_.q, state_.u, state_.time, kin};
  if (gradient) *gradient = VecX::Zero(state_.q.size());
  for (const auto& e : m.energies) {
    if (!energies && !gradient) break;
    EnergyOutput o;
    o.gradient = gradient;
    e->accumulate(in, o);
    if (energies) energies->emplace_back(std::string(e->name()), o.energy);
  }
  if (energies)
    energies->emplace_back("kinetic", 0.5 * state_.u.dot(m.mass.cwiseProduct(state_.u)));
  if (!force) return;
  *force = VecX::Zero(state_.q.size());
  for (const auto& f : m.forces) {
    ForceOutput o;
    o.force = force;
    f->accumulate(in, o);
  }
}

std::vector<std::pair<std::string, double>> Simulation::energies() const {
  std::vector<std::pair<std::string, double>> out;
  evaluate(&out, nullptr, nullptr);
  return out;
}

VecX Simulation::force_terms() const {
  VecX force = VecX::Zero(state_.q.size());
  if (!scene_->model.forces.empty()) evaluate(nullptr, nullptr, &force);
  return force;
}

VecX Simulation::reactions() const {
  VecX gradient;
  evaluate(nullptr, &gradient, nullptr);
  const VecX all = gradient - (forces_.size() ? forces_ : force_terms()) +
                   scene_->model.mass.cwiseProduct(acceleration_);
  VecX out(static_cast<Eigen::Index>(reaction_dofs_.size()));
  for (std::size_t k = 0; k < reaction_dofs_.size(); ++k)
    out[static_cast<Eigen::Index>(k)] = all[reaction_dofs_[k]];
  return out;
}

contact::ContactStatistics Simulation::contact_statistics() const {
  contact::ContactStatistics stats;
  for (const auto& e : scene_->model.energies)
    if (const auto* c = dynamic_cast<const contact::ContactEnergy*>(e.get()))
      stats.merge(c->statistics(scene_->model, state_.q, state_.time));
  return stats;
}

VecX Simulation::contact_forces() const {
  const Model& m = scene_->model;
  Kinematics kin;
  compute_kinematics(m, state_.frames, state_.q, kin);
  const EvalInput in{m, state_.q, state_.u, state_.time, kin};
  VecX force = VecX::Zero(state_.q.size()), gradient = VecX::Zero(state_.q.size());
  for (const auto& e : m.energies)
    if (dynamic_cast<const contact::ContactEnergy*>(e.get())) {
      EnergyOutput o;
      o.gradient = &gradient;
      e->accumulate(in, o);
    }
  for (const auto& f : m.forces)
    if (dynamic_cast<const contact::ObstacleFriction*>(f.get()) ||
        dynamic_cast<const contact::SelfFriction*>(f.get()) ||
        dynamic_cast<const contact::PointTriangleFriction*>(f.get())) {
      ForceOutput o;
      o.force = &force;
      f->accumulate(in, o);
    }
  return (force - gradient).head(3 * m.dofs.num_nodes);
}

void Simulation::save_contact_frame(io::NpyAppender& active, io::NpyAppender& min_gap,
                                    io::NpyAppender& forces) const {
  const contact::ContactStatistics stats = contact_statistics();
  const std::int64_t count = stats.active;
  active.append(std::span<const std::int64_t>(&count, 1));
  min_gap.append(std::span<const double>(&stats.min_gap, 1));
  const VecX f = contact_forces();
  forces.append(std::span<const double>(f.data(), static_cast<std::size_t>(f.size())));
}

bool Simulation::has_contact() const {
  return std::any_of(scene_->model.energies.begin(), scene_->model.energies.end(),
                     [](const auto& e) {
                       return dynamic_cast<const contact::ContactEnergy*>(e.get()) != nullptr;
                     });
}

RunResult Simulation::run(const std::filesystem::path& out,
                          const std::function<void(const Progress&)>& progress) {
  const RodScene& s = *scene_;
  const Model& m = s.model;
  const auto n = static_cast<std::size_t>(m.dofs.num_nodes);
  const auto e = static_cast<std::size_t>(m.dofs.num_edges);
  const auto z = static_cast<std::size_t>(m.dofs.num_shell_edges);
  const auto nj = static_cast<std::size_t>(m.dofs.num_joint_edges);
  const auto terms = energies();

  std::unique_ptr<io::RunDirectory> run;
  io::NpyAppender *frame_time = nullptr, *positions = nullptr, *twists = nullptr, *energy = nullptr,
                  *xi = nullptr, *joint_twists = nullptr;
  io::NpyAppender *robot_position = nullptr, *head_angle = nullptr, *tail_angle = nullptr;
  io::NpyAppender *contact_active = nullptr, *contact_min_gap = nullptr, *contact_force = nullptr,
                  *reactions_array = nullptr, *velocities = nullptr;
  std::optional<FrameStateArrays> frame_state;  // work_of_forces, restart_state
  io::NpyAppender *step_time = nullptr, *step_dt = nullptr, *step_substeps = nullptr,
                  *step_iterations = nullptr, *step_residual = nullptr, *step_wall = nullptr,
                  *step_status = nullptr, *step_criterion = nullptr;
  if (!out.empty()) {
    run = std::make_unique<io::RunDirectory>(out, "rod", s.resolved);
    frame_time =
        &run->add_array("frame_time", io::NpyType::Float64, {}, "s", "time of each saved frame");
    positions =
        &run->add_array("positions", io::NpyType::Float64, {n, 3}, "m", "node positions x_i");
    twists =
        &run->add_array("twists", io::NpyType::Float64, {e}, "rad", "edge twist angles theta_e");
    velocities = &run->add_array("velocities", io::NpyType::Float64, {n, 3}, "m/s",
                                 "node velocities dx_i/dt");
    energy = &run->add_array("energies", io::NpyType::Float64, {terms.size()}, "J",
                             "energy of each term (names in info.energy_terms)");
    if (observables_) {
      robot_position =
          &run->add_array("robot_position", io::NpyType::Float64, {}, "m",
                          "position of the head edge's midpoint along observables.axis");
      head_angle = &run->add_array(
          "head_angle", io::NpyType::Float64, {}, "rad",
          "spin angle of the head edge's material frame about the axis (unwrapped)");
      tail_angle = &run->add_array(
          "tail_angle", io::NpyType::Float64, {}, "rad",
          "spin angle of observables.tail_edge's material frame about the axis (unwrapped)");
    }
    frame_state.emplace(*run, state_);
    if (!reaction_dofs_.empty())
      reactions_array = &run->add_array(
          "reactions", io::NpyType::Float64, {reaction_dofs_.size()}, "N, N m",
          "reaction forces at the fixed DOFs (info.reaction_dofs): R = dE/dq - F + M a");
    if (has_contact()) {
      contact_active =
          &run->add_array("contact_active", io::NpyType::Int64, {}, "-",
                          "contacts with gap below delta (nodes on obstacles + edge pairs + "
                          "node-triangle pairs)");
      contact_min_gap =
          &run->add_array("contact_min_gap", io::NpyType::Float64, {}, "m",
                          "smallest contact gap (negative: overlap; inf: nothing near)");
      contact_force = &run->add_array("contact_forces", io::NpyType::Float64, {n, 3}, "N",
                                      "contact force on each node (normal and friction)");
    }
    step_time = &run->add_array("step_time", io::NpyType::Float64, {}, "s",
                                "time at the end of each step", "step");
    step_dt = &run->add_array("step_dt", io::NpyType::Float64, {}, "s",
                              "time step used (after halving)", "step");
    step_substeps = &run->add_array("step_substeps", io::NpyType::Int64, {}, "-",
                                    "substeps that covered the step (1 without halving)", "step");
    step_iterations = &run->add_array("step_iterations", io::NpyType::Int64, {}, "-",
                                      "Newton iterations of the step", "step");
    step_residual = &run->add_array("step_residual", io::NpyType::Float64, {}, "N",
                                    "final force residual norm", "step");
    step_wall = &run->add_array("step_wall_time", io::NpyType::Float64, {}, "s",
                                "wall-clock time of the step", "step");
    step_status = &run->add_array("step_status", io::NpyType::Int64, {}, "-",
                                  "0 converged; see info.step_status_codes", "step");
    step_criterion = &run->add_array(
        "step_criterion", io::NpyType::Int64, {}, "-",
        "what ended the step's last Newton solve; see info.step_criterion_codes", "step");
    io::Json names = io::Json::array();
    for (const auto& t : terms) names.push_back(t.first);
    run->set_info("energy_terms", std::move(names));
    set_step_code_names(*run);
    set_topology_info(*run, s, reaction_dofs_);
    if (z > 0)
      xi = &run->add_array("xi", io::NpyType::Float64, {z}, "-",
                           "mid-edge normal DOFs xi_k (info.xi_edges)");
    if (nj > 0)
      joint_twists =
          &run->add_array("joint_twists", io::NpyType::Float64, {nj}, "rad",
                          "twist angles of the shell edges at rod-shell joints (info.joint_edges)");
  }

  auto save_frame = [&] {
    if (!run) return;
    const double t = state_.time;
    frame_time->append(std::span<const double>(&t, 1));
    positions->append(std::span<const double>(state_.q.data(), 3 * n));
    twists->append(std::span<const double>(state_.q.data() + 3 * n, e));
    velocities->append(std::span<const double>(state_.u.data(), 3 * n));
    if (xi) xi->append(std::span<const double>(state_.q.data() + m.dofs.xi(0), z));
    if (joint_twists)
      joint_twists->append(std::span<const double>(state_.q.data() + m.dofs.joint_twist(0), nj));
    std::vector<double> values;
    for (const auto& term : energies()) values.push_back(term.second);
    energy->append(values);
    if (observables_) {
      const double p = observables_->position(), h = observables_->head_angle(),
                   a = observables_->tail_angle();
      robot_position->append(std::span<const double>(&p, 1));
      head_angle->append(std::span<const double>(&h, 1));
      tail_angle->append(std::span<const double>(&a, 1));
    }
    frame_state->append({steps_, work_of_forces_, state_, forces_});
    if (reactions_array) {
      const VecX r = reactions();
      reactions_array->append(
          std::span<const double>(r.data(), static_cast<std::size_t>(r.size())));
    }
    if (contact_active) save_contact_frame(*contact_active, *contact_min_gap, *contact_force);
  };
  auto step_once = [&] {
    const double t_before = state_.time;
    const auto start = std::chrono::steady_clock::now();
    const StepReport report = step();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run) {
      const double t = report.ok() ? state_.time : t_before;
      const double dt = report.dt, residual = report.final_residual();
      const std::int64_t iterations = report.iterations, substeps = report.substeps,
                         status = static_cast<std::int64_t>(report.status),
                         criterion = static_cast<std::int64_t>(report.criterion);
      step_time->append(std::span<const double>(&t, 1));
      step_dt->append(std::span<const double>(&dt, 1));
      step_substeps->append(std::span<const std::int64_t>(&substeps, 1));
      step_iterations->append(std::span<const std::int64_t>(&iterations, 1));
      step_residual->append(std::span<const double>(&residual, 1));
      step_wall->append(std::span<const double>(&wall, 1));
      step_status->append(std::span<const std::int64_t>(&status, 1));
      step_criterion->append(std::span<const std::int64_t>(&criterion, 1));
    }
    io::LoopStep result;
    result.iterations = report.iterations;
    if (!report.ok()) {
      // the stepper's message starts with the time and dt of the failed attempt
      result.failure =
          "step " + std::to_string(steps_ + 1) + " (" + std::string(to_string(report.status)) +
          "): " +
          (report.message.empty() ? "from t = " + number_text(t_before) + " s" : report.message);
      return result;
    }
    // save every N steps, or when t crosses a multiple of the interval (every step when the
    // interval is not longer than dt: 1e-320 s would overflow t / w), and always at the end
    result.save = finished();
    if (s.output_interval) {
      const double w = *s.output_interval;
      result.save = result.save || w <= s.dt ||
                    std::floor(state_.time / w + 1e-9) > std::floor(t_before / w + 1e-9);
    } else {
      result.save = result.save || steps_ % s.output_every_steps == 0;
    }
    return result;
  };
  // the observables' fits over the steady part, in run.json (also of a failed run, up to the
  // failure)
  auto write_observables = [&] {
    if (!run || !observables_) return;
    const RobotObservables::Summary o = observables_->summary();
    io::Json j = io::Json::object();
    for (const auto& [name, value] : RobotObservables::named_values(o)) j[name] = value;
    j["steady_start"] = o.steady_start;
    j["samples"] = o.samples;
    const Vec3& axis = observables_->spec().axis;
    j["axis"] = io::Json(io::Json::Array{axis.x(), axis.y(), axis.z()});
    run->set_info("observables", std::move(j));
  };
  io::RunLoopHooks hooks;
  hooks.step = step_once;
  hooks.save_frame = save_frame;
  hooks.finished = [this] { return finished(); };
  hooks.steps = [this] { return steps_; };
  hooks.time = [this] { return state_.time; };
  hooks.before_end = write_observables;
  hooks.total_steps = total_steps_;
  // the initial and last frames, and one per interval (every step if it is not longer than dt) or
  // every N steps
  long saved = total_steps_ / s.output_every_steps;
  if (s.output_interval && *s.output_interval > s.dt)
    saved = static_cast<long>(
        std::min(static_cast<double>(total_steps_), std::floor(s.duration / *s.output_interval)));
  else if (s.output_interval)
    saved = total_steps_;
  hooks.total_frames = 2 + saved;
  hooks.duration = s.duration;
  hooks.save_initial_frame = steps_ == 0;
  return io::run_loop(run.get(), hooks, progress);
}

}  // namespace tendril::sim
