// One step of the vine paper's runtime scene (Fig. 4, 5: growth at 40 mm/s in total into a circle)
// at 10 ... 1000 bodies. Each benchmark iteration is one VineStepper::step; the state runs through
// the 400-step (4 s) trajectory of the paper and restarts (untimed) at its end, so the time is the
// mean over the trajectory, like the paper's "average runtime per timestep" (3.0 ms at 30 bodies).
// Scaling with the number of bodies n (tendril/vine/paper_scenes.hpp): BM_VineRuntimeStep keeps
// the bodies (d = 6.67 mm) and lengthens the robot, with the circle kept ahead of the tip;
// BM_VineRuntimeStepFixedLength is the authors' script (0.4 m robot, d = 0.2 m / n). Per-body
// mass, inertia, K and C are the paper's in both. Results: docs/performance.md#vine-robot.
#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "tendril/vine/paper_scenes.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace {

using namespace tendril::vine;

void run_steps(benchmark::State& bench, RuntimeScaling scaling) {
  const int bodies = static_cast<int>(bench.range(0));
  VineStepper stepper(runtime_scene_model(bodies, scaling));
  const VineState start = straight_state(stepper.model(), 0.0);
  VineState state = start;
  int step = 0;
  long failures = 0;
  for (auto _ : bench) {
    if (step == 400) {
      bench.PauseTiming();
      state = start;
      step = 0;
      bench.ResumeTiming();
    }
    const VineStepReport report = stepper.step(state);
    if (report.status != tendril::vine::QpStatus::solved) ++failures;
    benchmark::DoNotOptimize(state.q.data());
    ++step;
  }
  bench.counters["bodies"] = bodies;
  bench.counters["failed_steps"] = static_cast<double>(failures);
  bench.counters["real_time_factor"] =
      benchmark::Counter(stepper.model().dt * static_cast<double>(bench.iterations()), benchmark::Counter::kIsRate);
}
void BM_VineRuntimeStep(benchmark::State& bench) { run_steps(bench, RuntimeScaling::fixed_body_size); }
void BM_VineRuntimeStepFixedLength(benchmark::State& bench) { run_steps(bench, RuntimeScaling::fixed_total_length); }

/// The sizes, 10 to 1000 bodies, with the fastest repetition reported.
void runtime_sizes(benchmark::internal::Benchmark* b) {
  for (int bodies : {10, 30, 70, 100, 300, 1000}) b->Arg(bodies);
  b->ComputeStatistics("min", tendril::bench::fastest)->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_VineRuntimeStep)->Apply(runtime_sizes);
BENCHMARK(BM_VineRuntimeStepFixedLength)->Apply(runtime_sizes);

}  // namespace

BENCHMARK_MAIN();
