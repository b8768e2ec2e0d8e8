#pragma once
/// LDL^T of a symmetric quasi-definite matrix with a fixed pattern (internal to tendril_qp), with
/// one of two orderings and kernels chosen by analyse():
/// - the chain ordering: each group of primal unknowns coupled by P (in index order), followed by
///   the multiplier rows whose last group it is. For a chain of bodies numbered along the chain
///   (the vine steps) the matrix is then block tridiagonal; it is taken when its envelope (the
///   entries of each row of L from its first nonzero to the diagonal, which hold all fill) has at
///   most kChainFill entries per entry of the matrix. Finding it costs one pass over the pattern.
///   If the envelope's rows hold kEnvelopeRow entries or more on average (the 3D vine), the
///   envelope kernel runs (no elimination tree): analyse() cuts the rows into runs, stretches of
///   up to kRunRows consecutive rows with the same first column, each stored as a dense
///   column-major panel (4 or 8 lanes, a row per lane, the unused lanes zero); a panel's columns
///   are computed as short vector multiply-adds over its rows with one entry of an earlier row of L
///   broadcast (no reductions), then its own triangle. Shorter rows (the planar vine) take the
///   sparse kernel below on this ordering.
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
  /// Most rows of one run of the envelope kernel (the lanes of its widest panel) [-]
  static constexpr int kRunRows = 8;

 private:
  /// perm_ = the chain ordering: per group of P-coupled primal unknowns (by first index) the group,
  /// then the multiplier rows whose last group it is.
  void chain_ordering(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// perm_ = AMD ordering of the pattern, primal unknowns first (stable partition).
  void amd_ordering(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// Permuted pattern, elimination tree and the patterns of L for perm_ (the sparse kernel).
  void symbolic(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// The envelope of the matrix permuted by perm_: first_ and envelope_size_.
  void envelope(const SparseMatrix& lower, const std::vector<signed char>& pivot_sign);
  /// The runs and panels of the envelope kernel, and the place of each entry of `lower` in
  /// panel_k_ or on the diagonal (panel_entries_, diagonal_entries_).
  void panels(const SparseMatrix& lower);
  /// d_inverse_[k] from the pivot dk whose terms' absolute values sum to `magnitude`, dynamically
  /// regularised; true if the pivot was replaced.
  bool set_pivot(int k, double dk, double magnitude, double scale, double relative_threshold,
                 double relative_shift);
  /// LDL^T inside the envelope, run by run (chain ordering).
  int factorize_envelope(const SparseMatrix& lower, double scale, double relative_threshold,
                         double relative_shift);
  /// A run of the envelope kernel: rows begin .. begin + rows - 1, all with the first column
  /// `first`; column j of its panel (the row's entries in lanes 0 .. rows - 1) starts at
  /// base + (j - first) * lanes; it has begin + rows - 1 - first columns (those left of the run
  /// and its triangle's). The unused lanes and the triangle's upper part of L are 0.
  struct Run {
    int begin, rows, first, lanes, base;
  };
  /// Where row k of L lies in the panels: entry (k, j) at offset + j * lanes, j from first
  struct RowPlace {
    int first, offset, lanes;
  };
  /// Rows of L and pivots of `run`, whose panel has `Lanes` lanes; adds the replaced pivots to
  /// `replaced`; false if a pivot is not finite.
  template <int Lanes>
  bool factorize_run(const Run& run, double scale, double relative_threshold, double relative_shift,
                     int& replaced);
  /// work_ <- L^-1 work_ on the rows of `run` (the earlier rows already solved).
  template <int Lanes>
  void forward_run(const Run& run);
  /// work_ <- L^-T work_ on the rows of `run` and the columns left of it (the later rows solved).
  template <int Lanes>
  void backward_run(const Run& run);
  /// Up-looking sparse LDL^T on the analysed pattern (AMD ordering).
  int factorize_sparse(const SparseMatrix& lower, double scale, double relative_threshold,
                       double relative_shift);

  int n_ = 0;
  bool chain_ordered_ = false;
  bool envelope_kernel_ = false;
  std::vector<int> perm_;             // new index -> original index (n)
  std::vector<int> order_, scratch_;  // chain_ordering()'s work vectors (n, 2 n + 3)
  std::vector<int> cp_, ci_;          // permuted upper triangle, compressed columns (n + 1, nnz)
  // sparse kernel: index into the values of `lower` of each entry of the permuted matrix (nnz)
  std::vector<int> value_source_;
  /// An entry of `lower` (index into its values) and where the envelope kernel puts it: its slot in
  /// panel_k_ (off the diagonal) or its row (the diagonal, into work_).
  struct Scatter {
    int source, place;
  };
  std::vector<Scatter> panel_entries_, diagonal_entries_;  // envelope kernel (nnz in all)
  std::vector<signed char> sign_;                          // pivot sign in the new ordering (n)
  std::vector<int> parent_, lp_, lnz_, li_;  // elimination tree, L columns (n, n + 1, n, nnz(L))
  std::vector<int> row_begin_,
      row_pattern_;  // pattern of each row of L, topological order (n + 1, nnz(L))
  std::vector<double> lx_, d_inverse_, y_, work_;  // L values, 1 / D, work vectors
  // envelope kernel: row k of L in columns first_[k] .. k - 1 (n), the runs, the place of each
  // row in the panels (n) and the rows without entries left of the diagonal outside the runs
  std::vector<int> first_;
  std::vector<Run> runs_;
  std::vector<RowPlace> row_place_;
  std::vector<int> diagonal_rows_;
  int envelope_size_ = 0;  // entries of the envelope (below the diagonal)
  // panels: entries of the matrix (0 elsewhere, also between analyses), of L, and of L D for the
  // run being factorised
  std::vector<double> panel_k_, panel_l_, panel_w_;
};

}  // namespace tendril::qp
