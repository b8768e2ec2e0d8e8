#pragma once
/// The times of a differentiated run's steps (integrate/step_times.hpp: of dt each, or a scene's
/// steps as Simulation takes them), shared by the adjoint (run_gradient.hpp) and the forward
/// sensitivities (forward_sensitivity.hpp).

#include <optional>
#include <string>

#include "tendril/core/state.hpp"
#include "tendril/integrate/step_times.hpp"

namespace tendril {
class TimeStepper;
}

namespace tendril::adjoint {

/// The times of `steps` steps of `dt` [s] from t = `start` [s], ending at `end_time` [s] when set:
/// InputError "end_time" unless it is within 1e-9 dt of start + steps dt.
StepTimes step_times(double start, double dt, int steps, std::optional<double> end_time);

/// Step k of the run from `state` (the stepper set to its size); empty on success, else why the
/// run cannot be differentiated.
std::string forward_step(TimeStepper& stepper, const StepTimes& times, int k, State& state);

}  // namespace tendril::adjoint
