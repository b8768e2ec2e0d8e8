#pragma once
/// Natural hinge angles of shells scheduled in time (mat_dismech 7, the manta ray: "we modify the
/// natural curvature angle phi_bar of the hinges in a sinusoidal manner"): for each chosen hinge k,
///   phi_bar_k(t) = phi_bar_k(0) + v_k(t),
/// with v_k a schedule (actuation/schedule.hpp) per hinge, e.g. sinusoids whose phase varies along
/// a line of hinges (a travelling wave). docs/physics/actuation.md.

#include <vector>

#include "tendril/actuation/schedule.hpp"
#include "tendril/core/actuator.hpp"

namespace tendril {

class HingeAngleSchedule final : public Actuator {
 public:
  /// hinges: indices into ShellMesh::hinges (#scheduled); schedules: v_k(t) [rad] (#scheduled).
  HingeAngleSchedule(const Model& model, std::vector<int> hinges, std::vector<Schedule> schedules);

  std::string_view name() const override { return "hinge_angle"; }
  void apply(double, RodNetwork&) const override {}
  void apply_hinges(double t, std::vector<ShellHinge>& hinges) const override;

 private:
  std::vector<int> hinges_;          ///< hinge indices (#scheduled)
  std::vector<double> initial_;      ///< phi_bar_k(0) [rad] (#scheduled)
  std::vector<Schedule> schedules_;  ///< v_k(t) [rad] (#scheduled)
};

}  // namespace tendril
