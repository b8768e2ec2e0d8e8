#include "tendril/shell/rod_shell_joint.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>

#include "tendril/core/error.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/shell_builder.hpp"

namespace tendril {

void RodShellJointEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  declare_bend_twist_sparsity(model, model.rods.springs.size(), framed_spring_count(model),
                              pattern);
}

void RodShellJointEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  accumulate_bend_twist(this, in.model.rods.springs.size(), framed_spring_count(in.model), in, out);
}

void add_rod_shell_joints(Model& model, const std::vector<int>& joint_nodes) {
  ShellMesh& mesh = model.shells;
  TENDRIL_ASSERT(mesh.joint_edges.empty() && model.prescribed.empty(),
                 "add_rod_shell_joints called twice or too late");
  const RodNetwork& rods = model.rods;
  const int num_rod_edges = static_cast<int>(rods.edges.size());
  TENDRIL_ASSERT(rods.bend_twist_stiffness.size() == rods.edges.size(),
                 "rod edges without bend-twist stiffness");
  const auto path = [](std::size_t i) { return "rod_shell_joints[" + std::to_string(i) + "]"; };

  std::map<int, int> joint_of_shell_edge;      // shell edge -> joint edge index
  std::set<std::tuple<int, int, int>> paired;  // (node, framed edge, framed edge) already sprung
  std::vector<BendTwistSpring> springs;
  for (std::size_t i = 0; i < joint_nodes.size(); ++i) {
    const int m = joint_nodes[i];
    if (m < 0 || m >= model.dofs.num_nodes)
      throw InputError(path(i), std::to_string(m),
                       "a node index in [0, " + std::to_string(model.dofs.num_nodes - 1) + "]");
    // the framed edges of this joint: rod edges at m, then every shell edge of the triangles around
    // m
    std::vector<int> group;
    Vec3 stiffness = Vec3::Zero();
    for (int e = 0; e < num_rod_edges; ++e) {
      const auto& nodes = rods.edges[static_cast<std::size_t>(e)];
      if (nodes[0] != m && nodes[1] != m) continue;
      group.push_back(e);
      stiffness += rods.bend_twist_stiffness[static_cast<std::size_t>(e)];
    }
    const auto rod_count = group.size();
    if (rod_count == 0)
      throw InputError(path(i), "node " + std::to_string(m),
                       "a node on a rod edge and a shell triangle");
    stiffness /= static_cast<double>(rod_count);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      const auto& tri = mesh.triangles[t];
      if (std::find(tri.begin(), tri.end(), m) == tri.end()) continue;
      for (int shell_edge : mesh.triangle_edges[t]) {
        const auto [it, fresh] =
            joint_of_shell_edge.emplace(shell_edge, static_cast<int>(mesh.joint_edges.size()));
        if (fresh) mesh.joint_edges.push_back(mesh.edges[static_cast<std::size_t>(shell_edge)]);
        const int framed = num_rod_edges + it->second;
        if (std::find(group.begin(), group.end(), framed) == group.end()) group.push_back(framed);
      }
    }
    if (group.size() == rod_count)
      throw InputError(path(i), "node " + std::to_string(m),
                       "a node on a rod edge and a shell triangle");
    // one spring per pair of framed edges meeting at a node, except two rod edges
    for (std::size_t a = 0; a < group.size(); ++a)
      for (std::size_t b = std::max(a + 1, rod_count); b < group.size(); ++b) {
        const auto& ea = framed_edge_nodes(model, group[a]);
        const auto& eb = framed_edge_nodes(model, group[b]);
        for (int node : ea) {
          if (node != eb[0] && node != eb[1]) continue;
          if (!paired.emplace(node, std::min(group[a], group[b]), std::max(group[a], group[b]))
                   .second)
            continue;
          BendTwistSpring s;
          s.node = node;
          s.edge_a = group[a];
          s.edge_b = group[b];
          s.sign_a = ea[1] == node ? 1 : -1;
          s.sign_b = eb[0] == node ? 1 : -1;
          s.bend_stiffness_1 = stiffness[0];
          s.bend_stiffness_2 = stiffness[1];
          s.twist_stiffness = stiffness[2];
          springs.push_back(s);
        }
      }
  }

  // twist DOFs of the joint edges after xi: free, massless, zero in the rest shape
  model.dofs.num_joint_edges = static_cast<int>(mesh.joint_edges.size());
  grow_massless_dofs(model);
  mesh.joint_springs = std::move(springs);
  const VecX q_rest = rest_configuration(model);
  const auto rest_length = [&](int f) {
    const auto& n = framed_edge_nodes(model, f);
    return (q_rest.segment<3>(model.dofs.node(n[1])) - q_rest.segment<3>(model.dofs.node(n[0])))
        .norm();
  };
  for (BendTwistSpring& s : mesh.joint_springs)
    s.voronoi_length = 0.5 * (rest_length(s.edge_a) + rest_length(s.edge_b));

  // rest shape: springs oriented as the rods' (orient_rest_springs), not folding back
  const std::size_t first = rods.springs.size();
  const Kinematics kin = orient_rest_springs(model, q_rest, mesh.joint_springs, first);
  for (std::size_t k = 0; k < mesh.joint_springs.size(); ++k) {
    BendTwistSpring& spring = mesh.joint_springs[k];
    const BendTwistStencil s = oriented_stencil(model, kin, q_rest, first + k);
    if (s.edge_a.normalized().dot(s.edge_b.normalized()) < -1.0 + 1e-6)
      throw InputError("nodes[" + std::to_string(spring.node) + "]",
                       "two edges of a rod-shell joint folding back onto each other",
                       "joint edges meeting at a node with a turning angle below 180 degrees");
    spring.natural_curvature = material_curvature(s);
    spring.natural_twist = spring_twist(s);
  }
  model.energies.push_back(std::make_shared<RodShellJointEnergy>());
}

}  // namespace tendril
