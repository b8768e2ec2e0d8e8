#pragma once
/// Reverse Cuthill-McKee ordering (Cuthill & McKee 1969; George & Liu, Computer Solution of Large
/// Sparse Positive Definite Systems, 1981, ch. 4): a bandwidth-reducing permutation of a symmetric
/// pattern. For a rod with q = [x (3N) | theta (E)] it interleaves positions and twists, making the
/// Newton matrix banded (bandwidth ~10 instead of ~3N).

#include <vector>

#include "tendril/core/sparse_assembly.hpp"

namespace tendril {

/// The permutation as new -> old indices (#rows): row `order[k]` of the pattern becomes row k.
/// Each connected component starts from a pseudo-peripheral vertex.
std::vector<int> reverse_cuthill_mckee(const SparseMatrix& pattern);

/// max |perm_inv[r] - perm_inv[c]| over the entries of `pattern`, with perm_inv the inverse of
/// `order`.
int permuted_bandwidth(const SparseMatrix& pattern, const std::vector<int>& order);

/// The envelope of the permuted pattern (the staircase a factorization fills): for each column j
/// (#rows), the largest max(i, k) over the entries (i, k) with min(i, k) <= j, and at least j. For
/// a structurally symmetric pattern it is the last row of column j's fill and the last column of
/// row j's.
std::vector<int> permuted_envelope(const SparseMatrix& pattern, const std::vector<int>& order);

/// Raises each entry of an envelope (as permuted_envelope gives) to the value of the last column of
/// its panel of `panel` columns, so that the columns eliminated together store the same rows.
void widen_to_panels(std::vector<int>& last, int panel);

}  // namespace tendril
