#include "tendril/adjoint/step_times.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril::adjoint {

StepTimes step_times(double start, double dt, int steps, std::optional<double> end_time) {
  const double end = start + steps * dt;
  if (end_time && !(std::abs(*end_time - end) <= 1e-9 * dt))
    throw InputError("end_time", number_text(*end_time) + " s",
                     fmt::format("the end of the run's {} steps of {} s from t = {} s ({} s, "
                                 "within 1e-9 dt)",
                                 steps, dt, start, end));
  return {start, dt, steps, end_time};
}

std::string forward_step(TimeStepper& stepper, const StepTimes& times, int k, State& state) {
  stepper.set_dt(times.step(k, state.time));
  const StepReport report = stepper.step(state);
  return report.ok() ? std::string() : report.message;
}

}  // namespace tendril::adjoint
