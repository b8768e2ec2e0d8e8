#pragma once
/// LDL^T factorization on symmetric variable-band (envelope) storage (no pivoting), after a reverse
/// Cuthill-McKee permutation computed once in analyze(). Column j of L is stored from the diagonal
/// down to the envelope's last row, the largest row index of a stored entry in columns 0 .. j (a
/// staircase: the factor fills exactly this envelope; George & Liu, Computer Solution of Large
/// Sparse Positive Definite Systems, 1981, ch. 4). Cost sum_j h_j (h_j + 1) / 2 multiply-adds for
/// column heights h_j (at most n b^2 / 2 for bandwidth b; b ~ 10 for a single rod with interleaved
/// DOFs; on the shell cantilever the envelope is 0.6 times the band's work). Algorithm:
/// right-looking (outer-product) LDL^T, Golub & Van Loan, Matrix Computations, 4th ed., sec. 4.1
/// (LDL^T) and 4.3 (band Cholesky), in panels of kPanel columns (sec. 3.2.11, block outer-product
/// elimination): each panel updates the columns after it by one rank-kPanel update over contiguous
/// column storage, which the compiler vectorizes and which loads and stores each entry once per
/// panel instead of once per column. A narrow band (bandwidth b <= kMaxFixedBand: a rod) is stored
/// whole, b + 1 entries per column and b zero columns after the last, and eliminated column by
/// column with loops whose trip counts are constants (eliminate_band). A rod's band is a staircase
/// of node blocks (its three positions and the twist of the edge after it, b = 10): the four
/// columns of a block end at the same row, the band's last row of the block's first column, so
/// their heights are b, b - 1, b - 2, b - 3 and the elimination skips the zeros beyond them (41
/// instead of 55 multiply-adds per column at b = 10; the sums of every entry are the same).

#include <cstddef>
#include <vector>

#include "tendril/integrate/envelope_solver.hpp"

namespace tendril {

/// Work and storage of a banded (envelope) LDL^T whose permuted envelope is `last_row`
/// (permuted_envelope), known before any storage is allocated: h_j = last_row[j] - j entries below
/// the diagonal in column j.
struct EnvelopeSize {
  double multiply_adds = 0.0;  ///< sum_j h_j (h_j + 1) / 2
  double entries = 0.0;        ///< sum_j (h_j + 1): the stored entries of L and D (8 bytes each)
};
EnvelopeSize envelope_size(const std::vector<int>& last_row);

class BandedLdltSolver final : public EnvelopeSolver {
 public:
  std::string_view name() const override { return "banded_ldlt"; }
  void analyze(const SparseMatrix& pattern) override;
  void solve(const VecX& b, VecX& x) override;

  int bandwidth() const { return b_; }
  /// Multiply-adds of one factorization over the envelope, sum_j h_j (h_j + 1) / 2 (from
  /// analyze()).
  double multiply_adds() const { return multiply_adds_; }
  /// True if the band is a staircase of blocks of kBlock columns (a rod's; see the file comment).
  bool staircase() const { return stair_offset_ >= 0; }

 private:
  static constexpr int kPanel =
      4;  ///< columns eliminated together (the rank of each trailing update)
  static constexpr int kMaxFixedBand = 16;  ///< the widest band eliminate_band takes
  static constexpr int kBlock = 4;          ///< columns of a staircase block (a rod node's DOFs)
  /// column(j)[s] = the entry of row s in column j's storage (j <= s <= last_row_[j])
  double* column(int j) { return band_.data() + offset_[static_cast<std::size_t>(j)] - j; }

  int n_ = 0;
  int b_ = 0;  ///< bandwidth after permutation
  double multiply_adds_ = 0.0;
  std::vector<int> order_;  ///< new -> old (#rows)
  /// the last row stored in column j: the envelope's, raised to that of the last column of j's
  /// panel, so the panel's columns share their rows (#rows)
  std::vector<int> last_row_;
  std::vector<std::ptrdiff_t> offset_;  ///< where column j starts in band_ (#rows + 1)
  // band_ (EnvelopeSolver): the columns one after the other, column j holds D(j), then L(j + 1 ..
  // last_row_[j], j) (offset_[n])
  std::vector<double> inverse_pivot_;  ///< 1 / D(i) (n)
  std::vector<double>
      work_;  ///< t_q[s - j0] = L(s, j) d_j of the panel's columns j = j0 + q (kPanel x n)
  VecX y_;    ///< permuted right-hand side / solution (n)
  /// LDL^T of the values in band_ (loaded by load_)
  Factorization eliminate(double singular_tolerance) override;
  /// The same on band storage of bandwidth B == b_ (fixed_band_)
  template <int B>
  Factorization eliminate_band(double singular_tolerance, double max_diagonal);
  /// Eliminates column j of the band storage of bandwidth B, whose entries below row j + H are
  /// zero; false (result set) at an unacceptable pivot
  template <int B, int H>
  bool eliminate_column(int j, double singular_tolerance, double max_diagonal,
                        Factorization& result);
  /// eliminate_column for column j of a staircase (height B - its place in its block)
  template <int B>
  bool eliminate_stair(int j, double singular_tolerance, double max_diagonal,
                       Factorization& result);
  /// x = A^-1 b from the band storage of bandwidth B == b_ (fixed_band_; y_ holds B zeros past n)
  template <int B>
  void solve_band(const VecX& b, VecX& x);
  /// Row j (>= B) of the forward substitution, reaching S columns back (L z = P b into y_)
  template <int B, int S>
  void forward_row(int j, const VecX& b);
  /// Column j of the diagonal and backward substitution, whose entries below row j + H are zero
  /// (L^T x = D^-1 z in y_, x[order_[j]] set)
  template <int B, int H>
  void backward_column(int j, VecX& x);
  bool fixed_band_ = false;  ///< band storage: column j holds rows j .. j + b_ (zero past n)
  /// -1, or the band is a staircase whose blocks start at the columns j with (j + stair_offset_)
  /// % kBlock == 0: column j's envelope ends at most at row j - (j + stair_offset_) % kBlock + b_
  int stair_offset_ = -1;
};

}  // namespace tendril
