#pragma once
/// Fixed-pattern sparse assembly of Hessians and force Jacobians.
///
/// Every term declares the DOF sets of its stencils (SparsityBuilder); the union becomes one
/// compressed column matrix whose pattern is fixed during a solve. Each Newton iteration zeroes
/// the values and terms add their local matrices straight into them (HessianAssembler::add), so
/// no triplets are built in the hot loop and solvers can reuse their symbolic analysis. Terms whose
/// stencil set changes (contact pairs) say so between steps (update_stencils in core/term.hpp) and
/// the solver rebuilds the pattern then. Adding an entry that was not declared throws
/// SparsityError (core/error.hpp).

#include <span>
#include <vector>

#include <Eigen/SparseCore>

#include "tendril/core/types.hpp"

namespace tendril {

using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// Index into the value array of entry (row, col) of a compressed matrix, or -1 if the pattern has
/// no such entry (binary search in the column).
int value_index(const SparseMatrix& matrix, int row, int col);

/// Collects the coupled DOF sets of all stencils (both triangles are stored).
class SparsityBuilder {
 public:
  explicit SparsityBuilder(int num_dofs);
  /// Declares that every pair of DOFs in `dofs` may be coupled. Negative entries are ignored.
  void add_stencil(std::span<const int> dofs);
  /// Declares the diagonal entry of every DOF (mass matrix, regularisation).
  void add_diagonal();
  /// The compressed pattern with all values zero.
  SparseMatrix build() const;
  int num_dofs() const { return num_dofs_; }

 private:
  int num_dofs_;
  std::vector<std::vector<int>> rows_of_column_;
};

/// Adds local stencil matrices into a matrix with a fixed pattern.
class HessianAssembler {
 public:
  HessianAssembler() = default;
  explicit HessianAssembler(SparseMatrix pattern);
  /// Zeroes the values, keeping the pattern; with set_lower_only(true) those of the lower triangle
  /// (diagonal included) only: the upper one holds nothing meaningful until mirror_lower() or, for
  /// its own entries, copy_lower_to_own().
  void set_zero();
  /// Adds scale * local into the rows and columns `dofs` (local is #dofs x #dofs).
  /// Every pair must have been declared (else SparsityError); negative DOF indices are skipped.
  void add(std::span<const int> dofs, const Eigen::Ref<const MatX>& local, double scale = 1.0);
  /// Adds `value` into the declared entry (row, col) (else SparsityError).
  void add_entry(int row, int col, double value);
  /// Same as add(), for terms that add the same stencils at every evaluation: the value slots of
  /// stencil `index` of the term `owner` are searched once and kept with this assembler (the
  /// pattern never changes; the cache is only valid while matrix() keeps its pattern). If the
  /// stencil's DOFs differ from the cached ones, the slots are searched again.
  void add_cached(const void* owner, std::size_t index, std::span<const int> dofs,
                  const Eigen::Ref<const MatX>& local, double scale = 1.0);
  /// Same for a rectangular block: scale * local into rows `rows` and columns `cols` (local is
  /// #rows x #cols), for a term whose force on some DOFs depends on more DOFs (a non-symmetric
  /// Jacobian's rows). Stencils of one owner are cached per block shape.
  void add_cached(const void* owner, std::size_t index, std::span<const int> rows,
                  std::span<const int> cols, const Eigen::Ref<const MatX>& local,
                  double scale = 1.0);
  /// Makes add_cached_symmetric() add only the lower triangle (row >= column) of the global matrix:
  /// for a consumer that reads one triangle (the Newton matrix of a symmetric system). The upper
  /// triangle then lacks those terms until mirror_lower() copies the lower triangle onto it.
  void set_lower_only(bool lower_only);
  bool lower_only() const { return lower_only_; }
  /// With set_lower_only(true): the upper entries (row < column) of `pattern` keep values of their
  /// own, for terms whose Jacobian is not symmetric there (the stencils of a non-symmetric
  /// ForceTerm). copy_lower_to_own() sets each to the entry below the diagonal, after which those
  /// terms add their full blocks (add_cached, add) into both triangles; mirror_lower() leaves them.
  void set_own_upper(const SparseMatrix& pattern);
  /// Sets every own upper entry (r, c) (set_own_upper) to the entry (c, r): the sum of the
  /// symmetric terms added since set_zero().
  void copy_lower_to_own();
  /// With set_lower_only(true), per value index k, the value index that holds entry k's value: k
  /// for the lower triangle and the own upper entries, that of the transposed entry for the other
  /// upper ones (what mirror_lower() copies); empty otherwise.
  const std::vector<int>& value_sources() const { return source_; }
  /// Same as add_cached(owner, index, dofs, local) for a symmetric `local` (a Hessian); with
  /// set_lower_only(true) it adds each pair {i, j} once, into the entry of the lower triangle
  /// (about half the scattered entries).
  void add_cached_symmetric(const void* owner, std::size_t index, std::span<const int> dofs,
                            const Eigen::Ref<const MatX>& local);
  /// The same for a symmetric local matrix read with a stride: entry (i, j) at local[stride (j m +
  /// i)] (m = #dofs). One lane of a column-major Eigen matrix of LanePack (core/lane_pack.hpp) is
  /// added this way (stride 4) without unpacking it first.
  void add_cached_symmetric(const void* owner, std::size_t index, std::span<const int> dofs,
                            const double* local, std::size_t stride);
  /// Sets every entry (r, c) above the diagonal to the entry (c, r) below it (a symmetric pattern),
  /// except the own upper entries (set_own_upper).
  void mirror_lower();
  const SparseMatrix& matrix() const { return matrix_; }
  SparseMatrix& matrix() { return matrix_; }

 private:
  /// Index into the value array of (row, col); throws SparsityError if the entry is not in the
  /// pattern.
  int slot(int row, int col) const;
  /// Cached stencil slots of one term and block shape: per stencil its row DOFs (rows), column DOFs
  /// (cols), then its slots (rows x cols, column-major, -1 for skipped DOFs). A lower-triangle
  /// cache (add_cached_symmetric) has cols = 0 and per stencil its DOFs (rows), the number of its
  /// lower entries (-1 if some DOF repeats: the full block is added then), their slots and their
  /// offsets j rows + i in the local matrix (local pairs i >= j with both DOFs present; rows (rows
  /// + 1) / 2 places each).
  struct SlotCache {
    const void* owner = nullptr;
    std::size_t rows = 0, cols = 0;
    std::vector<int> entries;
  };
  /// The cache of `owner` for blocks rows x cols (created empty on first use).
  SlotCache& cache_of(const void* owner, std::size_t rows, std::size_t cols);
  /// The slots (rows x cols, column-major, -1 for a skipped DOF) of stencil `index` of `owner`,
  /// searched when its DOFs differ from the cached ones (add_cached).
  const int* block_slots(const void* owner, std::size_t index, std::span<const int> rows,
                         std::span<const int> cols);
  /// The lower-triangle cache entry of stencil `index` of `owner` (add_cached_symmetric): its
  /// count of lower entries (-1 if a DOF repeats), then their slots and local offsets.
  const int* lower_slots(const void* owner, std::size_t index, std::span<const int> dofs);
  SparseMatrix matrix_;
  std::vector<SlotCache> slot_caches_;
  bool lower_only_ = false;
  /// set_lower_only(true): value_sources(); the first entry of the lower triangle of each column
  /// (#columns); the upper entries mirror_lower() copies and the own ones, each followed by the
  /// value index of its transposed entry
  std::vector<int> source_, lower_begin_, mirror_, own_;
};

}  // namespace tendril
