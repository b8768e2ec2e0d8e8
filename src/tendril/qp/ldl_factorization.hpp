#pragma once
/// Sparse LDL^T of a symmetric quasi-definite matrix with a fixed pattern (internal to tendril_qp).
///
/// Up-looking LDL^T (T. A. Davis, "Algorithm 849: A concise sparse Cholesky factorization package",
/// ACM TOMS 31(4), 2005). Ordering: the chain ordering (each group of primal unknowns coupled by P,
/// in index order, followed by the multiplier rows whose last group it is) when its factor has at
/// most kChainFill entries per entry of the matrix (a chain of bodies numbered along the chain:
/// block tridiagonal, no ordering work), else an approximate-minimum-degree ordering with the
/// primal unknowns first. Both eliminate every primal unknown a multiplier row is coupled to before
/// that row. The elimination tree, the
/// column counts of L, the row and column patterns of L and the permuted pattern are computed once
/// by analyse(); factorize() only does arithmetic (no allocation). Each pivot has a known sign (+
/// for primal, - for dual rows): a pivot d_k with the wrong sign or |d_k| <= relative_threshold r_k
/// is replaced by sign * relative_shift r_k (dynamic regularisation), so the factorisation always
/// exists and the caller's iterative refinement removes the perturbation. r_k = max(scale, m_k),
/// where m_k is the sum of the absolute values of the terms d_k is computed from: its rounding
/// error is ~ u m_k, so a pivot cancelled down to that noise (a row dependent on earlier rows, with
/// Schur complements ~ |A|^2 / rho) is treated as zero instead of being divided by
/// (docs/physics/qp_solver.md, "Sparse LDL^T").

#include <vector>

#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/types.hpp"

namespace tendril::qp {

class LdlFactorization {
 public:
  /// Pattern of the lower triangle `lower` (compressed, diagonal present) and the pivot signs (+1 /
  /// -1 per row).
  void analyse(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// Numeric factorisation of a matrix with the analysed pattern. Returns the number of replaced
  /// pivots, or -1 if a pivot is not finite (overflow; the factors are then unusable).
  int factorize(const SparseMatrix& lower, double scale, double relative_threshold,
                double relative_shift);
  /// Overwrites b with L^-T D^-1 L^-1 b in the original ordering.
  void solve_in_place(VecX& b);
  int size() const { return n_; }
  /// True if analyse() chose the chain ordering (else AMD).
  bool chain_ordered() const { return chain_ordered_; }
  /// Largest nnz(L) / nnz(lower) at which the chain ordering is kept [-]
  static constexpr int kChainFill = 4;

 private:
  /// perm_ = the chain ordering: per group of P-coupled primal unknowns (by first index) the group,
  /// then the multiplier rows whose last group it is.
  void chain_ordering(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// perm_ = AMD ordering of the pattern, primal unknowns first (stable partition).
  void amd_ordering(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// Permuted pattern, elimination tree and the patterns of L for perm_.
  void symbolic(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);

  int n_ = 0;
  bool chain_ordered_ = false;
  std::vector<int> perm_;     // new index -> original index (n)
  std::vector<int> cp_, ci_;  // permuted upper triangle, compressed columns (n + 1, nnz)
  std::vector<int>
      value_source_;  // index into the values of `lower` of each entry of the permuted matrix (nnz)
  std::vector<signed char> sign_;            // pivot sign in the new ordering (n)
  std::vector<int> parent_, lp_, lnz_, li_;  // elimination tree, L columns (n, n + 1, n, nnz(L))
  std::vector<int> row_begin_,
      row_pattern_;  // pattern of each row of L, topological order (n + 1, nnz(L))
  std::vector<double> lx_, d_inverse_, y_, work_;  // L values, 1 / D, work vectors
};

}  // namespace tendril::qp
