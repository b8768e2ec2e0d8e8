#pragma once
/// LU factorization on general band storage (no pivoting), after the same reverse Cuthill-McKee
/// permutation as BandedLdltSolver, for Newton matrices that are not symmetric (a ForceTerm with
/// has_symmetric_jacobian() == false: drag, RFT, friction, gyroscopic forces). The pattern is
/// structurally symmetric (SparsityBuilder stores both triangles), so the permuted matrix has the
/// same bandwidth b above and below the diagonal. Cost n b^2 per factorization, twice the LDL^T.
/// Algorithm: right-looking band LU without pivoting, Golub & Van Loan, Matrix Computations, 4th ed.,
/// sec. 4.3.5 (band Gaussian elimination), in panels of kPanel columns on wide bands (sec. 3.2.11, block
/// outer-product elimination): each panel updates the columns after it by one rank-kPanel update.
/// Without pivoting the factors exist when every leading
/// principal minor is non-singular; a Newton matrix c_m M + K - dF/dq is dominated by its diagonal
/// at the time steps and loads Tendril runs, and a vanishing pivot is reported as singular (Newton
/// then shifts the diagonal, see NewtonSystem).

#include <cstddef>
#include <vector>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

class BandedLuSolver final : public LinearSolver {
 public:
  std::string_view name() const override { return "banded_lu"; }
  void analyze(const SparseMatrix& pattern) override;
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) override;
  void solve(const VecX& b, VecX& x) override;

  int bandwidth() const { return b_; }

 private:
  int n_ = 0;
  static constexpr int kPanel = 4;  ///< columns eliminated together on a wide band (the rank of each trailing update)
  /// Narrower bands take panels of one column: a rod's (b ~ 11) has many zeros of U that the single-column
  /// update skips, and panels measured 1.6 times slower there (bench_integrate, factorize_benchmark<BandedLuSolver>)
  static constexpr int kPanelMinBandwidth = 24;
  int b_ = 0;                 ///< bandwidth after permutation (above and below the diagonal)
  int panel_ = 1;             ///< kPanel or 1 (kPanelMinBandwidth)
  int diagonal_offset_ = 0;   ///< b + panel_ - 1: a column's band entries have panel_ - 1 zeros above and below
  int stride_ = 0;            ///< 2 diagonal_offset_ + 1 entries per column
  std::vector<int> order_;    ///< new -> old (#rows)
  std::vector<int> entry_;    ///< every stored entry of A (#entries)
  std::vector<int> slot_;     ///< its band index (#entries)
  /// column-major band: column j holds A(j - b .. j + b, j) at offsets panel_ - 1 .. panel_ - 1 + 2b between
  /// zeros (the padding a panel's update reads), i.e. U above and at diagonal_offset_ (the diagonal), the
  /// unit-lower L below it after factorization (n x stride_)
  std::vector<double> band_;
  /// column(c)[s] = the entry of row s in column c's storage (c - diagonal_offset_ <= s <= c + diagonal_offset_)
  double* column(int c) { return band_.data() + static_cast<std::ptrdiff_t>(c) * stride_ + diagonal_offset_ - c; }
  std::vector<double> diagonal_;  ///< |A_jj| before elimination, the pivots' own scales (n)
  VecX y_;                    ///< permuted right-hand side / solution (n)
};

}  // namespace tendril
