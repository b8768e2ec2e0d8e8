// One step of the 3D vine (src/tendril/vine3d): a vine of 10 ... 100 bodies of the paper's size
// (d = 6.67 mm, D = 24 mm, 1 g, K = 0.05 N m/rad) growing at 40 mm/s into a helix (rest bends
// about both axes; no gravity, as the paper's runtime scene on its table), implicit springs at the
// paper's dt = 1/90 s; each iteration is one Vine3dStepper::step over a 400-step trajectory that
// restarts (untimed) at its end. BM_Vine3dStepObstacles: 30 bodies with 1, 10, 100 spheres beside
// the path (the pairs out of reach get no rows: the QP does not grow with the obstacle count).
#include <benchmark/benchmark.h>

#include "tendril/vine3d/vine3d_stepper.hpp"

namespace {

using namespace tendril;
using namespace tendril::vine3d;

Vine3dModel growing_vine(int bodies, int spheres) {
  UniformVine3dParameters p;
  p.bodies = bodies;
  p.half_length = 0.2 / 30;
  p.mass = 1e-3;
  p.stiffness = 0.05;
  p.damping = 5e-4;
  p.dt = 1.0 / 90.0;
  Vine3dModel m = uniform_vine3d(p);
  m.springs = SpringIntegration::implicit;
  m.base_frame = rotation_exp(Vec3(0.3, -0.2, 0.1));
  m.rest_bend.assign(m.num_bending(), Vec2(0.02, 0.03));
  m.growth = GrowthSchedule::constant(0.04);
  for (int k = 0; k < spheres; ++k)
    m.obstacles.push_back(make_sphere(Vec3(0.02 * k, 0.3, 0.0), 0.005));
  return m;
}

void run_model(benchmark::State& bench, const Vine3dModel& model) {
  Vine3dStepper stepper(model);
  const Vine3dState start = straight_state(model, 0.0);
  Vine3dState state = start;
  int step = 0;
  long failures = 0;
  for (auto _ : bench) {
    if (step == 400) {
      bench.PauseTiming();
      state = start;
      step = 0;
      bench.ResumeTiming();
    }
    failures += !stepper.step(state).ok();
    benchmark::DoNotOptimize(state.velocity.data());
    ++step;
  }
  bench.counters["bodies"] = model.num_bodies;
  bench.counters["failed_steps"] = static_cast<double>(failures);
}

void BM_Vine3dStep(benchmark::State& bench) {
  run_model(bench, growing_vine(static_cast<int>(bench.range(0)), 0));
}
void BM_Vine3dStepObstacles(benchmark::State& bench) {
  run_model(bench, growing_vine(30, static_cast<int>(bench.range(0))));
}

}  // namespace

BENCHMARK(BM_Vine3dStep)->Arg(10)->Arg(30)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Vine3dStepObstacles)->Arg(1)->Arg(10)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
