#pragma once
/// A concentrated moment M(t) [N m] on one rod edge, fixed in space (a dead load). Its component
/// along the edge's tangent t twists the edge (generalised force M . t on theta_e [N m]); the rest
/// acts as a couple of forces F_1 = (M x e) / |e|^2 on node n_1 and F_0 = -F_1 on node n_0 [N],
/// whose moment e x F_1 = M - (M . t) t. Virtual work: M . (e x de / |e|^2 + t dtheta), the turn of
/// the edge's material frame (time-parallel transport adds no turn about t).
/// docs/physics/rods.md#point-moments. A dead moment in 3D is not conservative: dF/dq is not
/// symmetric (it is for a planar rod with M normal to its plane, where F = -dV/dq with V = -M phi).
/// In a static solve it is ramped with the load factor.

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"
#include "tendril/forces/point_load.hpp"

namespace tendril {

class PointMoment final : public ForceTerm {
 public:
  /// A constant moment M [N m] on edge `edge`.
  PointMoment(int edge, const Vec3& moment);
  /// A time-dependent moment M(t) [N m] (ForceHistory: any callable double -> Vec3).
  PointMoment(int edge, ForceHistory moment_of_time);

  std::string_view name() const override { return "point_moment"; }
  /// Declares the edge's stencil (n_0, n_1, theta_e); InputError "point_moment.edge" when out of
  /// range.
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  bool has_symmetric_jacobian() const override { return false; }

  int edge() const { return edge_; }

 private:
  int edge_;
  ForceHistory moment_of_time_;
};

}  // namespace tendril
