#pragma once
/// Symmetric linear solvers behind one small interface: analyze a fixed sparsity pattern once,
/// then factorize and solve every Newton iteration without allocating. Factorization reports the
/// inertia it saw (negative / near-zero pivots) so Newton can shift indefinite matrices.

#include <memory>
#include <string_view>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"
#include "tendril/integrate/options.hpp"

namespace tendril {

/// What an LDL^T factorization found.
struct Factorization {
  enum class Status {
    positive_definite,  ///< every pivot > 0
    indefinite,         ///< some pivots < 0, none near zero: the factors are usable
    singular,           ///< a pivot |d_i| <= tolerance * max|A_jj|: the factors are not usable
  };
  Status status = Status::positive_definite;
  int negative_pivots = 0;
};

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  virtual std::string_view name() const = 0;
  /// Symbolic analysis of a symmetric pattern (both triangles stored); done once per topology.
  virtual void analyze(const SparseMatrix& pattern) = 0;
  /// Numeric LDL^T of A (same pattern as analyzed). singular_tolerance: see Factorization.
  virtual Factorization factorize(const SparseMatrix& A, double singular_tolerance) = 0;
  /// x = A^{-1} b with the last factorization (x and b may not alias).
  virtual void solve(const VecX& b, VecX& x) = 0;
};

/// The solver of `kind` for `pattern`, already analyzed. automatic chooses the banded solver when
/// the reverse Cuthill-McKee bandwidth is at most banded_max_bandwidth.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const SparseMatrix& pattern,
                                                 int banded_max_bandwidth);

}  // namespace tendril
