#include "tendril/adjoint/run_gradient.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/adjoint/step_times.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/model_workspace.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril::adjoint {
namespace {

/// The static solve that starts a run (gradient.static_start) from `state`, moved to the
/// equilibrium; empty on success, else why it failed.
std::string static_solve(const Model& model, const GradientOptions& gradient, State& state) {
  StaticSolver solver(model, *gradient.static_start, state.q);
  const StaticReport report = solver.solve(state);
  return report.ok() ? std::string() : "static solve: " + report.message;
}

/// Adds l_k's gradient at `state` into the adjoint (fixed DOFs stay zero) and its explicit
/// dependence on the parameters into `parameters`.
void add_objective_gradient(const Model& model, const Objective& objective, int step,
                            const State& state, StateAdjoint& adjoint, VecX& parameters) {
  VecX dq = VecX::Zero(model.dofs.size());
  VecX du = VecX::Zero(model.dofs.size());
  objective.at_state(step, state, dq, du);
  for (int i = 0; i < model.dofs.size(); ++i)
    if (!model.fixed[static_cast<std::size_t>(i)]) {
      adjoint.q[i] += dq[i];
      adjoint.u[i] += du[i];
    }
  if (objective.frame_angle_gradient)
    objective.frame_angle_gradient(step, state, adjoint.frame_angle);
  if (objective.parameter_gradient) objective.parameter_gradient(step, state, parameters);
}

/// Bytes of one stored State of `model` (positions, velocities, frames, the terms' carried values).
double state_bytes(const Model& model) {
  const double n = model.dofs.size();
  const double edges = static_cast<double>(framed_edge_count(model));
  const double springs = static_cast<double>(framed_spring_count(model));
  const double carried = static_cast<double>(ModelWorkspace::carried_size(model));
  return sizeof(double) * (2.0 * n + 6.0 * edges + springs + carried) + sizeof(State);
}

/// A stored state of the forward run and what the terms' workspaces carried into the step from it
/// (the time of the contact candidates' last update), so that the backward pass recomputes the
/// steps after it bitwise as the forward run took them.
struct Checkpoint {
  State state;
  std::vector<double> carried;
};

void check_run(int steps, const GradientOptions& gradient) {
  if (gradient.static_start && gradient.quasi_static)
    throw InputError("static_start", "set with quasi_static",
                     "one of them (a quasi-static run starts from the initial state)");
  const int least = gradient.static_start ? 0 : 1;
  if (steps < least)
    throw InputError("steps", std::to_string(steps), fmt::format("an integer >= {}", least));
  if (gradient.checkpoint_interval < 1)
    throw InputError("checkpoint_interval", std::to_string(gradient.checkpoint_interval),
                     "an integer >= 1");
}

/// The backward pass of run_with_gradient over one checkpoint interval, steps [first, last):
/// recomputes the states the forward run did not keep (and the substeps of split steps) from the
/// interval's checkpoint `begin` to its end state `end`, then pulls `adjoint` back over them,
/// adding each state's objective gradient.
struct BackwardPass {
  const Model& model;
  const Objective& objective;
  const std::vector<int>& substep_counts;  ///< substeps of each forward step
  const StepTimes& times;
  TimeStepper& stepper;
  ModelWorkspace& workspace;  ///< the stepper's
  StepAdjoint& step_adjoint;
  RunGradient& result;
  StateAdjoint& adjoint;

  std::string interval(int first, int last, const Checkpoint& begin, const State& end) {
    workspace.restore_carried_values(model, begin.carried);
    std::vector<State> starts{begin.state};
    std::vector<std::vector<Substep>> pieces;
    for (int k = first; k < last; ++k) {
      if (k + 1 == last && substep_counts[static_cast<std::size_t>(k)] == 1) {
        pieces.push_back({{end, times.step(k + 1, starts.back().time)}});
        break;
      }
      State state = starts.back();
      pieces.emplace_back();
      stepper.record_substeps(&pieces.back());
      const std::string message = forward_step(stepper, times, k + 1, state);
      stepper.record_substeps(nullptr);
      if (!message.empty()) return message;
      ++result.recomputed_steps;
      starts.push_back(std::move(state));
    }
    for (int k = last - 1; k >= first; --k) {
      const auto i = static_cast<std::size_t>(k - first);
      const std::vector<Substep>& piece = pieces[i];
      for (std::size_t j = piece.size(); j-- > 0;) {
        const State& start = j == 0 ? starts[i] : piece[j - 1].end;
        std::string message =
            step_adjoint.pull_back(start, piece[j].end, piece[j].dt, adjoint, result.parameters);
        if (!message.empty()) return message;
      }
      add_objective_gradient(model, objective, k, starts[i], adjoint, result.parameters);
    }
    return {};
  }
};

/// The equilibria of a quasi-static run (GradientOptions::quasi_static): state k at t_k = t_0 + k
/// dt from state k - 1; L in `value` (NaN and the message on failure).
struct QuasiStaticRun {
  std::vector<State> states;
  double value = 0.0;
  std::string message;
};
QuasiStaticRun quasi_static_run(const Model& model, const StaticOptions& options,
                                const StepTimes& times, const State& initial,
                                const Objective& objective) {
  const int steps = times.steps;
  QuasiStaticRun run;
  run.states.push_back(initial);
  StaticSolver solver(model, options, initial.q);
  VecX dq = VecX::Zero(model.dofs.size()), du = VecX::Zero(model.dofs.size());
  run.value = objective.at_state(0, initial, dq, du);
  for (int k = 1; k <= steps; ++k) {
    State state = run.states.back();
    state.time = times.at(k);
    const StaticReport report = solver.solve(state);
    if (!report.ok()) {
      run.message =
          fmt::format("static solve {} at t = {:.9g} s: {}", k, state.time, report.message);
      run.value = std::numeric_limits<double>::quiet_NaN();
      return run;
    }
    run.value += objective.at_state(k, state, dq, du);
    run.states.push_back(std::move(state));
  }
  return run;
}

/// run_with_gradient of a quasi-static run: per equilibrium k, from the last, the adjoint of its
/// objective alone pulled back through its static solve.
RunGradient quasi_static_gradient(const Model& model, const DynamicsOptions& options,
                                  const State& initial, const StepTimes& times,
                                  const Objective& objective,
                                  const std::vector<Parameter>& parameters,
                                  const StaticOptions& statics) {
  const int steps = times.steps;
  DynamicsOptions newton = options;
  newton.newton = statics.newton;
  StepAdjoint step_adjoint(model, newton, parameters);
  const Model& run_model = step_adjoint.run_model();
  QuasiStaticRun run = quasi_static_run(run_model, statics, times, initial, objective);
  RunGradient result;
  result.value = run.value;
  result.message = run.message;
  if (!run.message.empty()) return result;
  result.final_state = run.states.back();
  result.substeps = steps;
  const int n = run_model.dofs.size();
  const auto edges = static_cast<Eigen::Index>(run_model.rods.edges.size());
  result.parameters = VecX::Zero(static_cast<Eigen::Index>(parameters.size()));
  for (int k = steps; k >= 0; --k) {
    StateAdjoint adjoint{VecX::Zero(n), VecX::Zero(n), VecX::Zero(edges)};
    add_objective_gradient(run_model, objective, k, run.states[static_cast<std::size_t>(k)],
                           adjoint, result.parameters);
    for (int i = 0; i < n; ++i)
      if (run_model.dofs.is_twist(i) && adjoint.q[i] != 0.0)
        throw InputError("objective", fmt::format("a gradient on twist DOF {} at step {}", i, k),
                         "objectives of the node positions (quasi-static runs)");
    if (!adjoint.frame_angle.isZero(0.0))
      throw InputError("objective", "a frame-angle gradient",
                       "objectives of the node positions (quasi-static runs)");
    if (k == 0) {
      result.initial_position = adjoint.q;
      result.initial_velocity = adjoint.u;
      break;
    }
    result.message = step_adjoint.pull_back_static(run.states[static_cast<std::size_t>(k)], adjoint,
                                                   result.parameters);
    if (!result.message.empty()) return result;
  }
  result.ok = true;
  return result;
}

}  // namespace

int checkpoint_interval_for_memory(const Model& model, int steps, double bytes) {
  const double per_state = state_bytes(model);
  for (int m = 1; m <= steps; ++m) {
    const double held = std::ceil(static_cast<double>(steps) / m) + m;
    if (held * per_state <= bytes) return m;
    if (static_cast<double>(m) * m > steps) break;  // held grows again beyond sqrt(steps)
  }
  throw InputError("memory", number_text(bytes) + " B",
                   fmt::format("at least {:.3g} B (2 sqrt(steps) states of {:.3g} B)",
                               2.0 * std::sqrt(static_cast<double>(steps)) * per_state, per_state));
}

RunGradient run_with_gradient(const Model& model, const DynamicsOptions& options,
                              const State& initial, int steps, const Objective& objective,
                              const std::vector<Parameter>& parameters,
                              const GradientOptions& gradient) {
  check_run(steps, gradient);
  const StepTimes times = step_times(initial.time, options.dt, steps, gradient.end_time);
  if (gradient.quasi_static)
    return quasi_static_gradient(model, options, initial, times, objective, parameters,
                                 *gradient.quasi_static);
  StepAdjoint step_adjoint(model, options, parameters);
  const Model& run_model = step_adjoint.run_model();
  ModelWorkspace workspace(run_model);
  TimeStepper stepper(run_model, options, initial.q, &workspace);
  const int m = gradient.checkpoint_interval;
  const int n = run_model.dofs.size();
  RunGradient result;

  // forward: L, the checkpoints (states 0, m, 2m, ...) and the substeps of each step
  State state = initial;
  if (gradient.static_start) {
    result.message = static_solve(run_model, gradient, state);
    if (!result.message.empty()) return result;
  }
  std::vector<Checkpoint> checkpoints{{state, workspace.carried_values(run_model)}};
  std::vector<int> substep_counts;
  VecX dq = VecX::Zero(n), du = VecX::Zero(n);
  result.value = objective.at_state(0, state, dq, du);
  ContactStates contacts = contact_states(run_model, state);
  for (int k = 1; k <= steps; ++k) {
    stepper.set_dt(times.step(k, state.time));
    const StepReport report = stepper.step(state);
    if (!report.ok()) {
      result.message = report.message;
      return result;
    }
    substep_counts.push_back(report.substeps);
    result.substeps += report.substeps;
    ContactStates next = contact_states(run_model, state);
    result.contact_switches += contact_switches(contacts, next);
    contacts = std::move(next);
    result.value += objective.at_state(k, state, dq, du);
    if (k % m == 0 && k < steps)
      checkpoints.push_back({state, workspace.carried_values(run_model)});
  }
  result.final_state = state;

  // backward, one checkpoint interval at a time
  StateAdjoint adjoint{VecX::Zero(n), VecX::Zero(n),
                       VecX::Zero(static_cast<Eigen::Index>(run_model.rods.edges.size()))};
  result.parameters = VecX::Zero(static_cast<Eigen::Index>(parameters.size()));
  add_objective_gradient(run_model, objective, steps, result.final_state, adjoint,
                         result.parameters);
  BackwardPass backward{run_model, objective,    substep_counts, times,  stepper,
                        workspace, step_adjoint, result,         adjoint};
  for (int c = static_cast<int>(checkpoints.size()) - 1; c >= 0 && steps > 0; --c) {
    const int first = c * m, last = std::min(first + m, steps);
    const State& end =
        last == steps ? result.final_state : checkpoints[static_cast<std::size_t>(c + 1)].state;
    result.message = backward.interval(first, last, checkpoints[static_cast<std::size_t>(c)], end);
    if (!result.message.empty()) return result;
  }
  if (gradient.static_start) {
    result.message =
        step_adjoint.pull_back_static(checkpoints[0].state, adjoint, result.parameters);
    if (!result.message.empty()) return result;
  }
  result.initial_velocity = adjoint.u;
  result.initial_position = adjoint.q;
  result.ok = true;
  return result;
}

double run_objective(const Model& model, const DynamicsOptions& options, const State& initial,
                     int steps, const Objective& objective,
                     const std::vector<Parameter>& parameters, const GradientOptions& gradient) {
  const Model run_model = with_parameters(model, parameters);
  const StepTimes times = step_times(initial.time, options.dt, steps, gradient.end_time);
  if (gradient.quasi_static)
    return quasi_static_run(run_model, *gradient.quasi_static, times, initial, objective).value;
  TimeStepper stepper(run_model, options, initial.q);
  State state = initial;
  const double failed = std::numeric_limits<double>::quiet_NaN();
  if (gradient.static_start && !static_solve(run_model, gradient, state).empty()) return failed;
  VecX dq = VecX::Zero(run_model.dofs.size()), du = VecX::Zero(run_model.dofs.size());
  double value = objective.at_state(0, state, dq, du);
  for (int k = 1; k <= steps; ++k) {
    if (!forward_step(stepper, times, k, state).empty()) return failed;
    value += objective.at_state(k, state, dq, du);
  }
  return value;
}

}  // namespace tendril::adjoint
