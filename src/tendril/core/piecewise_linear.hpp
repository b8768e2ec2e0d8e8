#pragma once
/// Piecewise-linear functions of time through samples (t_k, v_k), held constant before the first
/// and after the last sample: point-load histories (forces/point_load.hpp) and actuation tables
/// (actuation/schedule.hpp).

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "tendril/core/error.hpp"

namespace tendril {

/// Checks samples for piecewise_linear(): at least one, one time per value, finite strictly
/// increasing times. Throws InputError naming "times" or "times[k]".
void check_sample_times(const std::vector<double>& times, std::size_t num_values);

/// v(t) through (times[k], values[k]) (#samples), constant outside [times.front(), times.back()].
/// V is double or a fixed-size Eigen vector. Throws InputError ("times[k]", "values[k]") for
/// non-increasing or non-finite times and non-finite values.
template <class V>
std::function<V(double)> piecewise_linear(std::vector<double> times, std::vector<V> values) {
  check_sample_times(times, values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    bool finite;
    if constexpr (std::is_arithmetic_v<V>)
      finite = std::isfinite(values[k]);
    else
      finite = values[k].allFinite();
    if (!finite)
      throw InputError("values[" + std::to_string(k) + "]", "non-finite value", "finite values");
  }
  return [times = std::move(times), values = std::move(values)](double t) -> V {
    if (t <= times.front()) return values.front();
    if (t >= times.back()) return values.back();
    // first sample strictly after t; t lies in [times[k-1], times[k])
    const auto k =
        static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
    const double w = (t - times[k - 1]) / (times[k] - times[k - 1]);
    return V((1.0 - w) * values[k - 1] + w * values[k]);
  };
}

}  // namespace tendril
