#pragma once
/// LU factorization without pivoting after an approximate minimum degree (AMD) ordering, for
/// non-symmetric Newton matrices with a structurally symmetric pattern whose reverse Cuthill-McKee
/// band is wide although the true fill is small: rod networks joined at hubs (the legged robot's
/// nine limbs at one body node), where any band runs across all limbs at once while AMD eliminates
/// each limb from its free end towards the hub, with (nearly) no fill. Without pivoting the factors
/// of a structurally symmetric A = L U have the pattern of the Cholesky factor of A's pattern: L's
/// (lower) and U's transpose (upper) patterns are those of the symbolic Cholesky factor, found once
/// in analyze() from the elimination tree (row j of L is the reach of A(0 .. j - 1, j) in the tree;
/// Davis, Direct Methods for Sparse Linear Systems, SIAM 2006, sec. 4.1-4.2 and 6.1). The numeric
/// factorization is left-looking by columns (Davis, sec. 6.2, without the pivot search): column j
/// of A is scattered into a dense work vector, updated by the earlier columns k with U(k, j) != 0
/// in increasing k (a supernode's columns together: a rod node's positions and twist), and gathered
/// into U(:, j) and L(:, j); its work follows the fill,
/// sum over columns of (entries of L below the diagonal) x (entries of U above it). As for
/// BandedLuSolver, the factors exist when every leading principal minor is non-singular (a Newton
/// matrix c_m M + K - dF/dq is dominated by its diagonal at Tendril's time steps) and a vanishing
/// pivot is reported as singular against its own row's diagonal.

#include <span>
#include <vector>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

class AmdLuSolver final : public LinearSolver {
 public:
  std::string_view name() const override { return "amd_lu"; }
  void analyze(const SparseMatrix& pattern) override;
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) override;
  void solve(const VecX& b, VecX& x) override;
  bool read_through(std::span<const int> map) override;
  Factorization factorize_through(const double* values, double singular_tolerance) override;

  /// Multiply-adds of one numeric factorization (after analyze): for each column k, its entries of
  /// L below the diagonal times (its entries of U right of the diagonal + 1), the updates and the
  /// scaling.
  double multiply_adds() const { return multiply_adds_; }
  /// Stored entries of L, U and the pivots (after analyze): the storage estimate the automatic
  /// choice compares with a banded LU's.
  double factor_entries() const { return static_cast<double>(l_row_.size() + u_row_.size() + n_); }

 private:
  /// LU of A with A's value k at values[from[k]] (from: the identity's stand-in `entry_` or the
  /// composed map `through_`)
  Factorization eliminate(const double* values, const std::vector<int>& from,
                          double singular_tolerance);

  /// Column j's updates by the supernode columns k .. m (consecutive in U(:, j)): stores U(k .. m,
  /// j) in u and subtracts L(:, c) U(c, j) from the dense column w
  void update_by_supernode(double* __restrict w, int k, int m, double* u);

  int n_ = 0;
  std::vector<int> order_;  ///< new -> old (#rows)
  /// A's stored entries by permuted column: column j's are a_begin_[j] .. a_begin_[j + 1] - 1, each
  /// with its value index in A (entry_) and its permuted row (a_row_)
  std::vector<int> a_begin_, a_row_, entry_;
  std::vector<int> through_;   ///< map[entry_[e]] after read_through(map), else empty
  std::vector<int> diagonal_;  ///< index into entry_ of A(j, j) in permuted column j, or -1 (n)
  /// L by columns, unit diagonal not stored: column k's rows l_row_[l_begin_[k] .. l_begin_[k + 1])
  /// (increasing, all > k) and values l_
  std::vector<int> l_begin_, l_row_;
  std::vector<double> l_;
  /// U by columns, diagonal apart: column j's rows u_row_[u_begin_[j] .. u_begin_[j + 1])
  /// (increasing, all < j; the pattern of row j of L) and values u_
  std::vector<int> u_begin_, u_row_;
  std::vector<double> u_;
  std::vector<int> supernode_end_;  ///< the last column of column k's supernode (n)
  std::vector<double> pivot_;       ///< U(j, j) (n)
  std::vector<double> work_;        ///< dense column, zero between columns (n)
  VecX y_;                          ///< permuted right-hand side / solution (n)
  double multiply_adds_ = 0.0;
};

}  // namespace tendril
