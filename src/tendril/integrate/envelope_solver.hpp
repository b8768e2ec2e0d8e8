#pragma once
/// What the banded solvers (BandedLdltSolver, BandedLuSolver) share on their envelope storage: the
/// forward substitution with the unit-lower L, the pivots' scales, and how they copy a matrix's
/// values into the storage before each factorization: band[slot[e]] = values[entry[e]] for the
/// stored entries of A they read, and zero on the envelope's other entries (its fill). The entries
/// can be composed with a caller's map (LinearSolver::read_through), so the solver reads a larger
/// matrix that holds A (the Newton system's full Jacobian, of which the free DOFs' rows and columns
/// are A) without a copy.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "tendril/integrate/linear_solver.hpp"

namespace tendril {

struct EnvelopeLoad {
  std::vector<int> entry;  ///< index into A's values of each entry read (#entries)
  std::vector<int> slot;   ///< its index in the envelope storage (#entries)
  std::vector<int> fill;   ///< the envelope's indices outside A's pattern, zeroed before each load
  std::vector<int> through;  ///< map[entry[e]] after compose() (#entries), else empty

  /// fill: every index in [0, band_size) that no entry's slot takes.
  void find_fill(std::size_t band_size) {
    std::vector<char> taken(band_size, 0);
    for (int k : slot) taken[static_cast<std::size_t>(k)] = 1;
    fill.clear();
    for (std::size_t k = 0; k < band_size; ++k)
      if (!taken[k]) fill.push_back(static_cast<int>(k));
  }
  /// through = map composed with entry (A's value k is values[map[k]] in load_through()).
  void compose(std::span<const int> map) {
    through.resize(entry.size());
    for (std::size_t e = 0; e < entry.size(); ++e)
      through[e] = map[static_cast<std::size_t>(entry[e])];
  }
  /// band = A's values (A.valuePtr()), zero elsewhere.
  void load(const double* values, double* band) const { load(values, entry, band); }
  /// The same with A's value k at values[map[k]] (the map given to compose()).
  void load_through(const double* values, double* band) const { load(values, through, band); }

 private:
  void load(const double* values, const std::vector<int>& from, double* band) const {
    for (int k : fill) band[k] = 0.0;
#pragma GCC unroll 4
    for (std::size_t e = 0; e < from.size(); ++e) band[slot[e]] = values[from[e]];
  }
};

/// y[s] -= a x[s], s = 0 .. m - 1, for distinct columns of the envelope or a column and a vector
/// (restrict: no run-time overlap checks around the short loops of a narrow envelope)
inline void subtract_scaled(double* __restrict y, const double* __restrict x, double a, int m) {
  for (int s = 0; s < m; ++s) y[s] -= x[s] * a;
}

/// Solves L z = y in place for the unit-lower L stored by columns, column(j)[s] = L(s, j) for j < s
/// <= last[j] (last non-decreasing), two columns j, j + 1 at a time: each y[s] they both reach is
/// loaded and stored once, y[s] = (y[s] - L(s, j) y_j) - L(s, j + 1) y_{j+1}, the one-column order
/// and rounding.
template <typename Column>
void forward_substitution_unit_lower(double* __restrict y, int n, const std::vector<int>& last,
                                     Column column) {
  int j = 0;
  for (; j + 1 < n; j += 2) {
    const double* __restrict l0 = column(j);
    const double* __restrict l1 = column(j + 1);
    const int both = last[static_cast<std::size_t>(j)];
    if (both >= j + 1) y[j + 1] -= l0[j + 1] * y[j];
    const double y0 = y[j], y1 = y[j + 1];
    for (int s = j + 2; s <= both; ++s) y[s] = (y[s] - l0[s] * y0) - l1[s] * y1;
    const int from = std::max(both, j + 1);  // rows after it: column j + 1's only
    subtract_scaled(y + from + 1, l1 + from + 1, y1, last[static_cast<std::size_t>(j) + 1] - from);
  }
  if (j < n)
    subtract_scaled(y + j + 1, column(j) + j + 1, y[j], last[static_cast<std::size_t>(j)] - j);
}

/// A solver on envelope storage: loads A (or the matrix read through a map) into band_ with load_,
/// then eliminates.
class EnvelopeSolver : public LinearSolver {
 public:
  Factorization factorize(const SparseMatrix& A, double singular_tolerance) final {
    load_.load(A.valuePtr(), band_.data());
    return eliminate(singular_tolerance);
  }
  bool read_through(std::span<const int> map) final {
    load_.compose(map);
    return true;
  }
  Factorization factorize_through(const double* values, double singular_tolerance) final {
    load_.load_through(values, band_.data());
    return eliminate(singular_tolerance);
  }

 protected:
  /// The factorization of the values in band_.
  virtual Factorization eliminate(double singular_tolerance) = 0;
  /// scale[j] = |A_jj| (column(j)[j], before elimination: each pivot is compared with its own row's
  /// diagonal); returns the largest (the scale of a zero diagonal).
  template <typename Column>
  static double pivot_scales(int n, Column column, std::vector<double>& scale) {
    double max_diagonal = 0.0;
    for (int j = 0; j < n; ++j) {
      scale[static_cast<std::size_t>(j)] = std::abs(column(j)[j]);
      max_diagonal = std::max(max_diagonal, scale[static_cast<std::size_t>(j)]);
    }
    return max_diagonal;
  }

  EnvelopeLoad load_;  ///< A's stored entries (those read), their slots in band_, the envelope's
                       ///< other entries
  std::vector<double> band_;  ///< the envelope storage
};

}  // namespace tendril
