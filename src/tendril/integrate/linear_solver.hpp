#pragma once
/// Linear solvers behind one small interface: analyze a fixed sparsity pattern once, then factorize
/// and solve every Newton iteration without allocating. The LDL^T solvers read one triangle of a
/// symmetric matrix and report the inertia they saw (negative / near-zero pivots) so Newton can
/// shift indefinite matrices; the LU solvers read the whole matrix (non-symmetric Jacobians) and
/// report only near-zero pivots.

#include <cmath>
#include <memory>
#include <span>
#include <string_view>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"
#include "tendril/integrate/options.hpp"

namespace tendril {

/// What a factorization found.
struct Factorization {
  enum class Status {
    positive_definite,  ///< every pivot > 0
    indefinite,         ///< some pivots < 0, none near zero: the factors are usable
    singular,  ///< a pivot |d_i| <= tolerance * |A_ii| (its row's own diagonal): the factors are
               ///< not usable
    general,   ///< an LU without near-zero pivots: usable, inertia unknown
  };
  Status status = Status::positive_definite;
  int negative_pivots = 0;
};

/// The pivot test of the LDL^T and banded LU factorizations: false (result marked singular) when
/// |d| <= tolerance times the pivot's own row diagonal |A_jj| (`own`; the largest diagonal
/// `max_diagonal` when that is zero); a negative pivot is counted in result.negative_pivots.
inline bool accept_pivot(double d, double own, double max_diagonal, double tolerance,
                         Factorization& result) {
  const double scale = own > 0.0 ? own : max_diagonal;
  if (!(std::abs(d) > tolerance * scale)) {
    result.status = Factorization::Status::singular;
    return false;
  }
  if (d < 0.0) ++result.negative_pivots;
  return true;
}

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  virtual std::string_view name() const = 0;
  /// Symbolic analysis of a structurally symmetric pattern (both triangles stored); done once per
  /// pattern.
  virtual void analyze(const SparseMatrix& pattern) = 0;
  /// Numeric LDL^T or LU of A (same pattern as analyzed). A pivot counts as zero when it is at most
  /// singular_tolerance times the magnitude of its row's own diagonal entry in A (the largest
  /// diagonal if that is zero): how much of the row's stiffness survived the elimination,
  /// independent of how stiff other rows are (a near-rigid part next to soft ones, twists next to
  /// positions).
  virtual Factorization factorize(const SparseMatrix& A, double singular_tolerance) = 0;
  /// x = A^{-1} b with the last factorization (x and b may not alias).
  virtual void solve(const VecX& b, VecX& x) = 0;
  /// Lets factorize_through() read the analyzed pattern's value k at values[map[k]], in a larger
  /// matrix that holds A (the Newton system's full Jacobian, whose free DOFs' rows and columns are
  /// A), so the caller need not copy A out of it. False when the solver cannot (then
  /// factorize_through() must not be called). map has one entry per stored entry of the analyzed
  /// pattern.
  virtual bool read_through(std::span<const int> /*map*/) { return false; }
  /// factorize() of A with A's value k at values[map[k]] (read_through()'s map).
  virtual Factorization factorize_through(const double* values, double singular_tolerance);
};

/// Multiply-adds of a banded LDL^T of n rows with bandwidth b: sum_j c_j (c_j + 1) / 2, c_j =
/// min(b, n - 1 - j).
double banded_multiply_adds(int n, int bandwidth);

/// The solver of `kind` for `pattern`, already analyzed. automatic chooses a banded solver when the
/// reverse Cuthill-McKee bandwidth is at most banded_max_bandwidth. Above it, for a symmetric
/// system, the banded LDL^T when it is both faster and not much larger than the sparse one with AMD
/// ordering: the banded (envelope) LDL^T's multiply-adds at most 3.5 times those of the sparse
/// LDL^T (the banded one does about 3.8 times more of them per second), and the envelope's entries
/// (counted from the ordering, before any storage is allocated) at most twice those of the sparse
/// L, else the sparse LDL^T (and the band is never allocated); for a non-symmetric one the banded
/// LU when the envelope's multiply-adds are at most 14 times those of the LU along AMD's fill
/// (AmdLuSolver, about 14 times slower per multiply-add) and its L and U at most 4 times
/// AmdLuSolver's entries, else AmdLuSolver: rod networks joined at hubs, whose band runs across all
/// limbs while AMD leaves (nearly) no fill, and large 2D meshes, whose band grows as N^1.5. When
/// `symmetric` is false (some ForceTerm has a non-symmetric Jacobian) the LDL^T kinds are replaced
/// by the LU of the same structure (banded_ldlt -> banded_lu, sparse_ldlt -> sparse_lu): one
/// triangle would not describe the matrix.
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind, const SparseMatrix& pattern,
                                                 int banded_max_bandwidth, bool symmetric);

}  // namespace tendril
