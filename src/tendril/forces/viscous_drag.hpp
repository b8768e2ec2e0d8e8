#pragma once
/// Viscous drag on nodes (mat_dismech 5.3, eq. 27-28):
///   F_i = - eta Delta l_i u_i,   dF_i/du_i = - eta Delta l_i I,   dF/dq = 0,
/// with eta the viscosity of the medium [Pa s], Delta l_i the node's Voronoi length [m]
/// (forces/voronoi_length.hpp, from the rest lengths when the term is built) and u_i = dx_i/dt
/// [m/s]. mat_dismech writes u_i as the backward difference (x_i(t_n) - x_i(t_{n-1}))/dt; here u is
/// the integrator's velocity unknown, which is that difference in implicit Euler and the midpoint
/// velocity in implicit midpoint (docs/physics/media.md). Twist DOFs feel no drag.
/// The Jacobian is diagonal, hence symmetric for any scales.

#include <vector>

#include "tendril/core/term.hpp"

namespace tendril {

class ViscousDrag final : public ForceTerm {
 public:
  /// nodes: node indices the drag acts on (#nodes in the set; empty = every node);
  /// viscosity: eta [Pa s] >= 0 (InputError "viscosity" otherwise; "nodes" for a bad index).
  ViscousDrag(const Model& model, std::vector<int> nodes, double viscosity);

  std::string_view name() const override { return "viscous_drag"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  bool has_symmetric_jacobian() const override { return true; }

  /// eta Delta l_i [N s/m] of each node of the set (#nodes in the set).
  const std::vector<double>& coefficients() const { return coefficient_; }
  const std::vector<int>& nodes() const { return nodes_; }

 private:
  std::vector<int> nodes_;           ///< node indices (#nodes in the set)
  std::vector<double> coefficient_;  ///< eta Delta l_i [N s/m] (#nodes in the set)
};

}  // namespace tendril
