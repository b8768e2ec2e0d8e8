#pragma once
/// Objectives of a run: L = sum over the run's states k = 0..N of l_k(q_k, u_k), each term with its
/// gradient (docs/physics/gradients.md, "Objectives").

#include <functional>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/state.hpp"

namespace tendril::adjoint {

struct Objective {
  /// l_k at state k of the run (step k = 0 .. steps): returns its value and adds dl_k/dq into dq
  /// and dl_k/du into du (#dofs each).
  std::function<double(int step, const State& state, VecX& dq, VecX& du)> at_state;
  /// For objectives that read the reference frames (a material director, the twist energy): adds
  /// dl_k/dphi at state k into dphi (#rod edges), phi^e the turn of edge e's reference director
  /// about its tangent (docs/physics/gradients.md, "The frame angle"). Empty: l_k does not depend
  /// on phi.
  std::function<void(int step, const State& state, VecX& dphi)> frame_angle_gradient;
  /// For objectives that read the parameters themselves (an energy: the masses, stiffnesses and
  /// rest quantities they set): adds dl_k/dp at state k, the state held fixed, into dp (#parameters
  /// of the run); the gradient is this plus the path through the states. Empty: l_k reads no
  /// parameter.
  std::function<void(int step, const State& state, VecX& dp)> parameter_gradient = nullptr;
};

/// Where node `node` should be after step `step` [m].
struct NodeTarget {
  int node = 0;
  int step = 0;
  Vec3 target = Vec3::Zero();
};

/// L = 1/2 sum_i |x_{node_i}(step_i) - target_i|^2 [m^2]: positions of chosen nodes at chosen
/// steps. Node indices are checked against `model` (InputError "targets[i].node").
Objective distance_to_targets(const Model& model, std::vector<NodeTarget> targets);

/// L = sum_{k=1}^{N} dt d . x_node(t_k) [m s]: the time integral (right Riemann sum) of node
/// `node`'s position along `direction` over the run (InputError "node" for a bad index).
Objective position_time_integral(const Model& model, int node, const Vec3& direction, double dt);

/// L = d . x_node(t_step) [m]: node `node`'s position along `direction` at state `step` (a
/// coordinate when d is a unit axis). InputError "node" for a bad index, "step" if step < 0.
Objective node_position(const Model& model, int node, const Vec3& direction, int step);

/// L = the sum of `terms`.
Objective sum(std::vector<Objective> terms);

}  // namespace tendril::adjoint
