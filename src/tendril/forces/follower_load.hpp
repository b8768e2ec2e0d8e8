#pragma once
/// A follower load: a force of magnitude P(t) [N] along the current tangent t = e / |e| of one rod
/// edge, applied at the edge's end node n_1 (F = P t; P < 0 pushes against the tangent, a
/// compressive tip load on a rod's last edge: Beck's column). It turns with the rod, so it is not
/// conservative: dF/dx_1 = -dF/dx_0 = P (I - t t^T) / |e| is not symmetric.
/// docs/physics/rods.md#follower-loads.

#include <functional>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

class FollowerLoad final : public ForceTerm {
 public:
  /// P(t) [N] along the tangent of edge `edge`, at its end node.
  FollowerLoad(int edge, std::function<double(double)> magnitude_of_time);

  std::string_view name() const override { return "follower_load"; }
  /// Declares the edge's two nodes; InputError "follower_load.edge" when out of range.
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  bool has_symmetric_jacobian() const override { return false; }

 private:
  int edge_;
  std::function<double(double)> magnitude_of_time_;
};

}  // namespace tendril
