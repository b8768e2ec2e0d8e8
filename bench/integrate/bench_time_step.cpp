// One implicit step of the cantilever (L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52, nu 0.5,
// clamped: nodes 0, 1 and twist 0 fixed; gravity; 3D; dt 1e-3) with each linear solver, and the
// factorization alone. Counters: Newton iterations per step and time per node per iteration.
// The non-symmetric path (LU and residual-norm merit) on the same rod, and one pattern re-analysis.
#include <memory>

#include <benchmark/benchmark.h>

#include "support/benchmark_rod.hpp"
#include "support/free_newton_matrix.hpp"
#include "tendril/forces/custom_force.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/banded_lu_solver.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"
#include "tendril/integrate/sparse_lu_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril {
namespace {

struct Cantilever {
  Model model;
  State state;
};

Cantilever cantilever(int num_nodes) {
  Cantilever c{bench::benchmark_rod_model(num_nodes), {}};
  c.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  for (int d = 0; d < 6; ++d) c.model.fixed[d] = 1;
  c.model.fixed[c.model.dofs.twist(0)] = 1;
  c.state.q = rest_configuration(c.model);
  c.state.u = VecX::Zero(c.state.q.size());
  initialize_frames(c.model, c.state.q, c.state.frames);
  return c;
}

/// A force that is zero with a zero Jacobian declared non-symmetric: the model then takes the
/// non-symmetric path (LU, residual-norm merit) with the same iterates' physics.
std::shared_ptr<const ForceTerm> zero_general_force() {
  return std::make_shared<CustomForce>(
      "zero", [](const VecX&, const VecX&, double, VecX&) {}, std::vector<std::vector<int>>{{0}},
      [](const VecX&, const VecX&, double, JacobianSink&) {}, CustomForce::Symmetry::general);
}

void step_benchmark(benchmark::State& bm, Scheme scheme, LinearSolverKind solver,
                    bool non_symmetric = false) {
  const int num_nodes = static_cast<int>(bm.range(0));
  Cantilever c = cantilever(num_nodes);
  if (non_symmetric) c.model.forces.push_back(zero_general_force());
  DynamicsOptions options;
  options.scheme = scheme;
  options.dt = 1e-3;
  options.newton.linear_solver = solver;
  TimeStepper stepper(c.model, options, c.state.q);
  // start from a swinging state, not from rest
  for (int k = 0; k < 20; ++k) stepper.step(c.state);
  long iterations = 0, steps = 0;
  for (auto _ : bm) {
    const StepReport report = stepper.step(c.state);
    if (!report.ok()) bm.SkipWithError(report.message.c_str());
    iterations += report.iterations;
    ++steps;
  }
  bm.counters["newton_per_step"] = static_cast<double>(iterations) / static_cast<double>(steps);
  bm.counters["s_per_node_iter"] =
      benchmark::Counter(static_cast<double>(iterations) * num_nodes,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_EulerStepBanded(benchmark::State& bm) {
  step_benchmark(bm, Scheme::implicit_euler, LinearSolverKind::banded_ldlt);
}
void BM_EulerStepSparse(benchmark::State& bm) {
  step_benchmark(bm, Scheme::implicit_euler, LinearSolverKind::sparse_ldlt);
}
void BM_MidpointStepBanded(benchmark::State& bm) {
  step_benchmark(bm, Scheme::implicit_midpoint, LinearSolverKind::banded_ldlt);
}
void BM_EulerStepBandedLu(benchmark::State& bm) {
  step_benchmark(bm, Scheme::implicit_euler, LinearSolverKind::banded_ldlt, true);
}
void BM_EulerStepSparseLu(benchmark::State& bm) {
  step_benchmark(bm, Scheme::implicit_euler, LinearSolverKind::sparse_ldlt, true);
}
BENCHMARK(BM_EulerStepBandedLu)->Arg(101)->Arg(1601)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EulerStepSparseLu)->Arg(101)->Arg(1601)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EulerStepBanded)
    ->Arg(26)
    ->Arg(101)
    ->Arg(401)
    ->Arg(1601)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EulerStepSparse)
    ->Arg(26)
    ->Arg(101)
    ->Arg(401)
    ->Arg(1601)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MidpointStepBanded)->Arg(101)->Unit(benchmark::kMicrosecond);

/// Factorize + solve of the free-DOF Newton matrix of the cantilever at rest.
template <class Solver>
void factorize_benchmark(benchmark::State& bm) {
  Cantilever c = cantilever(static_cast<int>(bm.range(0)));
  bench::time_factorizations<Solver>(
      bm, bench::free_newton_matrix(c.model, NewtonOptions{}, c.state.q, c.state.frames, 1e6));
}
BENCHMARK_TEMPLATE(factorize_benchmark, BandedLdltSolver)
    ->Arg(101)
    ->Arg(1601)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(factorize_benchmark, SparseLdltSolver)
    ->Arg(101)
    ->Arg(1601)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(factorize_benchmark, BandedLuSolver)
    ->Arg(101)
    ->Arg(1601)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(factorize_benchmark, SparseLuSolver)
    ->Arg(101)
    ->Arg(1601)
    ->Unit(benchmark::kMicrosecond);

/// A term whose stencil set "changes" at every update (it declares nothing): each update_stencils
/// re-analyses the whole pattern (terms' declare_sparsity, free pattern, gather map, RCM ordering,
/// bandwidth, symbolic analysis).
class AlwaysChanged final : public ForceTerm {
 public:
  std::string_view name() const override { return "always_changed"; }
  bool has_symmetric_jacobian() const override { return true; }
  void declare_sparsity(const Model&, SparsityBuilder&) const override {}
  void accumulate(const EvalInput&, ForceOutput&) const override {}
  bool update_stencils(const Model&, const State&, TermWorkspace*) const override { return true; }
};

void BM_PatternReanalysis(benchmark::State& bm) {
  Cantilever c = cantilever(static_cast<int>(bm.range(0)));
  c.model.forces.push_back(std::make_shared<AlwaysChanged>());
  NewtonSystem system(c.model, NewtonOptions{});
  for (auto _ : bm) benchmark::DoNotOptimize(system.update_stencils(c.state));
}
BENCHMARK(BM_PatternReanalysis)->Arg(101)->Arg(1601)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tendril

BENCHMARK_MAIN();
