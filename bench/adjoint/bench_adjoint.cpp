// The cost of a gradient of a whole run (forward + adjoint backward pass) against the forward run
// alone, on the 101-node cantilever under gravity (clamped, implicit Euler, dt 1e-3, 100
// steps), with three parameters (E, rho, a uniform natural curvature) and the initial velocities.
// Arguments: the checkpoint interval m of the gradient (1: every state stored; 10: every tenth,
// the others recomputed). Issue 25's target: gradient at most 3 times the forward run.
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "support/benchmark_rod.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace {

using namespace tendril;

constexpr int kNodes = 101;
constexpr int kSteps = 100;

struct Run {
  Model model;
  State initial;
  DynamicsOptions options;
  adjoint::Objective objective;
  std::vector<adjoint::Parameter> parameters;
};

Run cantilever_run() {
  Run run{bench::benchmark_rod_model(kNodes), {}, {}, {}, {}};
  Model& model = run.model;
  for (int d = 0; d < 6; ++d) model.fixed[d] = 1;
  model.fixed[model.dofs.twist(0)] = 1;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  run.initial.q = rest_configuration(model);
  run.initial.u = VecX::Zero(model.dofs.size());
  initialize_frames(model, run.initial.q, run.initial.frames);
  run.options.dt = 1e-3;
  run.objective = adjoint::sum(
      {adjoint::distance_to_targets(model, {{kNodes - 1, kSteps, Vec3(0.9, 0.0, -0.2)}}),
       adjoint::position_time_integral(model, kNodes - 1, Vec3::UnitZ(), run.options.dt)});
  run.parameters = {adjoint::youngs_modulus(model, 1e7), adjoint::density(model, 1273.52),
                    adjoint::uniform_natural_curvature(0, 0.0)};
  return run;
}

void BM_CantileverForward(benchmark::State& state) {
  const Run run = cantilever_run();
  for (auto _ : state)
    benchmark::DoNotOptimize(adjoint::run_objective(run.model, run.options, run.initial, kSteps,
                                                    run.objective, run.parameters));
}
BENCHMARK(BM_CantileverForward)->Unit(benchmark::kMillisecond);

void BM_CantileverGradient(benchmark::State& state) {
  const Run run = cantilever_run();
  adjoint::GradientOptions gradient;
  gradient.checkpoint_interval = static_cast<int>(state.range(0));
  for (auto _ : state) {
    const adjoint::RunGradient g = adjoint::run_with_gradient(
        run.model, run.options, run.initial, kSteps, run.objective, run.parameters, gradient);
    if (!g.ok) state.SkipWithError(g.message.c_str());
    benchmark::DoNotOptimize(g.parameters.data());
  }
}
BENCHMARK(BM_CantileverGradient)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
