#pragma once
/// LDL^T of a symmetric quasi-definite matrix with a fixed pattern (internal to tendril_qp), with
/// one of two orderings and kernels chosen by analyse():
/// - the chain ordering: each group of primal unknowns coupled by P (in index order), followed by
///   the multiplier rows whose last group it is. For a chain of bodies numbered along the chain
///   (the vine steps) the matrix is then block tridiagonal; it is taken when its envelope (the
///   entries of each row of L from its first nonzero to the diagonal, which hold all fill) has at
///   most kChainFill entries per entry of the matrix. Finding it costs one pass over the pattern.
///   If the envelope's rows hold kEnvelopeRow entries or more on average (the 3D vine), the
///   factorisation runs row by row inside the envelope (dense dot products, no elimination tree);
///   shorter rows (the planar vine) take the sparse kernel below on this ordering.
/// - otherwise an approximate-minimum-degree ordering with the primal unknowns first (stable
///   partition).
/// The sparse kernel is the up-looking LDL^T (T. A. Davis, "Algorithm 849: A concise sparse
/// Cholesky factorization package", ACM TOMS 31(4), 2005): the elimination tree, the column counts
/// of L, the row and column patterns of L and the permuted pattern are computed once by analyse().
/// Both eliminate every primal unknown a multiplier row is coupled to (directly or through P)
/// before that row, so the pivots are those of the primal-first elimination. factorize() only does
/// arithmetic (no allocation). Each pivot has a known sign (+
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
  /// True if analyse() chose the chain ordering and the envelope kernel (else AMD, sparse kernel).
  bool chain_ordered() const { return chain_ordered_; }
  /// True if factorize() runs the envelope kernel (else the sparse one).
  bool envelope_kernel() const { return envelope_kernel_; }
  /// Largest envelope size / nnz(lower) at which the chain ordering is kept [-]
  static constexpr int kChainFill = 4;
  /// Smallest mean length of the envelope's rows at which the envelope kernel is used: shorter
  /// rows (the planar vine's, ~4 entries) cost more in loop overhead than the sparse kernel's
  /// indirection saves [-]
  static constexpr int kEnvelopeRow = 8;

 private:
  /// perm_ = the chain ordering: per group of P-coupled primal unknowns (by first index) the group,
  /// then the multiplier rows whose last group it is.
  void chain_ordering(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// perm_ = AMD ordering of the pattern, primal unknowns first (stable partition).
  void amd_ordering(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// Permuted pattern, elimination tree and the patterns of L for perm_ (the sparse kernel).
  void symbolic(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// The envelope of the matrix permuted by perm_ (the envelope kernel): first_, env_begin_, and
  /// in value_source_ the place of each entry of `lower`.
  void envelope(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// d_inverse_[k] from the pivot dk whose terms' absolute values sum to `magnitude`, dynamically
  /// regularised; true if the pivot was replaced.
  bool set_pivot(int k, double dk, double magnitude, double scale, double relative_threshold,
                 double relative_shift);
  /// Row-oriented LDL^T inside the envelope (dense dot products; chain ordering).
  int factorize_envelope(const SparseMatrix& lower, double scale, double relative_threshold,
                         double relative_shift);
  /// Up-looking sparse LDL^T on the analysed pattern (AMD ordering).
  int factorize_sparse(const SparseMatrix& lower, double scale, double relative_threshold,
                       double relative_shift);

  int n_ = 0;
  bool chain_ordered_ = false;
  bool envelope_kernel_ = false;
  std::vector<int> perm_;     // new index -> original index (n)
  std::vector<int> cp_, ci_;  // permuted upper triangle, compressed columns (n + 1, nnz)
  // sparse kernel: index into the values of `lower` of each entry of the permuted matrix; envelope
  // kernel: place of each entry of `lower` in env_, or -1 - k for the diagonal of row k (nnz)
  std::vector<int> value_source_;
  std::vector<signed char> sign_;            // pivot sign in the new ordering (n)
  std::vector<int> parent_, lp_, lnz_, li_;  // elimination tree, L columns (n, n + 1, n, nnz(L))
  std::vector<int> row_begin_,
      row_pattern_;  // pattern of each row of L, topological order (n + 1, nnz(L))
  std::vector<double> lx_, d_inverse_, y_, work_;  // L values, 1 / D, work vectors
  std::vector<int> first_, env_begin_;  // envelope: first column of each row of L, row offsets
  std::vector<double> env_;             // envelope: rows of L, row k in columns first_[k] .. k - 1
};

}  // namespace tendril::qp
