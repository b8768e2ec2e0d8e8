#include "tendril/vine/growth_schedule.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::vine {

GrowthSchedule::GrowthSchedule(std::vector<double> times, std::vector<double> rates,
                               Interpolation interp, const std::string& key)
    : times_(std::move(times)), rates_(std::move(rates)), interp_(interp) {
  if (times_.empty() || times_.size() != rates_.size())
    throw InputError(key, fmt::format("{} times and {} rates", times_.size(), rates_.size()),
                     "the same number (>= 1) of times and rates");
  for (std::size_t i = 0; i < times_.size(); ++i) {
    if (!std::isfinite(times_[i]) || (i > 0 && !(times_[i] > times_[i - 1])))
      throw InputError(fmt::format("{}[{}].time", key, i), fmt::format("{}", times_[i]),
                       "finite times in strictly ascending order");
    if (!std::isfinite(rates_[i]))
      throw InputError(fmt::format("{}[{}].rate", key, i), fmt::format("{}", rates_[i]),
                       "a finite rate [m/s]");
  }
}

GrowthSchedule GrowthSchedule::constant(double rate) {
  return GrowthSchedule({0.0}, {rate}, Interpolation::hold, "growth.rate");
}

GrowthSchedule GrowthSchedule::piecewise(std::vector<double> times, std::vector<double> rates,
                                         const std::string& key) {
  return GrowthSchedule(std::move(times), std::move(rates), Interpolation::hold, key);
}

GrowthSchedule GrowthSchedule::table(std::vector<double> times, std::vector<double> rates,
                                     const std::string& key) {
  return GrowthSchedule(std::move(times), std::move(rates), Interpolation::linear, key);
}

double GrowthSchedule::rate(double time) const {
  // index of the last sample at or before t
  const auto it = std::upper_bound(times_.begin(), times_.end(), time);
  if (it == times_.begin()) return rates_.front();
  const std::size_t i = static_cast<std::size_t>(it - times_.begin()) - 1;
  if (interp_ == Interpolation::hold || i + 1 == times_.size()) return rates_[i];
  const double s = (time - times_[i]) / (times_[i + 1] - times_[i]);
  return (1.0 - s) * rates_[i] + s * rates_[i + 1];
}

double GrowthSchedule::rate_weight(double time, int sample) const {
  // index of the last sample at or before t (the first before it), as rate(time)
  const auto it = std::upper_bound(times_.begin(), times_.end(), time);
  const std::size_t i =
      it == times_.begin() ? 0 : static_cast<std::size_t>(it - times_.begin()) - 1;
  const auto k = static_cast<std::size_t>(sample);
  if (it == times_.begin() || interp_ == Interpolation::hold || i + 1 == times_.size())
    return k == i ? 1.0 : 0.0;
  const double s = (time - times_[i]) / (times_[i + 1] - times_[i]);
  return k == i ? 1.0 - s : (k == i + 1 ? s : 0.0);
}

}  // namespace tendril::vine
