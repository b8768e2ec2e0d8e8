#pragma once
/// Extra Google Benchmark statistics shared by the benchmark programs.

#include <algorithm>
#include <vector>

namespace tendril::bench {

/// The fastest repetition: on a shared virtual machine the noise only ever adds time, so the
/// minimum over repetitions is the steadiest estimate (reported beside the median).
/// Use: BENCHMARK(f)->ComputeStatistics("min", tendril::bench::fastest).
inline double fastest(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

}  // namespace tendril::bench
