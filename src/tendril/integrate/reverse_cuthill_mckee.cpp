#include "tendril/integrate/reverse_cuthill_mckee.hpp"

#include <algorithm>
#include <cstdlib>

namespace tendril {
namespace {

/// Breadth-first levels from `root` within the unvisited component; returns the vertices in BFS
/// order and writes each vertex's level. Neighbours are visited in increasing degree.
std::vector<int> bfs_order(const SparseMatrix& g, const std::vector<int>& degree, int root,
                           std::vector<int>& level, const std::vector<char>& done) {
  std::vector<int> order{root};
  std::fill(level.begin(), level.end(), -1);
  level[root] = 0;
  std::vector<int> neighbours;
  for (std::size_t head = 0; head < order.size(); ++head) {
    const int v = order[head];
    neighbours.clear();
    for (SparseMatrix::InnerIterator it(g, v); it; ++it) {
      const int w = static_cast<int>(it.row());
      if (w != v && !done[w] && level[w] < 0) {
        level[w] = level[v] + 1;
        neighbours.push_back(w);
      }
    }
    std::sort(neighbours.begin(), neighbours.end(),
              [&](int a, int b) { return degree[a] != degree[b] ? degree[a] < degree[b] : a < b; });
    order.insert(order.end(), neighbours.begin(), neighbours.end());
  }
  return order;
}

}  // namespace

std::vector<int> reverse_cuthill_mckee(const SparseMatrix& pattern) {
  const int n = static_cast<int>(pattern.cols());
  std::vector<int> degree(n);
  for (int v = 0; v < n; ++v)
    degree[v] = static_cast<int>(pattern.outerIndexPtr()[v + 1] - pattern.outerIndexPtr()[v]);
  std::vector<char> done(n, 0);
  std::vector<int> level(n, -1);
  std::vector<int> result;
  result.reserve(n);
  for (int start = 0; start < n; ++start) {
    if (done[start]) continue;
    // pseudo-peripheral root: repeat BFS from a lowest-degree vertex of the deepest level
    int root = start;
    std::vector<int> order = bfs_order(pattern, degree, root, level, done);
    for (int pass = 0; pass < 8; ++pass) {
      const int depth = level[order.back()];
      int candidate = order.back();
      for (int v : order)
        if (level[v] == depth && degree[v] < degree[candidate]) candidate = v;
      std::vector<int> next = bfs_order(pattern, degree, candidate, level, done);
      const bool deeper = level[next.back()] > depth;
      root = candidate;
      order = std::move(next);
      if (!deeper) break;
    }
    for (int v : order) done[v] = 1;
    result.insert(result.end(), order.rbegin(), order.rend());
  }
  // each component was reversed on its own; components keep their discovery order
  return result;
}

int permuted_bandwidth(const SparseMatrix& pattern, const std::vector<int>& order) {
  std::vector<int> inverse(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) inverse[order[k]] = static_cast<int>(k);
  int bandwidth = 0;
  for (int c = 0; c < pattern.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(pattern, c); it; ++it)
      bandwidth = std::max(bandwidth, std::abs(inverse[it.row()] - inverse[c]));
  return bandwidth;
}

std::vector<int> permuted_envelope(const SparseMatrix& pattern, const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  std::vector<int> inverse(n), last(n);
  for (int k = 0; k < n; ++k) {
    inverse[order[k]] = k;
    last[k] = k;
  }
  for (int c = 0; c < pattern.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(pattern, c); it; ++it) {
      const int i = inverse[it.row()], j = inverse[c];
      last[std::min(i, j)] = std::max(last[std::min(i, j)], std::max(i, j));
    }
  for (int j = 1; j < n; ++j) last[j] = std::max(last[j], last[j - 1]);
  return last;
}

void widen_to_panels(std::vector<int>& last, int panel) {
  const int n = static_cast<int>(last.size());
  for (int j0 = 0; j0 < n; j0 += panel) {
    const int end = std::min(n, j0 + panel);
    std::fill(last.begin() + j0, last.begin() + end, last[end - 1]);
  }
}

}  // namespace tendril
