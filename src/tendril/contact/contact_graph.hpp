#pragma once
/// The node graph of the contact edges (rod edges and shell edges), used to exclude pairs that are
/// neighbours in the structure and touch in its initial shape (docs/physics/contact.md,
/// "Excluded pairs"), and the motion allowance that sizes the candidate pairs of a step.

#include <array>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"

namespace tendril::contact {

class ContactGraph {
 public:
  /// edges: (n0, n1) node indices.
  explicit ContactGraph(const std::vector<std::array<int, 2>>& edges);
  /// True if a node of `to` is reachable from a node of `from` through at most `hops` edges.
  bool near(const std::vector<int>& from, const std::vector<int>& to, int hops = 2) const;

 private:
  std::vector<std::vector<int>> neighbours_;
};

/// The extra growth m [m] of the candidate boxes for the step starting at `state`:
/// m = delta + 2 max_i |u_i| (t - t_last), twice the largest node displacement of the last step
/// estimated from the velocity (delta alone on the first call). Updates last_update_time [s]
/// (NaN before the first call).
double step_motion_allowance(const Model& model, const State& state, double distance_tolerance,
                             double& last_update_time);

}  // namespace tendril::contact
