#include "tendril/adjoint/control_parameters.hpp"

#include <memory>
#include <string>

#include "tendril/actuation/schedule.hpp"
#include "tendril/adjoint/term_lookup.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/point_load.hpp"

namespace tendril::adjoint {

ControlSchedule::ControlSchedule(const Model& model, RestQuantity quantity,
                                 std::vector<int> springs, std::vector<double> times,
                                 std::vector<double> values)
    : quantity_(quantity),
      springs_(std::move(springs)),
      times_(std::move(times)),
      values_(std::move(values)),
      schedule_(model, quantity, springs_, {table_schedule(times_, values_)}) {
  if (quantity == RestQuantity::rest_length)
    throw InputError("quantity", "rest_length",
                     "natural_curvature_1, natural_curvature_2 or natural_twist (the residual is "
                     "affine in them)");
}

ControlSchedule ControlSchedule::with_knot(const Model& model, int knot, double value) const {
  std::vector<double> values = values_;
  values[static_cast<std::size_t>(knot)] = value;
  return ControlSchedule(model, quantity_, springs_, times_, std::move(values));
}

Parameter control_knot(const Model& model, std::size_t actuator, int knot) {
  const ControlSchedule& control = term_at<ControlSchedule>(
      model.actuators, actuator, "actuator_index", "a control_schedule in Model::actuators");
  const int knots = static_cast<int>(control.values().size());
  if (knot < 0 || knot >= knots)
    throw InputError("knot", std::to_string(knot),
                     "a knot index in [0, " + std::to_string(knots) + ")");
  return {
      "control_" + std::to_string(actuator) + ".knot_" + std::to_string(knot),
      control.values()[static_cast<std::size_t>(knot)], [actuator, knot](Model& m, double value) {
        const auto& old = static_cast<const ControlSchedule&>(*m.actuators[actuator]);
        m.actuators[actuator] = std::make_shared<ControlSchedule>(old.with_knot(m, knot, value));
      }};
}

Parameter point_load_component(const Model& model, std::size_t force, int axis) {
  const PointLoad& load =
      term_at<PointLoad>(model.forces, force, "force_index", "a point_load in Model::forces");
  if (axis < 0 || axis > 2) throw InputError("axis", std::to_string(axis), "0, 1 or 2 (x, y, z)");
  const double start = load.force_at(0.0)[axis];
  return {"point_load_" + std::to_string(force) + ".force_" + std::string(1, "xyz"[axis]), start,
          [force, axis, start](Model& m, double value) {
            // the load as the parameters before this one left it (another component, say)
            const auto base = std::static_pointer_cast<const PointLoad>(m.forces[force]);
            const Vec3 change = (value - start) * Vec3::Unit(axis);
            m.forces[force] = std::make_shared<PointLoad>(base->node(), [base, change](double t) {
              return Vec3(base->force_at(t) + change);
            });
          }};
}

}  // namespace tendril::adjoint
