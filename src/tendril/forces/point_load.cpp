#include "tendril/forces/point_load.hpp"

#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/piecewise_linear.hpp"

namespace tendril {

ForceHistory piecewise_linear(std::vector<double> times, std::vector<Vec3> values) {
  return tendril::piecewise_linear<Vec3>(std::move(times), std::move(values));
}

PointLoad::PointLoad(int node, const Vec3& force)
    : node_(node), force_of_time_([force](double) { return force; }) {
  if (!force.allFinite())
    throw InputError("point_load.force", "non-finite force", "finite force [N]");
}

PointLoad::PointLoad(int node, ForceHistory force_of_time, int)
    : node_(node), force_of_time_(std::move(force_of_time)) {
  if (!force_of_time_)
    throw InputError("point_load.force", "empty function", "a callable F(t) [N]");
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
