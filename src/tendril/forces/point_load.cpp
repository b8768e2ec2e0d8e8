#include "tendril/forces/point_load.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "tendril/core/error.hpp"

namespace tendril {

ForceHistory piecewise_linear(std::vector<double> times, std::vector<Vec3> values) {
  if (times.empty() || times.size() != values.size())
    throw InputError("times", std::to_string(times.size()) + " samples for " + std::to_string(values.size()) +
                                  " values",
                     "one time per value, at least one sample");
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k]) || (k > 0 && !(times[k] > times[k - 1])))
      throw InputError("times[" + std::to_string(k) + "]", std::to_string(times[k]),
                       "finite times in strictly increasing order [s]");
    if (!values[k].allFinite())
      throw InputError("values[" + std::to_string(k) + "]", "non-finite force", "finite forces [N]");
  }
  return [times = std::move(times), values = std::move(values)](double t) -> Vec3 {
    if (t <= times.front()) return values.front();
    if (t >= times.back()) return values.back();
    // first sample strictly after t; t lies in [times[k-1], times[k])
    const auto k = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
    const double w = (t - times[k - 1]) / (times[k] - times[k - 1]);
    return (1.0 - w) * values[k - 1] + w * values[k];
  };
}

PointLoad::PointLoad(int node, const Vec3& force) : node_(node), force_of_time_([force](double) { return force; }) {
  if (!force.allFinite()) throw InputError("point_load.force", "non-finite force", "finite force [N]");
}

PointLoad::PointLoad(int node, ForceHistory force_of_time, int) : node_(node), force_of_time_(std::move(force_of_time)) {
  if (!force_of_time_) throw InputError("point_load.force", "empty function", "a callable F(t) [N]");
}

void PointLoad::declare_sparsity(const Model& model, SparsityBuilder&) const {
  if (node_ < 0 || node_ >= model.dofs.num_nodes)
    throw InputError("point_load.node", std::to_string(node_),
                     "a node index in [0, " + std::to_string(model.dofs.num_nodes) + ")");
}

void PointLoad::accumulate(const EvalInput& in, ForceOutput& out) const {
  if (out.force == nullptr) return;
  out.force->segment<3>(in.model.dofs.node(node_)) += force_of_time_(in.time);
}

}  // namespace tendril
