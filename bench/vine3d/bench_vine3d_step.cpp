// One step of the 3D vine (src/tendril/vine3d): a vine of 10 ... 100 bodies of the paper's size
// (d = 6.67 mm, D = 24 mm, 1 g, K = 0.05 N m/rad) growing at 40 mm/s into a helix (rest bends
// about both axes; no gravity, as the paper's runtime scene on its table), implicit springs at the
// paper's dt = 1/90 s; each iteration is one Vine3dStepper::step over a 400-step trajectory that
// restarts (untimed) at its end. BM_Vine3dStepObstacles: 30 bodies with 1, 10, 100 spheres beside
// the path (the pairs out of reach get no rows: the QP does not grow with the obstacle count).
// BM_Vine3dStepClutter: 30 bodies growing on a floor under gravity (frictionless, whole-body
// contact) between posts (cylinders of radius 5 mm on a 6 cm lattice, the N nearest to the path's
// middle, N = 10, 100, 1000): the vine touches the floor all along and the posts it bends into;
// the obstacle grid gives each body only its neighbours, so the step's cost depends on the posts
// near the vine, not on N.
// The `/iterations:400` variants run exactly one trajectory (400 steps) on a new stepper, so that
// instruction counts (valgrind --tool=callgrind ... --benchmark_filter='Clutter/100/iterations')
// average the same steps whatever the host's speed; the timed variants average over as many
// trajectories as fit in the minimum time.
#include <algorithm>

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

Vine3dModel cluttered_vine(int posts) {
  Vine3dModel m = growing_vine(30, 0);
  m.base_frame = Quat::Identity();                       // along x, between two rows of posts
  m.rest_bend.assign(m.num_bending(), Vec2(0.0, 0.03));  // curls in the floor's plane
  m.base = Vec3(0.0, 0.0, m.contact_radius);
  m.gravity = Vec3(0.0, 0.0, -9.81);
  m.obstacles.push_back(make_half_space(Vec3::Zero(), Vec3::UnitZ()));
  std::vector<Vec3> lattice;
  const double spacing = 0.06;
  for (int i = -20; i <= 20; ++i)
    for (int j = -20; j <= 20; ++j)
      lattice.emplace_back(0.2 + spacing * (i + 0.5), spacing * (j + 0.5), 0.05);
  std::sort(lattice.begin(), lattice.end(), [](const Vec3& a, const Vec3& b) {
    return (a - Vec3(0.2, 0.0, 0.05)).norm() < (b - Vec3(0.2, 0.0, 0.05)).norm();
  });
  for (int k = 0; k < posts; ++k)
    m.obstacles.push_back(make_cylinder(lattice[k], Vec3::UnitZ(), 0.005, 0.05));
  return m;
}

void run_model(benchmark::State& bench, const Vine3dModel& model) {
  Vine3dStepper stepper(model);
  const Vine3dState start = straight_state(model, 0.0);
  Vine3dState state = start;
  int step = 0;
  long failures = 0, contacts = 0, iterations = 0, steps = 0;
  for (auto _ : bench) {
    if (step == 400) {
      bench.PauseTiming();
      state = start;
      step = 0;
      bench.ResumeTiming();
    }
    const Vine3dStepReport report = stepper.step(state);
    failures += !report.ok();
    contacts += report.active_contacts;
    iterations += report.qp_iterations;
    benchmark::DoNotOptimize(state.velocity.data());
    ++step;
    ++steps;
  }
  bench.counters["bodies"] = model.num_bodies;
  bench.counters["failed_steps"] = static_cast<double>(failures);
  bench.counters["active_contacts"] = static_cast<double>(contacts) / std::max(steps, 1L);
  bench.counters["qp_iterations"] = static_cast<double>(iterations) / std::max(steps, 1L);
}

void BM_Vine3dStep(benchmark::State& bench) {
  run_model(bench, growing_vine(static_cast<int>(bench.range(0)), 0));
}
void BM_Vine3dStepObstacles(benchmark::State& bench) {
  run_model(bench, growing_vine(30, static_cast<int>(bench.range(0))));
}

void BM_Vine3dStepClutter(benchmark::State& bench) {
  run_model(bench, cluttered_vine(static_cast<int>(bench.range(0))));
}

}  // namespace

BENCHMARK(BM_Vine3dStepClutter)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Vine3dStep)->Arg(10)->Arg(30)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Vine3dStepObstacles)->Arg(1)->Arg(10)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Vine3dStepClutter)->Arg(10)->Arg(100)->Arg(1000)->Iterations(400);
BENCHMARK(BM_Vine3dStep)->Arg(30)->Iterations(400);
BENCHMARK(BM_Vine3dStepObstacles)->Arg(100)->Iterations(400);
BENCHMARK_MAIN();
