#include "tendril/integrate/linear_solver.hpp"

#include <algorithm>

#include "tendril/core/error.hpp"

#include "tendril/integrate/amd_lu_solver.hpp"
#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/banded_lu_solver.hpp"
#include "tendril/integrate/reverse_cuthill_mckee.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"
#include "tendril/integrate/sparse_lu_solver.hpp"

namespace tendril {
namespace {

/// How many times faster the banded (envelope) LDL^T is per multiply-add than the simplicial sparse
/// one: contiguous, vectorized rank-4 panel updates against indirect scalar updates. Measured on
/// the shell cantilever's Newton matrices (bench_shell_step, BM_ShellCantileverFactorize;
/// docs/performance.md, "Shells"): 4.6-4.9 G multiply-adds/s banded against 1.2-1.3 sparse,
/// about 3.8; 3.5 leans towards the sparse solver, whose memory stays linear in the DOFs on any
/// mesh.
constexpr double kBandedSpeedup = 3.5;
/// How many times faster the banded LU is per multiply-add than AmdLuSolver (updates through a row
/// index, scatter and gather of each column). Measured with callgrind on the legged robot
/// (examples/legged_robot.yaml, 0.6 s, 668 factorizations): the banded LU 2.38 M instructions per
/// factorization (loading included) for 3.01 M multiply-adds, 0.79 each; AmdLuSolver 0.95 M for
/// 87.7 k, 10.9 each: 13.8.
constexpr double kBandedLuOverAmdLu = 14.0;
/// For a symmetric system the automatic choice takes the band only when it stores at most this many
/// times the entries of the sparse L: the band's speed per multiply-add is worth up to that much
/// memory. Each entry costs about 12 bytes in either solver (the band's value and its index in the
/// fill list that zeroes it before each load; L's value and row index). The band of a 2D mesh grows
/// as N^1.5 (its width follows the nodes across) and the sparse fill about as N log N, so the ratio
/// grows with the mesh: on square hinge-shell plates of k x k nodes (right pattern, two columns
/// clamped) it is 1.2 at k = 30, 1.4 at 60, 2.0 at 150 (1.996) and 2.6 at 300, where the band
/// (3.2e8 entries, about 3.9 GB) would not fit in 4 GB and the sparse L (1.25e8) does. Measured at
/// k = 150 (static solve, peak RSS, loaded machine): band 0.86 GB and 37 s, sparse 0.59 GB and 249
/// s; docs/limits.md, "Memory at scale".
constexpr double kBandedMemory = 2.0;
/// For a non-symmetric system the automatic choice takes the banded LU only when it stores at most
/// this many times the entries of AmdLuSolver's L and U: its speed per multiply-add (14 times
/// AmdLuSolver's, against the banded LDL^T's 3.8 over the sparse one) is worth more memory than the
/// LDL^T's. On k x k plates of 3 DOFs per node coupled to their 8 neighbours the ratio is 1.8 at k
/// = 20, 2.5 at 40, 3.5 at 80, 4.8 at 120, 5.7 at 200 (where the work alone still takes the band,
/// 1.9e8 entries against 3.4e7) and 8.9 at 300
/// (LinearSolvers.AutomaticChoiceWeighsTheLuBandsMemory).
constexpr double kBandedLuMemory = 4.0;

}  // namespace

Factorization LinearSolver::factorize_through(const double*, double) {
  TENDRIL_ASSERT(false, "factorize_through() on a solver without read_through()");
  return {};
}

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
    const std::vector<int> order = reverse_cuthill_mckee(pattern);
    const int bandwidth = permuted_bandwidth(pattern, order);
    kind = LinearSolverKind::banded_ldlt;
    if (bandwidth > banded_max_bandwidth && !symmetric) {
      // the envelope LU against the LU along AMD's fill, in work (sum_j h_j^2 against sum_k c_k
      // (c_k + 1), the envelope's from its LDL^T count sum_j h_j (h_j + 1) / 2) and in storage (L
      // and U: twice the envelope's LDL^T entries less the diagonal, against AMD's L, U and pivots)
      auto amd = std::make_unique<AmdLuSolver>();
      amd->analyze(pattern);
      const EnvelopeSize band = envelope_size(permuted_envelope(pattern, order));
      const bool faster = 2.0 * band.multiply_adds <= kBandedLuOverAmdLu * amd->multiply_adds();
      const bool small = 2.0 * band.entries - static_cast<double>(pattern.rows()) <=
                         kBandedLuMemory * amd->factor_entries();
      if (!(faster && small)) return amd;
      kind = LinearSolverKind::banded_lu;
    } else if (bandwidth > banded_max_bandwidth) {
      // a wider band may still be cheaper than the sparse factorization, in time and in memory; the
      // band's size comes from its envelope, before any of it is allocated, and the sparse solver
      // is freed before a banded one is analyzed
      auto sparse = std::make_unique<SparseLdltSolver>();
      sparse->analyze(pattern);
      const EnvelopeSize band = envelope_size(permuted_envelope(pattern, order));
      const bool faster = band.multiply_adds <= kBandedSpeedup * sparse->multiply_adds();
      const bool small = band.entries <= kBandedMemory * sparse->factor_entries();
      if (!(faster && small)) return sparse;
    }
  }
  if (!symmetric && kind == LinearSolverKind::banded_ldlt) kind = LinearSolverKind::banded_lu;
  if (!symmetric && kind == LinearSolverKind::sparse_ldlt) kind = LinearSolverKind::sparse_lu;
  switch (kind) {
    case LinearSolverKind::banded_ldlt:
      solver = std::make_unique<BandedLdltSolver>();
      break;
    case LinearSolverKind::banded_lu:
      solver = std::make_unique<BandedLuSolver>();
      break;
    case LinearSolverKind::sparse_lu:
      solver = std::make_unique<SparseLuSolver>();
      break;
    default:
      solver = std::make_unique<SparseLdltSolver>();
      break;
  }
  solver->analyze(pattern);
  return solver;
}

}  // namespace tendril
