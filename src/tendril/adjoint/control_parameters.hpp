#pragma once
/// Per-step control inputs and loads as parameters (docs/physics/gradients.md, "Parameters"): the
/// knots of a piecewise-linear schedule of natural curvature or twist (the actuation a controller
/// sets over time) and the components of point loads. The residual depends on each affinely.

#include <cstddef>
#include <vector>

#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/core/model.hpp"

namespace tendril::adjoint {

/// An Actuator that sets one rest quantity (natural curvature kappa_bar_1 or kappa_bar_2 [-], or
/// natural twist m_bar [rad]) of chosen bend-twist springs to v(t), piecewise linear through the
/// knots (times[k], values[k]) and held outside them (RestShapeSchedule with table_schedule):
/// v(t) is affine in the knot values.
class ControlSchedule final : public Actuator {
 public:
  /// InputError "quantity" for rest_length (not affine in the residual), and as RestShapeSchedule
  /// ("targets[k]") and table_schedule ("times[k]", "values[k]").
  ControlSchedule(const Model& model, RestQuantity quantity, std::vector<int> springs,
                  std::vector<double> times, std::vector<double> values);
  std::string_view name() const override { return "control_schedule"; }
  void apply(double t, RodNetwork& rods) const override { schedule_.apply(t, rods); }
  /// The same schedule with knot `knot`'s value set to `value`.
  ControlSchedule with_knot(const Model& model, int knot, double value) const;
  const std::vector<double>& values() const { return values_; }

 private:
  RestQuantity quantity_;
  std::vector<int> springs_;
  std::vector<double> times_, values_;
  RestShapeSchedule schedule_;
};

/// The value of knot `knot` of the ControlSchedule model.actuators[actuator]: apply() replaces the
/// actuator by one with that knot set. InputError "actuator_index" / "knot" for bad indices.
Parameter control_knot(const Model& model, std::size_t actuator, int knot);

/// Component `axis` (0, 1, 2: x, y, z) of the force [N] of the PointLoad model.forces[force],
/// starting at its value at t = 0: apply() replaces the load by its history (as the parameters
/// before it left it) plus the change along the axis. InputError "force_index" / "axis" for bad
/// indices.
Parameter point_load_component(const Model& model, std::size_t force, int axis);

}  // namespace tendril::adjoint
