#include "tendril/actuation/rest_shape_schedule.hpp"

#include <string>

#include "tendril/core/error.hpp"

namespace tendril {

RestShapeSchedule::RestShapeSchedule(const Model& model, RestQuantity quantity,
                                     std::vector<int> targets, std::vector<Schedule> schedules)
    : quantity_(quantity), targets_(std::move(targets)), schedules_(std::move(schedules)) {
  const bool edges = quantity == RestQuantity::rest_length;
  const int count = static_cast<int>(edges ? model.rods.edges.size() : model.rods.springs.size());
  for (std::size_t k = 0; k < targets_.size(); ++k)
    if (targets_[k] < 0 || targets_[k] >= count)
      throw InputError("targets[" + std::to_string(k) + "]", std::to_string(targets_[k]),
                       std::string(edges ? "an edge" : "a bend-twist spring") + " index in [0, " +
                           std::to_string(count) + ")");
  if (schedules_.size() != 1 && schedules_.size() != targets_.size())
    throw InputError("schedules", std::to_string(schedules_.size()) + " schedules",
                     "one schedule, or one per target (" + std::to_string(targets_.size()) + ")");
  for (const Schedule& s : schedules_)
    if (!s) throw InputError("schedules", "an empty function", "callable schedules v(t)");
}

void RestShapeSchedule::apply(double t, RodNetwork& rods) const {
  for (std::size_t k = 0; k < targets_.size(); ++k) {
    const double v = schedules_[schedules_.size() == 1 ? 0 : k](t);
    const int i = targets_[k];
    switch (quantity_) {
      case RestQuantity::natural_curvature_1:
        rods.springs[i].natural_curvature[0] = v;
        break;
      case RestQuantity::natural_curvature_2:
        rods.springs[i].natural_curvature[1] = v;
        break;
      case RestQuantity::natural_twist:
        rods.springs[i].natural_twist = v;
        break;
      case RestQuantity::rest_length:
        rods.rest_length[i] = v;
        break;
    }
  }
}

}  // namespace tendril
