#include "tendril/integrate/linear_solver.hpp"

#include "tendril/integrate/banded_ldlt_solver.hpp"
#include "tendril/integrate/reverse_cuthill_mckee.hpp"
#include "tendril/integrate/sparse_ldlt_solver.hpp"

namespace tendril {

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const SparseMatrix& pattern,
                                                 int banded_max_bandwidth) {
  std::unique_ptr<LinearSolver> solver;
  if (kind == LinearSolverKind::automatic) {
    const int bandwidth = permuted_bandwidth(pattern, reverse_cuthill_mckee(pattern));
    kind = bandwidth <= banded_max_bandwidth ? LinearSolverKind::banded_ldlt : LinearSolverKind::sparse_ldlt;
  }
  if (kind == LinearSolverKind::banded_ldlt)
    solver = std::make_unique<BandedLdltSolver>();
  else
    solver = std::make_unique<SparseLdltSolver>();
  solver->analyze(pattern);
  return solver;
}

}  // namespace tendril
