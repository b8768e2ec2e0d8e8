#pragma once
/// Bend-twist springs at rod-shell joints (mat_dismech 3.4, Fig. 2g;
/// docs/physics/shells.md#rod-shell-joints).
///
/// A joint node is shared by a rod edge and one or more shell triangles. The shell edges of the
/// triangles around it are treated as rod edges too: each gets a reference frame (time-parallel
/// transported like a rod edge's) and a twist angle theta (DofMap::joint_twist, massless). Every
/// pair of these framed edges (the rod edges at the node and the joint's shell edges) that meet at
/// a node, except pairs of two rod edges (already rod springs), gets a DER bend-twist spring (eqs.
/// 11-16, rod/bend_twist.hpp), so that a rod glued to a shell passes bending and twisting moments.
/// Spring stiffnesses: the mean (EI_1, EI_2, GJ) of the rod edges at the joint node; Voronoi length
/// (|e_bar_a| + |e_bar_b|) / 2; natural curvatures and twists from the rest shape. Stencil DOFs:
/// (x_{k-1}, x_k, x_{k+1}, theta_a, theta_b) as for rods.

#include <string_view>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/term.hpp"

namespace tendril {

/// Sum of the bend-twist energies of Model::shells.joint_springs.
class RodShellJointEnergy final : public Energy {
 public:
  std::string_view name() const override { return "rod_shell_joint"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
};

/// Makes the given nodes bend-twist joints: adds the joint edges with their twist DOFs (appended to
/// q, zero mass, free), the joint springs and RodShellJointEnergy. Call after add_shells, once.
/// Throws InputError "rod_shell_joints[i]" naming the node when it is not on both a rod edge and a
/// triangle, or when two of its edges fold back onto each other.
void add_rod_shell_joints(Model& model, const std::vector<int>& joint_nodes);

}  // namespace tendril
