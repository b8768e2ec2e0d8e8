#include "tendril/core/actuator.hpp"

namespace tendril {

void actuated_rods(const Model& model, double t, RodNetwork& rods) {
  rods = model.rods;  // vectors keep their storage
  for (const auto& actuator : model.actuators) actuator->apply(t, rods);
}

void actuated_hinges(const Model& model, double t, std::vector<ShellHinge>& hinges) {
  hinges = model.shells.hinges;  // the vector keeps its storage
  for (const auto& actuator : model.actuators) actuator->apply_hinges(t, hinges);
}

}  // namespace tendril
