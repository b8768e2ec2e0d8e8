#include "tendril/core/piecewise_linear.hpp"

#include "tendril/core/number_text.hpp"

namespace tendril {

void check_sample_times(const std::vector<double>& times, std::size_t num_values) {
  if (times.empty() || times.size() != num_values)
    throw InputError(
        "times",
        std::to_string(times.size()) + " samples for " + std::to_string(num_values) + " values",
        "one time per value, at least one sample");
  for (std::size_t k = 0; k < times.size(); ++k)
    if (!std::isfinite(times[k]) || (k > 0 && !(times[k] > times[k - 1])))
      throw InputError("times[" + std::to_string(k) + "]", number_text(times[k]),
                       "finite times in strictly increasing order [s]");
}

}  // namespace tendril
