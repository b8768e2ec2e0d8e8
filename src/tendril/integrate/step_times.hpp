#pragma once
/// The times of a run's steps, as Simulation steps a scene and as the adjoint and the forward
/// sensitivities replay it (adjoint/step_times.hpp).

#include <optional>

namespace tendril {

/// The steps of a run: of dt each, or, with an end time (a scene's run), step k ends at t_k = t_0 +
/// k dt and the last at the end time, each of t_k - t_{k-1}.
struct StepTimes {
  double start = 0.0;  ///< t_0 [s]
  double dt = 0.0;     ///< [s]
  long steps = 0;
  std::optional<double> end;  ///< the last step's end [s]
  /// t_k [s] (the time of a static solve k)
  double at(long k) const { return end && k == steps ? *end : start + k * dt; }
  /// The size of step k from the time `t` step k - 1 ended at [s].
  double step(long k, double t) const { return end ? at(k) - t : dt; }
};

}  // namespace tendril
