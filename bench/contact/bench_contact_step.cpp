// One implicit step of the contact examples through the Simulation facade (docs/performance.md,
// "Contact"): the rod drop of mat_dismech Fig. 7 (26 nodes, dt 1e-4 s; MAT-DiSMech needs ~1900 s of
// CPU for its 10000 steps) and the nine-limbed legged robot (217 nodes, dt 2.5e-3 s; dismech-rods
// ~12 ms per step). Each simulation runs its whole scene and restarts (untimed), so the steps
// measured are the scene's own mix of free fall, impact and rest.
#include <string>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "support/timed_steps.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

const std::string kExamples = std::string(TENDRIL_SOURCE_DIR) + "/examples/";

void run_scene(benchmark::State& state, const std::string& name) {
  const double iterations = tendril::bench::restarted_steps(
      state, [&] { return tendril::sim::Simulation::from_file(kExamples + name + ".yaml"); },
      [](const tendril::sim::Simulation& sim) { return sim.finished(); });
  state.counters["newton_iterations"] = iterations;
}

void BM_RodDropSoftStep(benchmark::State& state) {
  run_scene(state, "rod_drop_soft");
}
void BM_RodDropStiffStep(benchmark::State& state) {
  run_scene(state, "rod_drop_stiff");
}
void BM_LeggedRobotStep(benchmark::State& state) {
  run_scene(state, "legged_robot");
}
BENCHMARK(BM_RodDropSoftStep)
    ->Iterations(10000)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RodDropStiffStep)
    ->Iterations(10000)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LeggedRobotStep)
    ->Iterations(800)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
