// The flagellated robot (examples/flagellated_robot.yaml: granular_flagella Fig. 3, dt 0.01 s,
// 4.11 mm tail edges) at 100 rpm with n tails: wall time per simulated second. One benchmark
// iteration is one simulated second (1 / dt steps) of steady swimming, after 1 s of untimed
// start-up. BM_FlagellatedRobotSimulatedSecond runs the paper's dt = 0.01 s;
// BM_FlagellatedRobotLargerStep the same robot at dt = 0.02 and 0.04 s (second argument, in ms),
// whose v, omega_h, omega_t and eta agree with dt = 0.01 s within one unit of the last digit of
// docs/physics/flagellated_robot.md's table (dt 0.02 s) and within 0.4 % (0.04 s); the comparison
// is in that page. Both use the example's Newton chord steps (integrator.newton.chord_contraction
// 0.1); BM_FlagellatedRobotChord compares chord_contraction 0 (off), 0.01 and 0.1 at dt = 0.01 s;
// BM_FlagellatedRobotThreads 1 and 2 threads (integrator.newton.threads) at dt = 0.01 s.
// Counters: real_time_factor = simulated seconds per wall-clock second (>= 100 is the issue's
// target for n = 2), newton_iterations per step, nodes. Results: docs/performance.md.
#include <cmath>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "support/timed_steps.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

/// One simulated second of the robot with `tails` tails at the time step dt [s]; chord_contraction
/// overrides the example's integrator.newton.chord_contraction when >= 0; `threads` evaluate the
/// Newton system (integrator.newton.threads).
void simulated_seconds(benchmark::State& state, int tails, double dt,
                       double chord_contraction = -1.0, int threads = 1) {
  std::vector<std::string> overrides{"flagellated_robot.tails=" + std::to_string(tails),
                                     "flagellated_robot.motor_rpm=100", "duration=1e6",
                                     "integrator.dt=" + std::to_string(dt),
                                     "integrator.newton.threads=" + std::to_string(threads)};
  if (chord_contraction >= 0.0)
    overrides.push_back("integrator.newton.chord_contraction=" + std::to_string(chord_contraction));
  tendril::sim::Simulation sim = tendril::sim::Simulation::from_file(
      std::string(TENDRIL_SOURCE_DIR) + "/examples/flagellated_robot.yaml", overrides);
  const int steps_per_second = static_cast<int>(std::lround(1.0 / dt));
  for (int k = 0; k < steps_per_second; ++k) sim.step();  // start-up (untimed)
  double factorizations = 0.0;
  const double newton_iterations =
      tendril::bench::timed_steps(state, sim, steps_per_second, &factorizations);
  state.counters["nodes"] = sim.model().dofs.num_nodes;
  state.counters["newton_iterations"] = newton_iterations;
  state.counters["factorizations"] = factorizations;
  state.counters["real_time_factor"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_FlagellatedRobotSimulatedSecond(benchmark::State& state) {
  simulated_seconds(state, static_cast<int>(state.range(0)), 0.01);
}
BENCHMARK(BM_FlagellatedRobotSimulatedSecond)
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Arg(6)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

/// dt = 0.01 s on (second argument) threads: wall time is the measure (real_time: the CPU column
/// counts the main thread only).
void BM_FlagellatedRobotThreads(benchmark::State& state) {
  simulated_seconds(state, static_cast<int>(state.range(0)), 0.01, -1.0,
                    static_cast<int>(state.range(1)));
}
BENCHMARK(BM_FlagellatedRobotThreads)
    ->ArgsProduct({{2, 3, 4, 6}, {1, 2}})
    ->UseRealTime()
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

/// One evaluation of the robot's Newton system (residual and Jacobian, NewtonSystem::evaluate)
/// after 1 s of swimming, n = first argument tails, on (second argument) threads: the part that
/// threads split, and their overhead (wall time; the CPU column counts the main thread only).
void BM_FlagellatedRobotEvaluate(benchmark::State& state) {
  using namespace tendril;
  const int tails = static_cast<int>(state.range(0));
  sim::Simulation sim = sim::Simulation::from_file(
      std::string(TENDRIL_SOURCE_DIR) + "/examples/flagellated_robot.yaml",
      {"flagellated_robot.tails=" + std::to_string(tails), "flagellated_robot.motor_rpm=100",
       "duration=1e6"});
  for (int k = 0; k < 100; ++k) sim.step();
  NewtonOptions options;
  options.threads = static_cast<int>(state.range(1));
  NewtonSystem system(sim.model(), options);
  const State& s = sim.state();
  const double dt = 0.01;
  const VecX predicted = s.q + dt * s.u;
  NewtonProblem problem{.inertia = 1.0 / (dt * dt),
                        .predicted = &predicted,
                        .velocity_scale = 1.0 / dt,
                        .velocity_origin = &s.q,
                        .time = s.time + dt,
                        .frames = &s.frames};
  const VecX y = predicted;
  for (auto _ : state) benchmark::DoNotOptimize(system.evaluate(problem, y, true));
  state.counters["nodes"] = sim.model().dofs.num_nodes;
}
BENCHMARK(BM_FlagellatedRobotEvaluate)
    ->ArgsProduct({{2, 6}, {1, 2}})
    ->UseRealTime()
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

/// dt = 0.01 s with chord_contraction = second argument / 1000 (0: every iteration factorizes).
void BM_FlagellatedRobotChord(benchmark::State& state) {
  simulated_seconds(state, static_cast<int>(state.range(0)), 0.01,
                    1e-3 * static_cast<double>(state.range(1)));
}
BENCHMARK(BM_FlagellatedRobotChord)
    ->ArgsProduct({{2, 3}, {0, 10, 100}})
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

void BM_FlagellatedRobotLargerStep(benchmark::State& state) {
  simulated_seconds(state, static_cast<int>(state.range(0)),
                    1e-3 * static_cast<double>(state.range(1)));
}
BENCHMARK(BM_FlagellatedRobotLargerStep)
    ->ArgsProduct({{2, 3, 4, 6}, {20, 40}})
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
