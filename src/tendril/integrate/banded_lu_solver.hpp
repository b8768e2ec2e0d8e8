#pragma once
/// LU factorization on general band storage (no pivoting), after the same reverse Cuthill-McKee
/// permutation as BandedLdltSolver, for Newton matrices that are not symmetric (a ForceTerm with
/// has_symmetric_jacobian() == false: drag, RFT, friction, gyroscopic forces). The pattern is
/// structurally symmetric (SparsityBuilder stores both triangles), so the permuted matrix has the
/// same bandwidth b above and below the diagonal. Cost n b^2 per factorization, twice the LDL^T.
/// Algorithm: right-looking band LU without pivoting, Golub & Van Loan, Matrix Computations, 4th ed.,
/// sec. 4.3.5 (band Gaussian elimination). Without pivoting the factors exist when every leading
/// principal minor is non-singular; a Newton matrix c_m M + K - dF/dq is dominated by its diagonal
/// at the time steps and loads Tendril runs, and a vanishing pivot is reported as singular (Newton
/// then shifts the diagonal, see NewtonSystem).

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
  int b_ = 0;                 ///< bandwidth after permutation (above and below the diagonal)
  std::vector<int> order_;    ///< new -> old (#rows)
  std::vector<int> entry_;    ///< every stored entry of A (#entries)
  std::vector<int> slot_;     ///< its band index (#entries)
  /// column-major band: column j holds A(j - b .. j + b, j) at offsets 0 .. 2b, i.e. U above and at
  /// offset b (the diagonal), the unit-lower L below it after factorization (n x (2b + 1))
  std::vector<double> band_;
  std::vector<double> diagonal_;  ///< |A_jj| before elimination, the pivots' own scales (n)
  VecX y_;                    ///< permuted right-hand side / solution (n)
};

}  // namespace tendril
