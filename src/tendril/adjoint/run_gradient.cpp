#include "tendril/adjoint/run_gradient.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril::adjoint {

std::string forward_step(TimeStepper& stepper, State& state) {
  const double t = state.time;
  const StepReport report = stepper.step(state);
  if (!report.ok()) return report.message;
  if (report.substeps != 1)
    return fmt::format(
        "the step from t = {:.9g} s was split into {} substeps (dt halved); the gradient of a run "
        "with halved steps is not implemented: choose a smaller dt",
        t, report.substeps);
  return {};
}

namespace {

/// Adds l_k's gradient at `state` into the adjoint (fixed DOFs stay zero).
void add_objective_gradient(const Model& model, const Objective& objective, int step,
                            const State& state, StateAdjoint& adjoint) {
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
}

/// Bytes of one stored State of `model` (positions, velocities, frames).
double state_bytes(const Model& model) {
  const double n = model.dofs.size();
  const double edges = static_cast<double>(framed_edge_count(model));
  const double springs = static_cast<double>(framed_spring_count(model));
  return sizeof(double) * (2.0 * n + 6.0 * edges + springs) + sizeof(State);
}

void check_run(int steps, const GradientOptions& gradient) {
  if (steps < 1) throw InputError("steps", std::to_string(steps), "an integer >= 1");
  if (gradient.checkpoint_interval < 1)
    throw InputError("checkpoint_interval", std::to_string(gradient.checkpoint_interval),
                     "an integer >= 1");
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
  const Model run_model = with_parameters(model, parameters);
  StepAdjoint step_adjoint(run_model, options, parameters);
  TimeStepper stepper(run_model, options, initial.q);
  const int m = gradient.checkpoint_interval;
  const int n = run_model.dofs.size();
  RunGradient result;

  // forward: L and the checkpoints (states 0, m, 2m, ...)
  std::vector<State> checkpoints{initial};
  State state = initial;
  VecX dq = VecX::Zero(n), du = VecX::Zero(n);
  result.value = objective.at_state(0, state, dq, du);
  for (int k = 1; k <= steps; ++k) {
    result.message = forward_step(stepper, state);
    if (!result.message.empty()) return result;
    result.value += objective.at_state(k, state, dq, du);
    if (k % m == 0 && k < steps) checkpoints.push_back(state);
  }
  result.final_state = state;

  // backward, one checkpoint interval at a time, recomputing its states from its checkpoint
  StateAdjoint adjoint{VecX::Zero(n), VecX::Zero(n),
                       VecX::Zero(static_cast<Eigen::Index>(run_model.rods.edges.size()))};
  add_objective_gradient(run_model, objective, steps, result.final_state, adjoint);
  result.parameters = VecX::Zero(static_cast<Eigen::Index>(parameters.size()));
  std::vector<State> interval;
  for (int c = static_cast<int>(checkpoints.size()) - 1; c >= 0; --c) {
    const int first = c * m;
    const int last = std::min(first + m, steps);
    interval.assign(1, checkpoints[static_cast<std::size_t>(c)]);
    for (int k = first + 1; k < last; ++k) {
      interval.push_back(interval.back());
      result.message = forward_step(stepper, interval.back());
      if (!result.message.empty()) return result;
      ++result.recomputed_steps;
    }
    interval.push_back(last == steps ? result.final_state
                                     : checkpoints[static_cast<std::size_t>(c + 1)]);
    for (int k = last - 1; k >= first; --k) {
      const auto i = static_cast<std::size_t>(k - first);
      result.message =
          step_adjoint.pull_back(interval[i], interval[i + 1], adjoint, result.parameters);
      if (!result.message.empty()) return result;
      add_objective_gradient(run_model, objective, k, interval[i], adjoint);
    }
  }
  result.initial_velocity = adjoint.u;
  result.ok = true;
  return result;
}

double run_objective(const Model& model, const DynamicsOptions& options, const State& initial,
                     int steps, const Objective& objective,
                     const std::vector<Parameter>& parameters) {
  const Model run_model = with_parameters(model, parameters);
  TimeStepper stepper(run_model, options, initial.q);
  State state = initial;
  VecX dq = VecX::Zero(run_model.dofs.size()), du = VecX::Zero(run_model.dofs.size());
  double value = objective.at_state(0, state, dq, du);
  for (int k = 1; k <= steps; ++k) {
    if (!forward_step(stepper, state).empty()) return std::numeric_limits<double>::quiet_NaN();
    value += objective.at_state(k, state, dq, du);
  }
  return value;
}

}  // namespace tendril::adjoint
