#include "tendril/integrate/linear_solver.hpp"

#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/banded_lu_solver.hpp"
#include "tendril/integrate/reverse_cuthill_mckee.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"
#include "tendril/integrate/sparse_lu_solver.hpp"

namespace tendril {

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const SparseMatrix& pattern,
                                                 int banded_max_bandwidth, bool symmetric) {
  std::unique_ptr<LinearSolver> solver;
  if (kind == LinearSolverKind::automatic) {
    const int bandwidth = permuted_bandwidth(pattern, reverse_cuthill_mckee(pattern));
    kind = bandwidth <= banded_max_bandwidth ? LinearSolverKind::banded_ldlt : LinearSolverKind::sparse_ldlt;
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
