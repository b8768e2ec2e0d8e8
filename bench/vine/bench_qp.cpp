// Google Benchmark of the QP solver alone on vine-like chain QPs (tests/unit/qp/chain_qp.hpp):
// n = 3 x bodies variables, 2 x bodies joint equalities, `contacts` ground inequalities.
// Warm: consecutive problems along a slowly changing path (the vine step); cold: a new solver each
// time.

#include <benchmark/benchmark.h>

#include <vector>

#include "tendril/qp/qp_solver.hpp"
#include "unit/qp/chain_qp.hpp"

namespace {

using tendril::qp::QpProblem;
using tendril::qp::QpSolver;

constexpr int kPathLength = 64;

std::vector<QpProblem> path(int bodies) {
  std::vector<QpProblem> problems;
  for (int k = 0; k < kPathLength; ++k)
    problems.push_back(tendril::qp::test::chain_qp(bodies, 6, 0.02 * k));
  return problems;
}

void BM_QpChainWarm(benchmark::State& state) {
  const std::vector<QpProblem> problems = path(static_cast<int>(state.range(0)));
  QpSolver solver;
  tendril::qp::QpSolution solution;
  int k = 0;
  double iterations = 0.0;
  for (auto _ : state) {
    solver.solve(problems[k], solution);
    iterations += solution.iterations;
    benchmark::DoNotOptimize(solution.x.data());
    k = (k + 1) % kPathLength;
  }
  state.counters["n"] = 3.0 * static_cast<double>(state.range(0));
  state.counters["iterations"] = benchmark::Counter(iterations, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_QpChainWarm)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);

void BM_QpChainCold(benchmark::State& state) {
  const std::vector<QpProblem> problems = path(static_cast<int>(state.range(0)));
  int k = 0;
  for (auto _ : state) {
    QpSolver solver;
    const auto solution = solver.solve(problems[k]);
    benchmark::DoNotOptimize(solution.x.data());
    k = (k + 1) % kPathLength;
  }
  state.counters["n"] = 3.0 * static_cast<double>(state.range(0));
}
BENCHMARK(BM_QpChainCold)->Arg(30)->Arg(300)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
