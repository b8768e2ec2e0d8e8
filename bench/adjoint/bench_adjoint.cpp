// The cost of a gradient of a whole run (forward + adjoint backward pass) against the forward run
// alone, on the 101-node cantilever under gravity (clamped, implicit Euler, dt 1e-3, 100
// steps), with three parameters (E, rho, a uniform natural curvature) and the initial velocities.
// Arguments: the checkpoint interval m of the gradient (1: every state stored; 10: every tenth,
// the others recomputed). Issue 25's target: gradient at most 3 times the forward run. Further
// runs (m = 1): the cantilever under the midpoint rule, its static equilibrium followed by the 100
// steps under a growing tip load, the 101-node rod sliding on the ground (contact and friction: an
// LU of the transpose) with rho, k_c and mu, and a mid-edge shell strip with E, rho and the
// thickness (a cubic: four residual evaluations per step).
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "support/benchmark_rod.hpp"
#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/run_gradient.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/shell_builder.hpp"

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
  adjoint::GradientOptions gradient;
};

Run cantilever_run() {
  Run run{bench::benchmark_rod_model(kNodes), {}, {}, {}, {}, {}};
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

Run midpoint_run() {
  Run run = cantilever_run();
  run.options.scheme = Scheme::implicit_midpoint;
  return run;
}

/// The cantilever's static equilibrium under gravity, then the 100 steps under a tip load that
/// grows from zero, F(t) = (0, 20 t, -50 t) N.
Run static_start_run() {
  Run run = cantilever_run();
  run.gradient.static_start = StaticOptions{};
  run.model.forces.push_back(std::make_shared<PointLoad>(
      kNodes - 1, [](double t) { return Vec3(0.0, 20.0 * t, -50.0 * t); }));
  return run;
}

/// The 101-node rod, free, on the ground (nodes at height r), sliding at 0.5 m/s along x: node
/// contact k_c 1e3 N/m and friction mu 0.4.
Run sliding_run() {
  Run run{bench::benchmark_rod_model(kNodes), {}, {}, {}, {}, {}};
  Model& model = run.model;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  run.initial.q = rest_configuration(model);
  run.initial.u = VecX::Zero(model.dofs.size());
  contact::ContactNodes nodes;
  for (int i = 0; i < kNodes; ++i) {
    nodes.nodes.push_back(i);
    nodes.radius.push_back(5e-3);
    run.initial.q[model.dofs.node(i) + 2] = 5e-3;
    run.initial.u[model.dofs.node(i)] = 0.5;
  }
  initialize_frames(model, run.initial.q, run.initial.frames);
  const contact::ContactParameters params{.stiffness = 1e3, .friction = 0.4};
  const auto ground = std::make_shared<contact::HalfSpace>(Vec3::Zero(), Vec3::UnitZ());
  model.energies.push_back(std::make_shared<contact::ObstacleContact>(ground, nodes, params));
  model.forces.push_back(std::make_shared<contact::ObstacleFriction>(ground, nodes, params));
  run.options.dt = 1e-3;
  run.objective = adjoint::position_time_integral(model, kNodes - 1, Vec3::UnitX(), 1e-3);
  run.parameters = {adjoint::density(model, 1273.52),
                    adjoint::contact_stiffness(model, model.energies.size() - 1, 0),
                    adjoint::friction_coefficient(model, model.energies.size() - 1, 0)};
  return run;
}

/// A 0.2 m x 0.05 m mid-edge strip (21 x 5 nodes; E 2e7 Pa, nu 0.3, rho 1000 kg/m^3, h 4 mm)
/// clamped at x = 0, under gravity.
Run shell_run() {
  const io::TriangleMesh mesh = io::rectangle_mesh(0.2, 0.05, 21, 5, io::MeshPattern::alternating);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {
      .youngs_modulus = 2e7, .poisson_ratio = 0.3, .density = 1000.0, .thickness = 4e-3};
  Run run{build_shell_model(mesh.nodes, {input}), {}, {}, {}, {}, {}};
  Model& model = run.model;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    if (mesh.nodes[static_cast<std::size_t>(i)].x() < 0.011)
      for (int d = 0; d < 3; ++d) model.fixed[static_cast<std::size_t>(3 * i + d)] = 1;
  run.initial.q = rest_configuration(model);
  run.initial.u = VecX::Zero(model.dofs.size());
  initialize_frames(model, run.initial.q, run.initial.frames);
  run.options.dt = 1e-3;
  run.objective = adjoint::position_time_integral(model, 20, Vec3::UnitZ(), 1e-3);
  run.parameters = {adjoint::youngs_modulus(model, 2e7), adjoint::density(model, 1000.0),
                    adjoint::shell_thickness(model, 4e-3)};
  return run;
}

void BM_Forward(benchmark::State& state, Run (*make)()) {
  const Run run = make();
  for (auto _ : state)
    benchmark::DoNotOptimize(adjoint::run_objective(run.model, run.options, run.initial, kSteps,
                                                    run.objective, run.parameters, run.gradient));
}

void BM_Gradient(benchmark::State& state, Run (*make)()) {
  const Run run = make();
  for (auto _ : state) {
    const adjoint::RunGradient g = adjoint::run_with_gradient(
        run.model, run.options, run.initial, kSteps, run.objective, run.parameters, run.gradient);
    if (!g.ok) state.SkipWithError(g.message.c_str());
    benchmark::DoNotOptimize(g.parameters.data());
  }
}

BENCHMARK_CAPTURE(BM_Forward, midpoint, midpoint_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gradient, midpoint, midpoint_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Forward, static_start, static_start_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gradient, static_start, static_start_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Forward, sliding, sliding_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gradient, sliding, sliding_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Forward, shell, shell_run)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gradient, shell, shell_run)->Unit(benchmark::kMillisecond);

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
