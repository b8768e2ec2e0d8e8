#include "tendril/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include <fmt/format.h>

#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/friction/point_triangle_friction.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/core/term.hpp"
#include "tendril/integrate/step_times.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/sim/restart_state.hpp"
#include "tendril/sim/rod_run_record.hpp"

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
  if (!s.restart_run.empty()) Simulation::restore(s.restart_run, s.restart_frame);
}

void Simulation::restore(const std::filesystem::path& run_dir, long frame) {
  if (steps_ != 0)
    throw InputError("restart", fmt::format("a simulation that has taken {} steps", steps_),
                     "a restart before the first step");
  // what a step depends on beyond the record: the observables' history is not saved
  if (observables_)
    throw InputError("restart", "a scene with observables", "a scene without `observables`");
  RestartRecord r = read_restart(run_dir, frame, scene_->model.dofs, restart_record(), "restart");
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
  workspace_->restore_carried_values(scene_->model, r.carried);
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

}  // namespace

StepReport Simulation::step() {
  const RodScene& s = *scene_;
  if (finished())
    throw InputError("step()",
                     "(the run has ended at t = " + number_text(s.duration) + " s, its duration)",
                     "steps while t < duration (a larger duration runs on)");
  // the step ends at (k + 1) dt, the last one at T exactly
  const double t_end = StepTimes{0.0, s.dt, total_steps_, s.duration}.at(steps_ + 1);
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

bool Simulation::has_contact() const {
  return std::any_of(scene_->model.energies.begin(), scene_->model.energies.end(),
                     [](const auto& e) {
                       return dynamic_cast<const contact::ContactEnergy*>(e.get()) != nullptr;
                     });
}

io::StepSummary Simulation::advance() {
  last_step_start_ = state_.time;
  last_report_ = step();
  const StepReport& report = last_report_;
  io::StepSummary out;
  out.iterations = report.iterations;
  out.substeps = report.substeps;
  if (!report.ok()) {
    // the stepper's message starts with the time and dt of the failed attempt
    out.failure = "step " + std::to_string(steps_ + 1) + " (" +
                  std::string(to_string(report.status)) + "): " +
                  (report.message.empty() ? "from t = " + number_text(last_step_start_) + " s"
                                          : report.message);
    return out;
  }
  // save every N steps, or when t crosses a multiple of the interval (every step when the
  // interval is not longer than dt: 1e-320 s would overflow t / w), and always at the end
  const RodScene& s = *scene_;
  out.save = finished();
  if (s.output_interval) {
    const double w = *s.output_interval;
    out.save = out.save || w <= s.dt ||
               std::floor(state_.time / w + 1e-9) > std::floor(last_step_start_ / w + 1e-9);
  } else {
    out.save = out.save || steps_ % s.output_every_steps == 0;
  }
  return out;
}

long Simulation::total_frames() const {
  const RodScene& s = *scene_;
  long saved = total_steps_ / s.output_every_steps;
  if (s.output_interval && *s.output_interval > s.dt)
    saved = static_cast<long>(
        std::min(static_cast<double>(total_steps_), std::floor(s.duration / *s.output_interval)));
  else if (s.output_interval)
    saved = total_steps_;
  return 2 + saved;
}

std::unique_ptr<io::RunRecord> Simulation::begin_record(io::RunDirectory& run) {
  return std::make_unique<RodRunRecord>(run, *this);
}

RunResult Simulation::run(const std::filesystem::path& out,
                          const std::function<void(const Progress&)>& progress) {
  return io::run(*this, out, progress);
}

}  // namespace tendril::sim
