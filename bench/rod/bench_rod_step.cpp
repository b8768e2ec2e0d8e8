// One implicit step of the benchmark rods, through the Simulation facade (scene files in
// examples/). Counters: newton_iterations per step and seconds per node per Newton iteration
// (node_iteration, shown inverted as a time). Results and method: docs/performance.md.
#include <functional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "support/timed_steps.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

const std::string kExamples = std::string(TENDRIL_SOURCE_DIR) + "/examples/";

/// Times sim.step(); the simulation is rebuilt (untimed) whenever it reaches `restart_time` [s], so
/// every size measures steps of the same stretch of motion.
void run_steps(benchmark::State& state, const std::function<tendril::sim::Simulation()>& make,
               double restart_time) {
  const int nodes = make().model().dofs.num_nodes;
  const double iterations = tendril::bench::restarted_steps(
      state, make,
      [&](const tendril::sim::Simulation& sim) { return sim.state().time >= restart_time; });
  state.counters["nodes"] = nodes;
  state.counters["newton_iterations"] = iterations;
  state.counters["node_iteration"] =
      benchmark::Counter(iterations * static_cast<double>(state.iterations()) * nodes,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// straight cantilever: L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52, nu 0.5, clamped, gravity, backward
// Euler, dt 1e-3
void BM_CantileverImplicitEulerStep(benchmark::State& state) {
  const std::string nodes = std::to_string(state.range(0));
  run_steps(
      state,
      [&] {
        return tendril::sim::Simulation::from_file(
            kExamples + "cantilever_gravity.yaml",
            {"rods.0.geometry.num_nodes=" + nodes, "duration=1000"});
      },
      1.0);
}
BENCHMARK(BM_CantileverImplicitEulerStep)
    ->Arg(26)
    ->Arg(101)
    ->Arg(401)
    ->Arg(1601)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

// 106-node helix under gravity, implicit midpoint, dt 5e-3. Restarted every 1 s of simulated time:
// at this dt the midpoint rule's energy stays conserved to 1e-5 J for about 1.1 s, then the axial
// modes gain energy and the step fails near 1.46 s (docs/performance.md).
void BM_HelixImplicitMidpointStep(benchmark::State& state) {
  run_steps(
      state,
      [] {
        return tendril::sim::Simulation::from_file(kExamples + "helix_gravity.yaml",
                                                   {"duration=1000"});
      },
      1.0);
}
BENCHMARK(BM_HelixImplicitMidpointStep)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
