#pragma once
/// LU factorization on variable-band (envelope) storage (no pivoting), after the same reverse
/// Cuthill-McKee permutation as BandedLdltSolver, for Newton matrices that are not symmetric (a
/// ForceTerm with has_symmetric_jacobian() == false: drag, RFT, friction, gyroscopic forces). The
/// pattern is structurally symmetric (SparsityBuilder stores both triangles). Column j stores rows
/// top(j) .. last(j): last(j) is the last row of a stored entry in columns 0 .. j or in rows 0 .. j
/// (a staircase, raised to the panel's last column), top(j) the first row whose last(.) reaches j;
/// the factors fill exactly this envelope (George & Liu, Computer Solution of Large Sparse Positive
/// Definite Systems, 1981, ch. 4, for the symmetric case; without pivoting L takes the lower and U
/// the upper profile of A). Cost sum_j h_j^2 multiply-adds for heights h_j = last(j) - j, at most n
/// b^2 for bandwidth b: on a rod the envelope follows the stencils (h ~ 10) where one stiff hub
/// (the flagellated robot's head, b = 18) sets the bandwidth of the whole band. Algorithm:
/// right-looking band LU without pivoting, Golub & Van Loan, Matrix Computations, 4th ed.,
/// sec. 4.3.5 (band Gaussian elimination), in panels of kPanel columns on wide bands (sec. 3.2.11,
/// block outer-product elimination): each panel updates the columns after it by one rank-kPanel
/// update. Without pivoting the factors exist when every leading principal minor is non-singular; a
/// Newton matrix c_m M + K - dF/dq is dominated by its diagonal at the time steps and loads Tendril
/// runs, and a vanishing pivot is reported as singular (Newton then shifts the diagonal, see
/// NewtonSystem).

#include <cstddef>
#include <vector>

#include "tendril/integrate/envelope_solver.hpp"

namespace tendril {

class BandedLuSolver final : public EnvelopeSolver {
 public:
  std::string_view name() const override { return "banded_lu"; }
  void analyze(const SparseMatrix& pattern) override;
  void solve(const VecX& b, VecX& x) override;

  int bandwidth() const { return b_; }
  /// Multiply-adds of one factorization over the envelope, sum_j h_j^2, h_j = last(j) - j (from
  /// analyze()).
  double multiply_adds() const { return multiply_adds_; }

 private:
  int n_ = 0;
  static constexpr int kPanel =
      4;  ///< columns eliminated together on a wide band (the rank of each trailing update)
  /// Narrower bands take panels of one column: on a rod's band (b ~ 11) panels measured 1.6 times
  /// slower (bench_integrate, factorize_benchmark<BandedLuSolver>, on band storage before the
  /// envelope's)
  static constexpr int kPanelMinBandwidth = 24;
  int b_ = 0;      ///< bandwidth after permutation (above and below the diagonal)
  int panel_ = 1;  ///< kPanel or 1 (kPanelMinBandwidth)
  double multiply_adds_ = 0.0;
  std::vector<int> order_;  ///< new -> old (#rows)
  std::vector<int> top_;    ///< the first row stored in column j (#rows)
  std::vector<int> last_;   ///< the last row stored in column j, non-decreasing in j and equal
                            ///< within a panel (#rows)
  std::vector<std::ptrdiff_t> offset_;  ///< where column j starts in band_ (#rows + 1)
  // band_ (EnvelopeSolver): the columns one after the other, column j holds A(top(j) .. last(j),
  // j), i.e. U above and on the diagonal, the unit-lower L below it after factorization
  // (offset_[n])
  /// column(c)[s] = the entry of row s in column c's storage (top(c) <= s <= last(c))
  double* column(int c) {
    return band_.data() + offset_[static_cast<std::size_t>(c)] - top_[static_cast<std::size_t>(c)];
  }
  std::vector<double>
      inverse_pivot_;  ///< |A_jj| before elimination (the pivots' own scales), then 1 / U_jj (n)
  VecX y_;             ///< permuted right-hand side / solution (n)
  /// LU of the values in band_ (loaded by load_)
  Factorization eliminate(double singular_tolerance) override;
};

}  // namespace tendril
