// One implicit Euler step (dt 1e-2 s) of shell scenes (issue 10; py-dismech reference on this class of
// machine: ~42 ms per step with hinge bending and ~112 ms with mid-edge bending at 451 nodes):
// - the 451-node shell cantilever (a 0.1 m x 0.025 m plate strip, h 2 mm, E 10 MPa, nu 0.3, rho 1200 kg/m^3,
//   41 x 11 nodes, right pattern, clamped by its first two columns, gravity) per bending model, timed over
//   steps 11.. of its fall from rest (after 10 untimed steps);
// - the parachute (examples/parachute.yaml: 103 nodes, rods and a shell, aerodynamic drag), after 0.5 s.
// Counters: nodes, newton_iterations per step. Results and commands: docs/performance.md.
#include <string>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "support/timed_steps.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

/// Times steps of `sim` after `warmup` untimed steps; one benchmark iteration is one step.
void time_steps(benchmark::State& state, tendril::sim::Simulation& sim, int warmup) {
  for (int k = 0; k < warmup; ++k) sim.step();
  const double newton_iterations = tendril::bench::timed_steps(state, sim, 1);
  state.counters["nodes"] = sim.model().dofs.num_nodes;
  state.counters["dofs"] = sim.model().dofs.size();
  state.counters["newton_iterations"] = newton_iterations;
}

void BM_ShellCantileverStep(benchmark::State& state) {
  const std::string bending = state.range(0) == 0 ? "hinge" : "midedge";
  const std::string scene = R"(duration: 1.0e6
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.025, nodes_x: 41, nodes_y: 11, pattern: right}
    material: {E: 1.0e7, nu: 0.3, density: 1200, thickness: 0.002}
    clamp: {side: x_min, rows: 2}
    bending: )" + bending + R"(
forces: {gravity: [0, 0, -9.81]}
integrator: {type: implicit_euler, dt: 1.0e-2}
)";
  tendril::sim::Simulation sim(tendril::sim::load_rod_scene_text(scene, {}, "shell cantilever"));
  time_steps(state, sim, 10);
}
BENCHMARK(BM_ShellCantileverStep)
    ->ArgName("midedge")
    ->Arg(0)
    ->Arg(1)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

void BM_ParachuteStep(benchmark::State& state) {
  tendril::sim::Simulation sim = tendril::sim::Simulation::from_file(
      std::string(TENDRIL_SOURCE_DIR) + "/examples/parachute.yaml", {"duration=1e6"});
  time_steps(state, sim, 50);
}
BENCHMARK(BM_ParachuteStep)->ComputeStatistics("min", tendril::bench::fastest)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
