#pragma once
/// How the banded solvers (BandedLdltSolver, BandedLuSolver) copy a matrix's values into their envelope
/// storage before each factorization: band[slot[e]] = values[entry[e]] for the stored entries of A they
/// read, and zero on the envelope's other entries (its fill). The entries can be composed with a
/// caller's map (LinearSolver::read_through), so the solver reads a larger matrix that holds A (the
/// Newton system's full Jacobian, of which the free DOFs' rows and columns are A) without a copy.

#include <cstddef>
#include <span>
#include <vector>

namespace tendril {

struct EnvelopeLoad {
  std::vector<int> entry;    ///< index into A's values of each entry read (#entries)
  std::vector<int> slot;     ///< its index in the envelope storage (#entries)
  std::vector<int> fill;     ///< the envelope's indices outside A's pattern, zeroed before each load
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
    for (std::size_t e = 0; e < entry.size(); ++e) through[e] = map[static_cast<std::size_t>(entry[e])];
  }
  /// band = A's values (A.valuePtr()), zero elsewhere.
  void load(const double* values, double* band) const { load(values, entry, band); }
  /// The same with A's value k at values[map[k]] (the map given to compose()).
  void load_through(const double* values, double* band) const { load(values, through, band); }

 private:
  void load(const double* values, const std::vector<int>& from, double* band) const {
    for (int k : fill) band[k] = 0.0;
    for (std::size_t e = 0; e < from.size(); ++e) band[slot[e]] = values[from[e]];
  }
};

}  // namespace tendril
