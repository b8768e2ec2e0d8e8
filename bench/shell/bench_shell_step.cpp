// One implicit Euler step (dt 1e-2 s) of shell scenes (issue 10; py-dismech reference on this class
// of machine: ~42 ms per step with hinge bending and ~112 ms with mid-edge bending at 451 nodes):
// - the 451-node shell cantilever (a 0.1 m x 0.025 m plate strip, h 2 mm, E 10 MPa, nu 0.3, rho
// 1200 kg/m^3,
//   41 x 11 nodes, right pattern, clamped by its first two columns, gravity) per bending model and
//   Newton option set (kNewtonVariants), timed over steps 11 .. 60 of its fall from rest
//   (restarted, untimed, after them), and its factorization alone per linear solver;
// - the parachute (examples/parachute.yaml: 92 nodes, rods and a shell, aerodynamic drag), steps 51
// .. 100. Counters: nodes, dofs, newton_iterations per step. Results and commands:
// docs/performance.md.
#include <array>
#include <functional>
#include <string>

#include <benchmark/benchmark.h>

#include "support/free_newton_matrix.hpp"
#include "support/statistics.hpp"
#include "support/timed_steps.hpp"
#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"

namespace {

/// Times steps warmup + 1 .. warmup + window of the simulations `make` builds, one step per
/// benchmark iteration; each simulation is rebuilt and its first `warmup` steps are taken untimed,
/// so every variant times the same stretch of motion. Counters: nodes, dofs, newton_iterations per
/// step.
void time_window(benchmark::State& state, const std::function<tendril::sim::Simulation()>& make,
                 int warmup, int window) {
  const auto warmed = [&] {
    tendril::sim::Simulation sim = make();
    for (int k = 0; k < warmup; ++k) sim.step();
    state.counters["nodes"] = sim.model().dofs.num_nodes;
    state.counters["dofs"] = sim.model().dofs.size();
    return sim;
  };
  state.counters["newton_iterations"] = tendril::bench::restarted_steps(
      state, warmed,
      [&](const tendril::sim::Simulation& sim) { return sim.steps_taken() >= warmup + window; });
}

/// The 451-node shell cantilever with `bending` ("hinge" or "midedge") and the integrator options
/// `integrator` (YAML flow-mapping entries after type and dt, e.g. "newton: {...}"; empty: the
/// defaults).
tendril::sim::Simulation shell_cantilever(const std::string& bending,
                                          const std::string& integrator = "") {
  const std::string scene = R"(duration: 1.0e6
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.025, nodes_x: 41, nodes_y: 11, pattern: right}
    material: {E: 1.0e7, nu: 0.3, density: 1200, thickness: 0.002}
    clamp: {side: x_min, rows: 2}
    bending: )" + bending + R"(
forces: {gravity: [0, 0, -9.81]}
integrator: {type: implicit_euler, dt: 1.0e-2)" +
                            (integrator.empty() ? "" : ", " + integrator) + R"(}
)";
  return tendril::sim::Simulation(tendril::sim::load_rod_scene_text(scene, {}, "shell cantilever"));
}

std::string bending_model(const benchmark::State& state) {
  return state.range(0) == 0 ? "hinge" : "midedge";
}

/// The integrator options of BM_ShellCantileverStep's second argument (accuracy of each over 60
/// steps: bench/shell/accuracy.py, docs/performance.md "Shells"): 0 the defaults (residual at most
/// 1e-8 of the physical force scale, about 4e-11 N here), 1 chord steps
/// (docs/physics/time_integration.md, "Chord steps"), 2 and 3 an absolute residual tolerance of
/// 1e-5 N without and with chord steps, 4 py-dismech's own stopping rule with its test fixture's
/// tolerances and its initial guess q_k (the "equal accuracy" reference), 5 and 6 an absolute
/// tolerance of 5e-6 N without and with chord steps, 7 py-dismech's rule and tolerances from
/// Tendril's initial guess q_k + dt u_k (4 from q_k needs diagonal shifts on the mid-edge strip:
/// about 2 factorizations per iteration).
constexpr std::array<const char*, 8> kNewtonVariants = {
    "",
    "newton: {chord_contraction: 0.5}",
    "newton: {force_tolerance_abs: 1.0e-5}",
    "newton: {force_tolerance_abs: 1.0e-5, chord_contraction: 0.5}",
    "initial_guess: previous, newton: {stopping: dismech, max_iterations: 25}",
    "newton: {force_tolerance_abs: 5.0e-6}",
    "newton: {force_tolerance_abs: 5.0e-6, chord_contraction: 0.5}",
    "newton: {stopping: dismech, max_iterations: 25}"};

void BM_ShellCantileverStep(benchmark::State& state) {
  const std::string bending = bending_model(state);
  const std::string integrator = kNewtonVariants[static_cast<std::size_t>(state.range(1))];
  time_window(
      state, [&] { return shell_cantilever(bending, integrator); }, 10, 50);
}
BENCHMARK(BM_ShellCantileverStep)
    ->ArgNames({"midedge", "newton"})
    ->ArgsProduct({{0, 1}, {0, 1, 2, 3, 4, 5, 6, 7}})
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

/// One factorization and solve of the cantilever's Newton matrix (c_m = 1/dt^2) after 10 steps of
/// its fall, per linear solver: the kernels' speed per multiply-add (counter multiply_adds: the
/// solver's own estimate of its work).
template <class Solver>
void BM_ShellCantileverFactorize(benchmark::State& state) {
  tendril::sim::Simulation sim = shell_cantilever(bending_model(state));
  for (int k = 0; k < 10; ++k) sim.step();
  const double dt = sim.scene().dt;
  const tendril::SparseMatrix A = tendril::bench::free_newton_matrix(
      sim.model(), tendril::NewtonOptions{}, sim.state().q, sim.state().frames, 1.0 / (dt * dt));
  tendril::bench::time_factorizations<Solver>(state, A);
  Solver solver;
  solver.analyze(A);
  state.counters["multiply_adds"] = solver.multiply_adds();
  state.counters["dofs"] = static_cast<double>(A.rows());
}
void both_bending_models(benchmark::internal::Benchmark* b) {
  b->ArgName("midedge")
      ->Arg(0)
      ->Arg(1)
      ->ComputeStatistics("min", tendril::bench::fastest)
      ->Unit(benchmark::kMillisecond);
}
BENCHMARK_TEMPLATE(BM_ShellCantileverFactorize, tendril::BandedLdltSolver)
    ->Apply(both_bending_models);
BENCHMARK_TEMPLATE(BM_ShellCantileverFactorize, tendril::SparseLdltSolver)
    ->Apply(both_bending_models);

void BM_ParachuteStep(benchmark::State& state) {
  time_window(
      state,
      [] {
        return tendril::sim::Simulation::from_file(
            std::string(TENDRIL_SOURCE_DIR) + "/examples/parachute.yaml", {"duration=1e6"});
      },
      50, 50);
}
BENCHMARK(BM_ParachuteStep)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
