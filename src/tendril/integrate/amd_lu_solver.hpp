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
/// of A is scattered into a dense work array, updated by the earlier columns k with U(k, j) != 0
/// in increasing k, and gathered into U(:, j) and L(:, j). Columns go in panels of up to four
/// consecutive columns of one supernode (a rod node's positions and twist), one per lane of a
/// LanePack (core/lane_pack.hpp): each earlier supernode's columns update the panel's four columns
/// at once, four multiply-adds per loaded entry of L (Davis sec. 9.1, supernodal left-looking; a
/// column's entries of U that are structurally zero stay exactly zero in its lane). The work
/// follows the fill,
/// sum over columns of (entries of L below the diagonal) x (entries of U above it). As for
/// BandedLuSolver, the factors exist when every leading principal minor is non-singular (a Newton
/// matrix c_m M + K - dF/dq is dominated by its diagonal at Tendril's time steps) and a vanishing
/// pivot is reported as singular against its own row's diagonal.

#include <algorithm>
#include <span>
#include <vector>

#include "tendril/core/lane_pack.hpp"
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

  /// The updates of the panel's columns (the lanes of work_) by the supernode columns k .. m before
  /// it: rows k .. m of work_ hold U(k .. m, panel) after it, and L(:, c) U(c, panel) is subtracted
  /// from the rows below
  void update_by_run(int k, int m);
  /// The panels and their runs (analyze(), after the supernodes)
  void find_panels();
  /// A's entries' places in work_ (a_work_) and the panels' blocks of U (after find_panels)
  void lay_out_panels();
  /// The last column of run r of the panel starting at j0: its supernode's end or j0 - 1
  int run_last(int r, int j0) const { return std::min(supernode_end_[run_first_[r]], j0 - 1); }
  /// The panel's own columns j0 .. j0 + w - 1 after the earlier ones' updates: pivots, L's columns,
  /// and the updates of each column by the panel's columns before it, the rows below the panel row
  /// by row (each row's columns one after the other, then the row zeroed in work_, also after a
  /// refusal); false when a pivot is refused
  bool eliminate_panel(int j0, int w, const double* own, double max_diagonal,
                       double singular_tolerance, Factorization& result);
  /// Moves the panel's rows of U from work_ into its block of u_blocks_ (its own rows j0 .. end,
  /// then its runs' columns) and zeroes them in work_ (eliminate_panel zeroes the rows below)
  void keep_panel(std::size_t panel, int j0, int end);
  /// The solve's two substitutions on the permuted right-hand side y_, panel by panel: each
  /// panel's columns update a row of y_ one after the other, in the order of a substitution column
  /// by column, loading and storing the row once
  void forward_substitution();
  void backward_substitution();

  int n_ = 0;
  std::vector<int> order_;  ///< new -> old (#rows)
  /// A's stored entries by permuted column: column j's are a_begin_[j] .. a_begin_[j + 1] - 1, each
  /// with its value index in A (entry_), its permuted row (a_row_) and its place in work_'s doubles
  /// while its panel is eliminated (a_work_: 4 a_row_ + its column's lane)
  std::vector<int> a_begin_, a_row_, entry_, a_work_;
  std::vector<int> through_;   ///< map[entry_[e]] after read_through(map), else empty
  std::vector<int> diagonal_;  ///< index into entry_ of A(j, j) in permuted column j, or -1 (n)
  /// L by columns, unit diagonal not stored: column k's rows l_row_[l_begin_[k] .. l_begin_[k + 1])
  /// (increasing, all > k) and values l_
  std::vector<int> l_begin_, l_row_;
  std::vector<double> l_;
  /// U's pattern by columns, diagonal apart: column j's rows u_row_[u_begin_[j] .. u_begin_[j + 1])
  /// (increasing, all < j; the pattern of row j of L)
  std::vector<int> u_begin_, u_row_;
  /// U's values by panels: panel p's rows (its own columns, then its runs' columns, as keep_panel
  /// stores them) from u_block_begin_[p], each a pack of the panel's columns (lane t column j0 + t;
  /// structural zeros of U exactly zero)
  std::vector<int> u_block_begin_;
  std::vector<LanePack> u_blocks_;
  std::vector<int> supernode_end_;  ///< the last column of column k's supernode (n)
  /// panels: up to four consecutive columns of one supernode, the p-th from panel_start_[p] to
  /// panel_start_[p + 1] - 1; its runs of earlier columns that update it, one per supernode, start
  /// at run_first_[run_begin_[p] .. run_begin_[p + 1]) (increasing) and end at the supernode's end
  /// or the panel's start
  std::vector<int> panel_start_, run_begin_, run_first_;
  std::vector<double> inverse_pivot_;  ///< 1 / U(j, j) (n)
  std::vector<LanePack> work_;  ///< row r of the panel's columns, lane t column j0 + t (n); zero
                                ///< between panels
  VecX y_;                      ///< permuted right-hand side / solution (n)
  double multiply_adds_ = 0.0;
};

}  // namespace tendril
