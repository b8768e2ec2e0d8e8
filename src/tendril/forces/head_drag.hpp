#pragma once
/// Linear drag force and torque on a rigid head (granular_flagella IV-C, eq. 11-12; Stokes drag on
/// a sphere with shape factors):
///   F_h = - 6 pi C1 mu a v_h      on the head node x_h (v_h = dx_h/dt [m/s])
///   T_h = - 8 pi C2 mu a^3 omega_h on the twist DOF theta^h of the head edge (omega_h =
///   dtheta^h/dt [rad/s])
/// with C1, C2 [-] shape factors, mu [Pa s] the medium constant and a [m] the head radius. For a
/// sphere in a Newtonian fluid C1 = C2 = 1. Both Jacobians are diagonal (dF/dq = 0), hence
/// symmetric.

#include "tendril/core/term.hpp"

namespace tendril {

struct HeadDragParameters {
  double shape_factor_force = 1.0;   ///< C1 [-] >= 0
  double shape_factor_torque = 1.0;  ///< C2 [-] >= 0
  double mu = 0.0;                   ///< mu [Pa s] >= 0
  double radius = 0.0;               ///< a [m] > 0
  /// 6 pi C1 mu a [N s/m]
  double force_coefficient() const;
  /// 8 pi C2 mu a^3 [N m s]
  double torque_coefficient() const;
  /// InputError naming "C1", "C2", "mu" or "radius" when out of range.
  void validate() const;
};

class HeadDrag final : public ForceTerm {
 public:
  /// node: x_h, the node the force acts on; edge: the head edge whose twist gets the torque.
  HeadDrag(int node, int edge, const HeadDragParameters& parameters);

  std::string_view name() const override { return "head_drag"; }
  /// Checks node and edge against the model (InputError "node" / "edge").
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  bool has_symmetric_jacobian() const override { return true; }

  int node() const { return node_; }
  int edge() const { return edge_; }
  const HeadDragParameters& parameters() const { return parameters_; }

 private:
  int node_, edge_;
  HeadDragParameters parameters_;
  double force_coefficient_, torque_coefficient_;
};

}  // namespace tendril
