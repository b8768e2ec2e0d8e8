#pragma once
/// LDL^T factorization on symmetric band storage (no pivoting), after a reverse Cuthill-McKee
/// permutation computed once in analyze(). Cost n b^2 / 2 per factorization for bandwidth b
/// (b ~ 10 for a single rod with interleaved DOFs). Algorithm: right-looking (outer-product)
/// LDL^T on column-major band storage, Golub & Van Loan, Matrix Computations, 4th ed., sec. 4.1
/// (LDL^T) and 4.3 (band Cholesky): the trailing updates are independent axpys, so the loops
/// vectorize instead of waiting on the latency of a running sum. The columns are eliminated in panels
/// of kPanel (G&VL sec. 3.2.11, block outer-product elimination): each panel updates the columns after it
/// by one rank-kPanel update, which loads and stores each entry once per panel instead of once per column.

#include <vector>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

class BandedLdltSolver final : public LinearSolver {
 public:
  std::string_view name() const override { return "banded_ldlt"; }
  void analyze(const SparseMatrix& pattern) override;
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) override;
  void solve(const VecX& b, VecX& x) override;

  int bandwidth() const { return b_; }

 private:
  int n_ = 0;
  static constexpr int kPanel = 4;  ///< columns eliminated together (the rank of each trailing update)
  int b_ = 0;                  ///< bandwidth after permutation
  int stride_ = 0;             ///< b + kPanel: a column's band entries, then kPanel - 1 zeros (padding)
  std::vector<int> order_;     ///< new -> old (#rows)
  std::vector<int> entry_;     ///< stored entries of A on or below the permuted diagonal (#lower entries)
  std::vector<int> slot_;      ///< their band index (#lower entries)
  /// column-major lower band: column j holds D(j), L(j+1 .. j+b, j), then zeros (n x stride_), so a panel's
  /// rank-kPanel update reads every column of the panel over the same rows
  std::vector<double> band_;
  std::vector<double> inverse_pivot_;  ///< 1 / D(i) (n)
  std::vector<double> work_;   ///< t_q[r] = L(j+r, j) d_j of the panel's columns j = j0 + q (kPanel x stride_)
  VecX y_;                     ///< permuted right-hand side / solution (n)
};

}  // namespace tendril
