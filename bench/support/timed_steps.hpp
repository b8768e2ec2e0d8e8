#pragma once
/// The timed loops of the Simulation benchmarks: a failed step ends the benchmark with its message.

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include <benchmark/benchmark.h>

#include "tendril/sim/simulation.hpp"

namespace tendril::bench {

/// One step of `sim`, its Newton iterations added to `iterations` (and its factorizations to
/// `factorizations`); false (the benchmark skipped with the step's message) if it failed.
inline bool counted_step(benchmark::State& state, sim::Simulation& sim, long& iterations,
                         long& steps, long* factorizations = nullptr) {
  const StepReport report = sim.step();
  if (report.status != StepStatus::converged) {
    state.SkipWithError(("step failed: " + report.message).c_str());
    return false;
  }
  iterations += report.iterations;
  if (factorizations) *factorizations += report.factorizations;
  ++steps;
  return true;
}

/// Runs the benchmark loop on `sim`, `steps_per_iteration` steps per benchmark iteration; returns
/// the mean Newton iterations per step (0 after a failed step) and, if asked, stores the mean
/// factorizations of the Newton matrix per step in `factorizations_per_step`.
inline double timed_steps(benchmark::State& state, sim::Simulation& sim, int steps_per_iteration,
                          double* factorizations_per_step = nullptr) {
  long iterations = 0, steps = 0, factorizations = 0;
  for (auto _ : state)
    for (int k = 0; k < steps_per_iteration; ++k)
      if (!counted_step(state, sim, iterations, steps, &factorizations)) return 0.0;
  if (factorizations_per_step)
    *factorizations_per_step = static_cast<double>(factorizations) / std::max(1L, steps);
  return static_cast<double>(iterations) / std::max(1L, steps);
}

/// One step per benchmark iteration on a simulation built by `make`, rebuilt (untimed) whenever
/// `restart(sim)` says so (the scene's end, or a time), so a long benchmark keeps measuring the
/// same stretch of motion. Returns the mean Newton iterations per step (0 after a failed step).
inline double restarted_steps(benchmark::State& state, const std::function<sim::Simulation()>& make,
                              const std::function<bool(const sim::Simulation&)>& restart) {
  std::optional<sim::Simulation> sim(make());
  long iterations = 0, steps = 0;
  for (auto _ : state) {
    if (restart(*sim)) {
      state.PauseTiming();
      sim.emplace(make());
      state.ResumeTiming();
    }
    if (!counted_step(state, *sim, iterations, steps)) return 0.0;
  }
  return static_cast<double>(iterations) / std::max(1L, steps);
}

}  // namespace tendril::bench
