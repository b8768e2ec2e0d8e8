#pragma once
/// Parameters of the smooth IMC contact and friction laws (mat_dismech sec. 4 and 5.2) and the
/// per-frame contact statistics every contact energy reports (docs/physics/contact.md).

#include <limits>
#include <string>

#include "tendril/core/model.hpp"
#include "tendril/core/term.hpp"

namespace tendril::contact {

struct ContactParameters {
  double stiffness = 20.0;           ///< k_c, contact stiffness [N/m] (> 0): energy k_c b(g) [J]
  double distance_tolerance = 1e-3;  ///< delta, width of the smooth zone [m] (> 0); K1 = 15 / delta
  double slip_tolerance =
      1e-3;               ///< nu, slip speed where friction saturates [m/s] (> 0); K2 = 15 / nu
  double friction = 0.0;  ///< mu, Coulomb friction coefficient [-] (>= 0)
  /// Throws InputError naming `prefix` + the field, its value and the allowed range.
  void validate(const std::string& prefix) const;
};

/// What one contact term sees at a configuration.
struct ContactStatistics {
  int active = 0;  ///< contacts with gap < delta (the penalty is non-zero)
  double min_gap = std::numeric_limits<double>::infinity();  ///< smallest gap g [m] (+inf if none)
  void merge(const ContactStatistics& other);
};

/// A contact energy that can report its statistics (for the run output).
class ContactEnergy : public Energy {
 public:
  virtual ContactStatistics statistics(const Model& model, const VecX& q, double time) const = 0;
};

}  // namespace tendril::contact
