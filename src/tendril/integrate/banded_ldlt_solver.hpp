#pragma once
/// LDL^T factorization on symmetric band storage (no pivoting), after a reverse Cuthill-McKee
/// permutation computed once in analyze(). Cost n b^2 / 2 per factorization for bandwidth b
/// (b ~ 10 for a single rod with interleaved DOFs). Algorithm: right-looking (outer-product)
/// LDL^T on column-major band storage, Golub & Van Loan, Matrix Computations, 4th ed., sec. 4.1
/// (LDL^T) and 4.3 (band Cholesky): the trailing updates are independent axpys, so the loops
/// vectorize instead of waiting on the latency of a running sum.

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
  int b_ = 0;                  ///< bandwidth after permutation
  std::vector<int> order_;     ///< new -> old (#rows)
  std::vector<int> entry_;     ///< stored entries of A on or below the permuted diagonal (#lower entries)
  std::vector<int> slot_;      ///< their band index (#lower entries)
  std::vector<double> band_;   ///< column-major lower band: column j holds D(j), L(j+1 .. j+b, j) (n x (b+1))
  std::vector<double> inverse_pivot_;  ///< 1 / D(i) (n)
  std::vector<double> work_;   ///< w_r = L(j+r, j) d_j of the column being eliminated (b+1)
  VecX y_;                     ///< permuted right-hand side / solution (n)
};

}  // namespace tendril
