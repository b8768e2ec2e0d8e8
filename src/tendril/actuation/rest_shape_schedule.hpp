#pragma once
/// An Actuator that sets one rest quantity of chosen bend-twist springs or edges from time
/// schedules (granular_flagella IV-E, mat_dismech 6.1). Values are the Model's own (discrete,
/// integrated) quantities: natural curvature kappa_bar_i [-] (about kappa_i Delta l for a smooth
/// curve of curvature kappa_i), natural twist m_bar [rad] (twist rate times Delta l), rest length
/// |e_bar| [m].

#include <vector>

#include "tendril/actuation/schedule.hpp"
#include "tendril/core/actuator.hpp"

namespace tendril {

enum class RestQuantity {
  natural_curvature_1,  ///< kappa_bar_1 of springs [-]
  natural_curvature_2,  ///< kappa_bar_2 of springs [-]
  natural_twist,        ///< m_bar of springs [rad]
  rest_length,          ///< |e_bar| of edges [m]
};

class RestShapeSchedule final : public Actuator {
 public:
  /// targets: spring indices (curvatures, twist) or edge indices (rest length) (#targets);
  /// schedules: one per target, or one shared by all. InputError "targets[k]" for an index out of
  /// range, "schedules" for a count that fits neither.
  RestShapeSchedule(const Model& model, RestQuantity quantity, std::vector<int> targets,
                    std::vector<Schedule> schedules);

  std::string_view name() const override { return "rest_shape_schedule"; }
  void apply(double t, RodNetwork& rods) const override;

  RestQuantity quantity() const { return quantity_; }
  const std::vector<int>& targets() const { return targets_; }

 private:
  RestQuantity quantity_;
  std::vector<int> targets_;
  std::vector<Schedule> schedules_;
};

}  // namespace tendril
