#pragma once
/// The times of a differentiated run's steps: of dt each, or a scene's steps as Simulation takes
/// them (step k ends at t_0 + k dt, the last at the scene's duration), shared by the adjoint
/// (run_gradient.hpp) and the forward sensitivities (forward_sensitivity.hpp).

#include <optional>
#include <string>

#include "tendril/core/state.hpp"

namespace tendril {
class TimeStepper;
}

namespace tendril::adjoint {

/// The steps of a run: of dt each, or, with an end time (a scene's run), step k ends at t_k = t_0 +
/// k dt and the last at the end time, each of t_k - t_{k-1} as Simulation steps a scene.
struct StepTimes {
  double start = 0.0;  ///< t_0 [s]
  double dt = 0.0;     ///< [s]
  int steps = 0;
  std::optional<double> end;  ///< the last step's end [s]
  /// t_k [s] (the time of a static solve k)
  double at(int k) const { return end && k == steps ? *end : start + k * dt; }
  /// The size of step k from the time `t` step k - 1 ended at [s].
  double step(int k, double t) const { return end ? at(k) - t : dt; }
};

/// The times of `steps` steps of `dt` [s] from t = `start` [s], ending at `end_time` [s] when set:
/// InputError "end_time" unless it is within 1e-9 dt of start + steps dt.
StepTimes step_times(double start, double dt, int steps, std::optional<double> end_time);

/// Step k of the run from `state` (the stepper set to its size); empty on success, else why the
/// run cannot be differentiated.
std::string forward_step(TimeStepper& stepper, const StepTimes& times, int k, State& state);

}  // namespace tendril::adjoint
