#pragma once
/// Actuation by time-varying rest quantities (granular_flagella IV-E: "updating the undeformed
/// configuration with time"; mat_dismech 6.1): an Actuator writes natural curvatures, natural
/// twists or rest lengths of the rod network, or natural hinge angles of shells (mat_dismech 7, the
/// manta ray), at time t. Model::actuators are applied by the solvers at the time of each Newton
/// solve (the intermediate time of implicit midpoint, every point of a static homotopy) to their
/// own copy of the rod data; the caller's Model is never changed. Implementations:
/// src/tendril/actuation/. See docs/physics/actuation.md.

#include <string_view>
#include <vector>

#include "tendril/core/model.hpp"

namespace tendril {

class Actuator {
 public:
  virtual ~Actuator() = default;
  virtual std::string_view name() const = 0;
  /// Writes the scheduled rest quantities at time t [s] into `rods`, which holds the Model's rod
  /// data (and what earlier actuators wrote); entries this actuator does not schedule are left
  /// alone.
  virtual void apply(double t, RodNetwork& rods) const = 0;
  /// Writes scheduled natural hinge angles at time t [s] into `hinges` (ShellMesh::hinges);
  /// default: none.
  virtual void apply_hinges(double /*t*/, std::vector<ShellHinge>& /*hinges*/) const {}
};

/// rods = model.rods, then every actuator of the model applied at time t [s] in order.
void actuated_rods(const Model& model, double t, RodNetwork& rods);
/// hinges = model.shells.hinges, then every actuator's apply_hinges at time t [s] in order.
void actuated_hinges(const Model& model, double t, std::vector<ShellHinge>& hinges);

}  // namespace tendril
