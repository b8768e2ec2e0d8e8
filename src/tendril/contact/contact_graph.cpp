#include "tendril/contact/contact_graph.hpp"

#include <algorithm>
#include <cmath>

namespace tendril::contact {

ContactGraph::ContactGraph(const std::vector<std::array<int, 2>>& edges) {
  for (const auto& e : edges) {
    const int top = std::max(e[0], e[1]);
    if (static_cast<int>(neighbours_.size()) <= top) neighbours_.resize(top + 1);
    neighbours_[e[0]].push_back(e[1]);
    neighbours_[e[1]].push_back(e[0]);
  }
}

bool ContactGraph::near(const std::vector<int>& from, const std::vector<int>& to, int hops) const {
  std::vector<int> reach = from;
  for (int hop = 0; hop < hops; ++hop) {
    const std::size_t size = reach.size();
    for (std::size_t k = 0; k < size; ++k)
      if (reach[k] < static_cast<int>(neighbours_.size()))
        for (int n : neighbours_[reach[k]]) reach.push_back(n);
  }
  return std::any_of(to.begin(), to.end(), [&](int n) {
    return std::find(reach.begin(), reach.end(), n) != reach.end();
  });
}

double step_motion_allowance(const Model& model, const State& state, double distance_tolerance,
                             double& last_update_time) {
  double speed = 0.0;
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    speed = std::max(speed, state.u.segment<3>(model.dofs.node(i)).norm());
  const double elapsed =
      std::isfinite(last_update_time) ? std::max(0.0, state.time - last_update_time) : 0.0;
  last_update_time = state.time;
  return distance_tolerance + 2.0 * speed * elapsed;
}

}  // namespace tendril::contact
