#pragma once
/// The timed loop of the Simulation benchmarks: `steps_per_iteration` steps per benchmark iteration, a
/// failed step ends the benchmark with its message.

#include <algorithm>
#include <string>

#include <benchmark/benchmark.h>

#include "tendril/sim/simulation.hpp"

namespace tendril::bench {

/// Runs the benchmark loop on `sim`; returns the mean Newton iterations per step (0 after a failed step).
inline double timed_steps(benchmark::State& state, sim::Simulation& sim, int steps_per_iteration) {
  long iterations = 0, steps = 0;
  for (auto _ : state) {
    for (int k = 0; k < steps_per_iteration; ++k) {
      const StepReport report = sim.step();
      if (report.status != StepStatus::converged) {
        state.SkipWithError(("step failed: " + report.message).c_str());
        return 0.0;
      }
      iterations += report.iterations;
      ++steps;
    }
  }
  return static_cast<double>(iterations) / std::max(1L, steps);
}

}  // namespace tendril::bench
