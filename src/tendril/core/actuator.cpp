#include "tendril/core/actuator.hpp"

namespace tendril {

void actuated_rods(const Model& model, double t, RodNetwork& rods) {
  rods = model.rods;  // vectors keep their storage
  for (const auto& actuator : model.actuators) actuator->apply(t, rods);
}

}  // namespace tendril
