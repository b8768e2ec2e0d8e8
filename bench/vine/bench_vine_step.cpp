// One step of the vine paper's runtime scene (Fig. 4, 5: growth at 40 mm/s in total into a circle)
// at 10 ... 1000 bodies. Each benchmark iteration is one VineStepper::step; the state runs through
// the 400-step (4 s) trajectory of the paper and restarts (untimed) at its end, so the time is the
// mean over the trajectory, like the paper's "average runtime per timestep" (3.0 ms at 30 bodies).
// Scaling with the number of bodies n (tests/support/vine_paper_scenes.hpp): BM_VineRuntimeStep
// keeps the bodies (d = 6.67 mm) and lengthens the robot, with the circle kept ahead of the tip;
// BM_VineRuntimeStepFixedLength is the authors' script (0.4 m robot, d = 0.2 m / n). Per-body
// mass, inertia, K and C are the paper's in both. BM_VineRuntimeStepBodyContact: contact along the
// bodies; BM_VineObstacles: 10, 100, 1000 obstacles (broad phase). Results:
// docs/performance.md#vine-robot.
#include <cmath>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "support/vine_paper_scenes.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace {

using namespace tendril::vine;
using tendril::testing::runtime_scene_model;
using tendril::testing::RuntimeScaling;

void run_model(benchmark::State& bench, const VineModel& model) {
  const int bodies = model.num_bodies;
  VineStepper stepper(model);
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
  bench.counters["real_time_factor"] = benchmark::Counter(
      stepper.model().dt * static_cast<double>(bench.iterations()), benchmark::Counter::kIsRate);
}
void run_steps(benchmark::State& bench, RuntimeScaling scaling) {
  run_model(bench, runtime_scene_model(static_cast<int>(bench.range(0)), scaling));
}
void BM_VineRuntimeStep(benchmark::State& bench) {
  run_steps(bench, RuntimeScaling::fixed_body_size);
}
void BM_VineRuntimeStepFixedLength(benchmark::State& bench) {
  run_steps(bench, RuntimeScaling::fixed_total_length);
}

/// The runtime scene with contact along the bodies (ContactModel::body) instead of the paper's
/// points.
void BM_VineRuntimeStepBodyContact(benchmark::State& bench) {
  VineModel m = runtime_scene_model(static_cast<int>(bench.range(0)));
  m.contact_model = ContactModel::body;
  run_model(bench, m);
}

/// The 30-body runtime scene with body contact and range(0) obstacles in all: its circle plus
/// circles of radius 10 mm on a square grid over 4 m x 4 m around the robot, leaving out a band
/// |y| < 0.15 m along its path (the trajectory is that of the scene; the far obstacles only cost).
void BM_VineObstacles(benchmark::State& bench) {
  VineModel m = runtime_scene_model(30);
  m.contact_model = ContactModel::body;
  const int extra = static_cast<int>(bench.range(0)) - 1;
  const int side = static_cast<int>(std::ceil(std::sqrt(extra / 0.9)));
  for (int i = 0; static_cast<int>(m.obstacles.size()) <= extra && i < side * side; ++i) {
    const tendril::Vec2 c(-2.0 + 4.0 * (i % side + 0.5) / side,
                          -2.0 + 4.0 * (i / side + 0.5) / side);
    if (std::abs(c.y()) >= 0.15) m.obstacles.push_back(make_circle(c, 0.01));
  }
  bench.counters["obstacles"] = static_cast<double>(m.obstacles.size());
  run_model(bench, m);
}

/// The sizes, 10 to 1000 bodies, with the fastest repetition reported.
void runtime_sizes(benchmark::internal::Benchmark* b) {
  for (int bodies : {10, 30, 70, 100, 300, 1000}) b->Arg(bodies);
  b->ComputeStatistics("min", tendril::bench::fastest)->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_VineRuntimeStep)->Apply(runtime_sizes);
BENCHMARK(BM_VineRuntimeStepFixedLength)->Apply(runtime_sizes);
BENCHMARK(BM_VineRuntimeStepBodyContact)
    ->Arg(30)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VineObstacles)
    ->Arg(10)
    ->Arg(100)
    ->Arg(1000)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
