// Rod-shell joint bend-twist springs (mat_dismech 3.4, Fig. 2g): topology of the paper's
// one-triangle joint, and the conformance suite (FD gradient and Hessian, symmetry, zero at rest,
// rigid-motion invariance) on regular, irregular and curved meshes with rods leaving the shell out
// of its plane and in it.
#include <cmath>

#include <gtest/gtest.h>

#include "rod/rod_shapes.hpp"
#include "shell/shell_meshes.hpp"
#include "support/conformance.hpp"
#include "tendril/core/error.hpp"
#include "tendril/shell/rod_shell_joint.hpp"

namespace tendril {
namespace {

using namespace conformance;

/// A shell on `mesh` with a straight rod of `edges` edges glued to each node in `joints`, leaving
/// it along the matching direction; the joint node is the rod's first node.
struct JointedModel {
  Model model;
  VecX q;
  RodFrames frames;
};

JointedModel build_jointed(const io::TriangleMesh& mesh, ShellBending bending,
                           const std::vector<int>& joints, const std::vector<Vec3>& directions,
                           int edges = 3) {
  RodNetworkInput rods;
  std::vector<int> model_node(mesh.nodes.size(), -1);
  for (std::size_t r = 0; r < joints.size(); ++r) {
    const int first = static_cast<int>(rods.nodes.size());
    model_node[static_cast<std::size_t>(joints[r])] = first;
    for (int i = 0; i <= edges; ++i)
      rods.nodes.push_back(mesh.nodes[static_cast<std::size_t>(joints[r])] +
                           0.25 * i * directions[r]);
    for (int i = 0; i < edges; ++i) rods.edges.push_back({first + i, first + i + 1});
  }
  rods.materials.push_back(test::anisotropic_material());
  JointedModel out;
  out.model = build_rod_model(rods);
  std::vector<Vec3> shell_nodes;
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    if (model_node[i] >= 0) continue;
    model_node[i] = out.model.dofs.num_nodes + static_cast<int>(shell_nodes.size());
    shell_nodes.push_back(mesh.nodes[i]);
  }
  append_nodes(out.model, shell_nodes);
  ShellInput shell = test::shell_input(mesh, bending, ShellMembrane::cst);
  for (auto& t : shell.triangles)
    for (int& n : t) n = model_node[static_cast<std::size_t>(n)];
  add_shells(out.model, {shell});
  std::vector<int> joint_nodes;
  for (int j : joints) joint_nodes.push_back(model_node[static_cast<std::size_t>(j)]);
  add_rod_shell_joints(out.model, joint_nodes);
  out.q = rest_configuration(out.model);
  initialize_frames(out.model, out.q, out.frames);
  return out;
}

const Energy& joint_term(const Model& model) {
  for (const auto& e : model.energies)
    if (e->name() == "rod_shell_joint") return *e;
  ADD_FAILURE() << "no rod_shell_joint energy";
  return *model.energies.front();
}

TEST(RodShellJoint, OneTriangleHasThePapersFiveSprings) {
  // Fig. 2g: rod edge e^k into x_m, triangle (x_m, x_n, x_l): springs (k, p) and (r, k) at x_m, and
  // (p, q), (q, r), (r, p) at the triangle's three nodes; the three shell edges get twist DOFs
  io::TriangleMesh mesh;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.4, 0.9, 0)};
  mesh.triangles = {{0, 1, 2}};
  const JointedModel j = build_jointed(mesh, ShellBending::hinge, {0}, {Vec3(-0.3, -0.2, -1.0)}, 1);
  EXPECT_EQ(j.model.shells.joint_edges.size(), 3u);
  EXPECT_EQ(j.model.dofs.num_joint_edges, 3);
  ASSERT_EQ(j.model.shells.joint_springs.size(), 5u);
  int at_joint = 0;
  for (const BendTwistSpring& s : j.model.shells.joint_springs) {
    at_joint += s.node == 0;
    // the rod's section: EI_1 = 2 * 0.5, EI_2 = 2 * 1.3, GJ = 0.7 * 0.9
    EXPECT_DOUBLE_EQ(s.bend_stiffness_1, 1.0);
    EXPECT_DOUBLE_EQ(s.bend_stiffness_2, 2.6);
    EXPECT_DOUBLE_EQ(s.twist_stiffness, 0.63);
  }
  EXPECT_EQ(at_joint, 3);
  EXPECT_EQ(j.model.mass.size(), j.model.dofs.size());
}

TEST(RodShellJoint, Conforms) {
  struct Case {
    io::TriangleMesh mesh;
    std::vector<int> joints;
    std::vector<Vec3> directions;
  };
  const io::TriangleMesh equilateral =
      io::rectangle_mesh(1.0, 0.5 * std::sqrt(3.0), 4, 3, io::MeshPattern::equilateral);
  const std::vector<Case> cases = {
      // irregular curved meshes: a rod out of the surface at an interior node, one in the plane at
      // a corner
      {test::irregular_mesh(1),
       {6, 0},
       {Vec3(0.2, -0.1, 1.0).normalized(), Vec3(-1.0, -0.3, 0.05).normalized()}},
      {test::irregular_mesh(2),
       {7, 19},
       {Vec3(-0.1, 0.3, -1.0).normalized(), Vec3(0.8, 0.6, 0.2).normalized()}},
      // flat regular mesh: two adjacent joint nodes share joint edges
      {equilateral, {5, 6}, {Vec3(0, 0, 1), Vec3(0.1, 0.2, 1.0).normalized()}},
      {io::disc_mesh(0.8, 2), {0}, {Vec3(0.3, 0.1, -1.0).normalized()}},
  };
  int index = 0;
  for (const Case& c : cases)
    for (ShellBending bending : {ShellBending::hinge, ShellBending::midedge}) {
      SCOPED_TRACE("case " + std::to_string(index++));
      const JointedModel j = build_jointed(c.mesh, bending, c.joints, c.directions);
      const Energy& term = joint_term(j.model);
      expect_zero_at_rest(term, j.model, j.frames, j.q);
      for (unsigned seed : {1u, 2u}) {
        const VecX q = perturbed(j.model, j.q, 0.05, 0.1, seed);
        expect_energy_conforms(term, j.model, j.frames, q);
        expect_rigid_motion_invariance(term, j.model, j.frames, q, seed);
      }
      // accepted frames of a deformed state (as after some steps), trial point further away
      const VecX accepted_q = perturbed(j.model, j.q, 0.05, 0.1, 5);
      RodFrames accepted;
      initialize_frames(j.model, accepted_q, accepted);
      const VecX q = perturbed(j.model, accepted_q, 0.03, 0.05, 6);
      expect_energy_conforms(term, j.model, accepted, q);
      expect_rigid_motion_invariance(term, j.model, accepted, q, 4);
    }
}

TEST(RodShellJoint, BadNodesAreNamed) {
  io::TriangleMesh mesh;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.4, 0.9, 0)};
  mesh.triangles = {{0, 1, 2}};
  Model fresh = build_shell_model(
      mesh.nodes, {test::shell_input(mesh, ShellBending::hinge, ShellMembrane::cst)});
  try {
    add_rod_shell_joints(fresh, {1});
    ADD_FAILURE() << "no error for a joint without a rod edge";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rod_shell_joints[0]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tendril
