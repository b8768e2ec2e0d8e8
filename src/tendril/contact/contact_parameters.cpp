#include "tendril/contact/contact_parameters.hpp"

#include <algorithm>
#include <cmath>

#include "tendril/core/error.hpp"

namespace tendril::contact {
namespace {

void require_positive(const std::string& key, double value, const char* unit) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw InputError(key, std::to_string(value), std::string("a finite value > 0 [") + unit + "]");
}

}  // namespace

void ContactParameters::validate(const std::string& prefix) const {
  require_positive(prefix + "stiffness", stiffness, "N/m");
  require_positive(prefix + "distance_tolerance", distance_tolerance, "m");
  require_positive(prefix + "slip_tolerance", slip_tolerance, "m/s");
  if (!(friction >= 0.0) || !std::isfinite(friction))
    throw InputError(prefix + "friction", std::to_string(friction), "a finite coefficient >= 0");
}

void ContactStatistics::merge(const ContactStatistics& other) {
  active += other.active;
  min_gap = std::min(min_gap, other.min_gap);
}

}  // namespace tendril::contact
