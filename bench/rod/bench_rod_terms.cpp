// Cost of the rod terms: one bend-twist stencil (energy, gradient, Hessian), DER kinematics, and
// the stretch + bend-twist assembly of a 101-node rod into its fixed sparsity pattern.
#include <cmath>
#include <memory>

#include <benchmark/benchmark.h>

#include "support/benchmark_rod.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/bend_twist.hpp"

namespace tendril {
namespace {

/// A 101-node cantilever-like rod (L 1 m, r 5 mm, E 1e7 Pa, nu 0.5, rho 1273.52), slightly bent.
Model benchmark_rod(int num_nodes, VecX& q, RodFrames& frames) {
  Model model = bench::benchmark_rod_model(num_nodes);
  q = rest_configuration(model);
  initialize_frames(model, q, frames);
  for (int i = 0; i < num_nodes; ++i) {
    const double s = static_cast<double>(i) / (num_nodes - 1);
    q[3 * i + 1] = 0.05 * s * s;
    q[3 * i + 2] = 0.02 * s * s * s;
  }
  for (int e = 0; e + 1 < num_nodes; ++e) q[model.dofs.twist(e)] = 0.01 * e;
  return model;
}

/// One bend-twist stencil (a single spring through the four-lane kernel): argument 1 with its
/// Hessian, 0 the energy and gradient only (the Newton evaluations without a Jacobian).
void BM_BendTwistStencil(benchmark::State& state) {
  VecX q;
  RodFrames frames;
  const Model model = benchmark_rod(101, q, frames);
  Kinematics kin;
  compute_kinematics(model, frames, q, kin);
  const BendTwistStencil stencil = oriented_stencil(model, kin, q, 50);
  VecN<11> g;
  MatN<11> h;
  MatN<11>* hessian = state.range(0) ? &h : nullptr;
  for (auto _ : state) {
    benchmark::DoNotOptimize(bend_twist_stencil(stencil, model.rods.springs[50], &g, hessian));
    benchmark::DoNotOptimize(g.data());
    benchmark::DoNotOptimize(h.data());
  }
}
BENCHMARK(BM_BendTwistStencil)->Arg(1)->Arg(0);

void BM_Kinematics(benchmark::State& state) {
  VecX q;
  RodFrames frames;
  const Model model = benchmark_rod(static_cast<int>(state.range(0)), q, frames);
  Kinematics kin;
  for (auto _ : state) {
    compute_kinematics(model, frames, q, kin);
    benchmark::DoNotOptimize(kin.reference_twist.data());
  }
  state.counters["per_node"] = benchmark::Counter(
      static_cast<double>(state.range(0)),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Kinematics)->Arg(101)->Arg(1601);

void BM_RodAssembly(benchmark::State& state) {
  VecX q;
  RodFrames frames;
  const Model model = benchmark_rod(static_cast<int>(state.range(0)), q, frames);
  SparsityBuilder pattern(model.dofs.size());
  for (const auto& term : model.energies) term->declare_sparsity(model, pattern);
  HessianAssembler hessian(pattern.build());
  VecX gradient(model.dofs.size());
  Kinematics kin;
  const VecX u = VecX::Zero(q.size());
  for (auto _ : state) {
    compute_kinematics(model, frames, q, kin);
    gradient.setZero();
    hessian.set_zero();
    EnergyOutput out;
    out.gradient = &gradient;
    out.hessian = &hessian;
    const EvalInput in{model, q, u, 0.0, kin};
    for (const auto& term : model.energies) term->accumulate(in, out);
    benchmark::DoNotOptimize(out.energy);
  }
  state.counters["per_node"] = benchmark::Counter(
      static_cast<double>(state.range(0)),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RodAssembly)->Arg(101)->Arg(1601);

}  // namespace
}  // namespace tendril

BENCHMARK_MAIN();
