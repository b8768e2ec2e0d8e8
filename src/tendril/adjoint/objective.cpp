#include "tendril/adjoint/objective.hpp"

#include <string>

#include "tendril/core/error.hpp"

namespace tendril::adjoint {
namespace {

void check_node(const Model& model, int node, const std::string& key) {
  if (node < 0 || node >= model.dofs.num_nodes)
    throw InputError(key, std::to_string(node),
                     "a node index in [0, " + std::to_string(model.dofs.num_nodes) + ")");
}

}  // namespace

Objective distance_to_targets(const Model& model, std::vector<NodeTarget> targets) {
  for (std::size_t i = 0; i < targets.size(); ++i)
    check_node(model, targets[i].node, "targets[" + std::to_string(i) + "].node");
  const DofMap dofs = model.dofs;
  return {[dofs, targets = std::move(targets)](int step, const State& s, VecX& dq, VecX&) {
            double value = 0.0;
            for (const NodeTarget& t : targets) {
              if (t.step != step) continue;
              const int d = dofs.node(t.node);
              const Vec3 miss = s.q.segment<3>(d) - t.target;
              value += 0.5 * miss.squaredNorm();
              dq.segment<3>(d) += miss;
            }
            return value;
          },
          {}};
}

Objective position_time_integral(const Model& model, int node, const Vec3& direction, double dt) {
  check_node(model, node, "node");
  const int d = model.dofs.node(node);
  return {[d, direction, dt](int step, const State& s, VecX& dq, VecX&) {
            if (step == 0) return 0.0;
            dq.segment<3>(d) += dt * direction;
            return dt * direction.dot(s.q.segment<3>(d));
          },
          {}};
}

Objective node_position(const Model& model, int node, const Vec3& direction, int step) {
  check_node(model, node, "node");
  if (step < 0) throw InputError("step", std::to_string(step), "a state index >= 0");
  const int d = model.dofs.node(node);
  return {[d, direction, step](int k, const State& s, VecX& dq, VecX&) {
            if (k != step) return 0.0;
            dq.segment<3>(d) += direction;
            return direction.dot(s.q.segment<3>(d));
          },
          {}};
}

Objective sum(std::vector<Objective> terms) {
  Objective total;
  total.at_state = [terms](int step, const State& s, VecX& dq, VecX& du) {
    double value = 0.0;
    for (const Objective& term : terms) value += term.at_state(step, s, dq, du);
    return value;
  };
  total.frame_angle_gradient = [terms](int step, const State& s, VecX& dphi) {
    for (const Objective& term : terms)
      if (term.frame_angle_gradient) term.frame_angle_gradient(step, s, dphi);
  };
  total.parameter_gradient = [terms](int step, const State& s, VecX& dp) {
    for (const Objective& term : terms)
      if (term.parameter_gradient) term.parameter_gradient(step, s, dp);
  };
  return total;
}

}  // namespace tendril::adjoint
