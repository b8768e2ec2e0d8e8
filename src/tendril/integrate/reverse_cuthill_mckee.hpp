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

/// max |perm_inv[r] - perm_inv[c]| over the entries of `pattern`, with perm_inv the inverse of `order`.
int permuted_bandwidth(const SparseMatrix& pattern, const std::vector<int>& order);

}  // namespace tendril
