// The flagellated robot (examples/flagellated_robot.yaml: granular_flagella Fig. 3, dt 0.01 s,
// 4.11 mm tail edges) at 100 rpm with n tails: wall time per simulated second. One benchmark
// iteration is one simulated second (100 steps) of steady swimming, after 1 s of untimed start-up.
// Counters: real_time_factor = simulated seconds per wall-clock second (>= 100 is the target
// for n = 2), newton_iterations per step, nodes. Results: docs/performance.md.
#include <string>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "support/timed_steps.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

void BM_FlagellatedRobotSimulatedSecond(benchmark::State& state) {
  const std::string tails = std::to_string(state.range(0));
  tendril::sim::Simulation sim = tendril::sim::Simulation::from_file(
      std::string(TENDRIL_SOURCE_DIR) + "/examples/flagellated_robot.yaml",
      {"flagellated_robot.tails=" + tails, "flagellated_robot.motor_rpm=100", "duration=1e6"});
  for (int k = 0; k < 100; ++k) sim.step();  // start-up (untimed)
  const double newton_iterations = tendril::bench::timed_steps(state, sim, 100);
  state.counters["nodes"] = sim.model().dofs.num_nodes;
  state.counters["newton_iterations"] = newton_iterations;
  state.counters["real_time_factor"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FlagellatedRobotSimulatedSecond)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Arg(6)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
