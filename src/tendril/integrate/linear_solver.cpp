#include "tendril/integrate/linear_solver.hpp"

#include <algorithm>

#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/banded_lu_solver.hpp"
#include "tendril/integrate/reverse_cuthill_mckee.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"
#include "tendril/integrate/sparse_lu_solver.hpp"

namespace tendril {
namespace {

/// How many times faster a banded factorization is per multiply-add than the simplicial sparse one:
/// contiguous, vectorized band columns against indirect scalar updates. Measured on the shell
/// cantilever of bench/shell/bench_shell_step.cpp (docs/performance.md, "Shells"): about 2.7; 2.5
/// leans towards the sparse solver, whose memory stays linear in the DOFs.
constexpr double kBandedSpeedup = 2.5;

}  // namespace

double banded_multiply_adds(int n, int bandwidth) {
  double sum = 0.0;
  for (int j = 0; j < n; ++j) {
    const double c = std::min(bandwidth, n - 1 - j);
    sum += 0.5 * c * (c + 1.0);
  }
  return sum;
}

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const SparseMatrix& pattern,
                                                 int banded_max_bandwidth, bool symmetric) {
  std::unique_ptr<LinearSolver> solver;
  if (kind == LinearSolverKind::automatic) {
    const int bandwidth = permuted_bandwidth(pattern, reverse_cuthill_mckee(pattern));
    kind = bandwidth <= banded_max_bandwidth ? LinearSolverKind::banded_ldlt : LinearSolverKind::sparse_ldlt;
    // a wider band may still be cheaper than the sparse LDL^T (the LU's are not weighed)
    if (kind == LinearSolverKind::sparse_ldlt && symmetric) {
      auto sparse = std::make_unique<SparseLdltSolver>();
      sparse->analyze(pattern);
      if (banded_multiply_adds(static_cast<int>(pattern.rows()), bandwidth) > kBandedSpeedup * sparse->multiply_adds())
        return sparse;  // analyzed already
      kind = LinearSolverKind::banded_ldlt;
    }
  }
  if (!symmetric && kind == LinearSolverKind::banded_ldlt) kind = LinearSolverKind::banded_lu;
  if (!symmetric && kind == LinearSolverKind::sparse_ldlt) kind = LinearSolverKind::sparse_lu;
  switch (kind) {
    case LinearSolverKind::banded_ldlt: solver = std::make_unique<BandedLdltSolver>(); break;
    case LinearSolverKind::banded_lu: solver = std::make_unique<BandedLuSolver>(); break;
    case LinearSolverKind::sparse_lu: solver = std::make_unique<SparseLuSolver>(); break;
    default: solver = std::make_unique<SparseLdltSolver>(); break;
  }
  solver->analyze(pattern);
  return solver;
}

}  // namespace tendril
