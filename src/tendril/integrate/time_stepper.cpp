#include "tendril/integrate/time_stepper.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"

namespace tendril {
namespace {

const NewtonOptions& validated(const DynamicsOptions& options) {
  options.validate();
  return options.newton;
}

}  // namespace

TimeStepper::TimeStepper(const Model& model, const DynamicsOptions& options, VecX q_initial,
                         ModelWorkspace* workspace)
    : model_(model),
      actuated_(model.actuators.empty() ? nullptr : std::make_unique<Model>(model)),
      options_(options),
      q_initial_(std::move(q_initial)),
      system_(actuated_ ? *actuated_ : model, validated(options), workspace) {
  TENDRIL_ASSERT(q_initial_.size() == model.dofs.size(), "q_initial must have one entry per DOF");
  const int n = model.dofs.size();
  for (std::size_t m = 0; m < model.prescribed.size(); ++m)
    for (int d : model.prescribed[m].dofs)
      if (d < 0 || d >= n || !model.fixed[d])
        throw InputError("prescribed[" + std::to_string(m) + "].dofs", std::to_string(d),
                         "indices of fixed DOFs");
  y_.setZero(n);
  target_.setZero(n);
  predicted_.setZero(n);
}

void TimeStepper::set_dt(double dt) {
  DynamicsOptions changed = options_;
  changed.dt = dt;
  changed.validate();
  options_.dt = dt;
}

StepReport TimeStepper::step(State& state) {
  TENDRIL_ASSERT(state.q.size() == model_.dofs.size() && state.u.size() == model_.dofs.size(),
                 "State q and u must have one entry per DOF");
  work_.time = state.time;
  work_.q = state.q;
  work_.u = state.u;
  work_.frames = state.frames;
  StepReport report;
  report.dt = options_.dt;
  end_forces_ = false;
  if (advance(work_, options_.dt, 0, report)) {
    end_forces_ = options_.scheme == Scheme::implicit_euler;
    // copied, not swapped: state.q and state.u keep their storage, so views of them (Python) stay
    // valid
    state.q = work_.q;
    state.u = work_.u;
    std::swap(state.frames, work_.frames);
    // the end time is set from the start time so halving adds no round-off drift
    state.time += options_.dt;
  }
  return report;
}

bool TimeStepper::advance(State& s, double dt, int depth, StepReport& report) {
  StepReport attempt = substep(s, dt);
  report.iterations += attempt.iterations;
  report.regularized_iterations += attempt.regularized_iterations;
  report.chord_iterations += attempt.chord_iterations;
  report.factorizations += attempt.factorizations;
  if (attempt.ok()) {
    if (substeps_) substeps_->push_back({s, dt});
    report.take_last_solve(attempt);
    report.dt = std::min(report.dt, dt);
    ++report.substeps;
    return true;
  }
  if (depth >= options_.max_dt_halvings) {
    report.status = attempt.status;
    report.message =
        fmt::format("step from t = {:.9g} s failed at dt = {:.3g} s after {} halvings: ", s.time,
                    dt, depth) +
        attempt.message;
    report.take_last_solve(attempt);
    report.dt = std::min(report.dt, dt);
    return false;
  }
  report.dt_halvings = std::max(report.dt_halvings, depth + 1);
  return advance(s, 0.5 * dt, depth + 1, report) && advance(s, 0.5 * dt, depth + 1, report);
}

StepReport TimeStepper::substep(State& s, double dt) {
  const bool midpoint = options_.scheme == Scheme::implicit_midpoint;
  const double alpha = midpoint ? options_.midpoint_alpha : 1.0;
  const double h = alpha * dt;
  const double t_next = s.time + dt;
  system_.update_stencils(s);

  // fixed DOFs at t_{k+1}: prescribed motions write their DOFs, the others stay put
  target_ = s.q;
  for (const PrescribedMotion& motion : model_.prescribed)
    motion.apply(t_next, q_initial_, target_);

  // unknown y: q_{k+1} (Euler) or q_alpha (midpoint). Initial guess on the free DOFs (options
  // initial_guess): the inertial prediction q_k + h u_k (a force-free step), shortened by the
  // continuous collision checks so no rod edge jumps through another, or q_k as in mat_dismech's
  // Algorithm 1 (line 5) (docs/physics/time_integration.md, "Initial guess")
  predicted_ = s.q + h * s.u;
  const int n = model_.dofs.size();
  double fraction = 0.0;
  if (options_.initial_guess == InitialGuess::inertial) {
    guess_step_ = dt * s.u;  // the end configuration's change q_{k+1} - q_k under the guess
    for (int i = 0; i < n; ++i)
      if (model_.fixed[i]) guess_step_[i] = target_[i] - s.q[i];
    fraction = system_.collision_free_fraction(s.q, guess_step_, s.time, t_next);
  }
  if (fraction < 1.0) fraction = first_leg_fraction(s, fraction, t_next);
  if (fraction < 0.0) {
    StepReport report;
    report.status = StepStatus::line_search_failed;
    report.message =
        "a moving obstacle or prescribed motion passes through a body within the step (continuous "
        "collision check of the step's start)";
    return report;
  }
  y_ = s.q + (fraction * h) * s.u;
  for (int i = 0; i < n; ++i)
    if (model_.fixed[i]) y_[i] = (1.0 - alpha) * s.q[i] + alpha * target_[i];

  NewtonProblem problem;
  problem.inertia = 1.0 / (h * h);
  problem.predicted = &predicted_;
  problem.velocity_scale = 1.0 / h;
  problem.velocity_origin = &s.q;
  problem.time = s.time + h;
  problem.load_factor = 1.0;
  problem.frames = &s.frames;
  problem.end_scale = 1.0 / alpha;
  // rest quantities scheduled in time, at the time the forces are evaluated
  if (actuated_) {
    actuated_rods(model_, problem.time, actuated_->rods);
    actuated_hinges(model_, problem.time, actuated_->shells.hinges);
  }
  StepReport report = system_.solve(problem, y_);
  report.dt = dt;
  if (!report.ok()) return report;

  // accept: positions, velocities, frames, time
  if (midpoint) {
    // q_{k+1} = q_k + (y - q_k)/alpha, u_{k+1} = (u_alpha - (1 - alpha) u_k)/alpha, u_alpha = (y -
    // q_k)/h
    for (int i = 0; i < n; ++i) {
      const double q_next = s.q[i] + (y_[i] - s.q[i]) / alpha;
      s.u[i] = model_.fixed[i] ? (q_next - s.q[i]) / dt
                               : ((y_[i] - s.q[i]) / h - (1.0 - alpha) * s.u[i]) / alpha;
      s.q[i] = q_next;
    }
    compute_kinematics(model_, s.frames, s.q, system_.kinematics());
  } else {
    s.u = (y_ - s.q) / dt;
    s.q = y_;
  }
  accept_frames(system_.kinematics(), s.frames);
  s.time = t_next;
  return report;
}

double TimeStepper::first_leg_fraction(const State& s, double fraction, double t_next) {
  // the path from q_k at t_k to the initial guess at t_{k+1}, along which the fixed DOFs reach
  // their targets and moving obstacles their place at t_{k+1}, must be collision-free as a whole
  const int n = model_.dofs.size();
  guess_step_.resize(n);
  for (int i = 0; i < n; ++i)
    guess_step_[i] = model_.fixed[i] ? target_[i] - s.q[i] : fraction * s.u[i] * (t_next - s.time);
  if (fraction > 0.0 && system_.collision_free_fraction(s.q, guess_step_, s.time, t_next) >= 1.0)
    return fraction;
  // else start the free DOFs at q_k
  for (int i = 0; i < n; ++i)
    if (!model_.fixed[i]) guess_step_[i] = 0.0;
  return system_.collision_free_fraction(s.q, guess_step_, s.time, t_next) >= 1.0 ? 0.0 : -1.0;
}

}  // namespace tendril
