#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "shell/shell_meshes.hpp"
#include "support/conformance.hpp"
#include "tendril/shell/hinge_bending.hpp"
#include "tendril/shell/membrane_cst.hpp"
#include "tendril/shell/membrane_springs.hpp"
#include "tendril/shell/midedge_bending.hpp"

namespace tendril {
namespace {

using namespace conformance;

/// The meshes every shell energy is checked on: irregular and curved (two seeds), flat equilateral,
/// a disc.
std::vector<io::TriangleMesh> conformance_meshes() {
  return {test::irregular_mesh(1), test::irregular_mesh(2),
          io::rectangle_mesh(1.0, 0.5 * std::sqrt(3.0), 4, 3, io::MeshPattern::equilateral),
          io::disc_mesh(0.8, 2)};
}

const Energy& term_named(const Model& model, std::string_view name) {
  for (const auto& e : model.energies)
    if (e->name() == name) return *e;
  ADD_FAILURE() << "no energy " << name;
  return *model.energies.front();
}

void expect_term_conforms(ShellBending bending, ShellMembrane membrane, std::string_view name) {
  int index = 0;
  for (const io::TriangleMesh& mesh : conformance_meshes()) {
    SCOPED_TRACE("mesh " + std::to_string(index++));
    const test::BuiltShell s = test::build(mesh, bending, membrane);
    const Energy& term = term_named(s.model, name);
    expect_zero_at_rest(term, s.model, s.frames, s.q);
    for (unsigned seed : {1u, 2u}) {
      const VecX q = perturbed(s.model, s.q, 0.08, 0.1, seed);
      expect_energy_conforms(term, s.model, s.frames, q);
      expect_rigid_motion_invariance(term, s.model, s.frames, q, seed);
    }
  }
}

TEST(ShellEnergies, HingeBendingConforms) {
  expect_term_conforms(ShellBending::hinge, ShellMembrane::cst, "hinge_bending");
}
TEST(ShellEnergies, MidEdgeBendingConforms) {
  expect_term_conforms(ShellBending::midedge, ShellMembrane::cst, "midedge_bending");
}
TEST(ShellEnergies, CstMembraneConforms) {
  expect_term_conforms(ShellBending::hinge, ShellMembrane::cst, "membrane_cst");
}
TEST(ShellEnergies, EdgeSpringMembraneConforms) {
  expect_term_conforms(ShellBending::hinge, ShellMembrane::edge_springs, "membrane_springs");
}

TEST(ShellEnergies, MidEdgeConformsWithAcceptedFramesAwayFromTheRestShape) {
  // tau^{k,0} of a deformed accepted state (as after some steps), trial point further away
  const test::BuiltShell s =
      test::build(test::irregular_mesh(3), ShellBending::midedge, ShellMembrane::cst);
  const VecX accepted_q = perturbed(s.model, s.q, 0.1, 0.1, 5);
  RodFrames accepted;
  initialize_frames(s.model, accepted_q, accepted);
  const VecX q = perturbed(s.model, accepted_q, 0.05, 0.05, 6);
  const Energy& term = term_named(s.model, "midedge_bending");
  expect_energy_conforms(term, s.model, accepted, q);
  expect_rigid_motion_invariance(term, s.model, accepted, q, 4);
}

TEST(ShellEnergies, HingeHandComputedValue) {
  // one hinge folded by 90 degrees from flat: E = 1/2 k_b (pi/2)^2, k_b = 2 D / sqrt 3,
  // D = E h^3 / (12 (1 - nu^2))
  io::TriangleMesh mesh;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 1, 0), Vec3(0.5, -1, 0)};
  mesh.triangles = {{0, 1, 2}, {0, 3, 1}};
  test::BuiltShell s = test::build(mesh, ShellBending::hinge, ShellMembrane::cst);
  ASSERT_EQ(s.model.shells.hinges.size(), 1u);
  const double k_b = 2.0 * (2.0 * std::pow(0.4, 3) / (12.0 * (1.0 - 0.09))) / std::sqrt(3.0);
  EXPECT_NEAR(s.model.shells.hinges[0].stiffness, k_b, 1e-15);
  VecX q = s.q;
  q.segment<3>(9) = Vec3(0.5, 0, 1);
  const EnergyEval at =
      evaluate_energy(term_named(s.model, "hinge_bending"), s.model, s.frames, q, false);
  EXPECT_NEAR(at.energy, 0.5 * k_b * std::pow(std::numbers::pi / 2, 2), 1e-14);
}

TEST(ShellEnergies, CstHandComputedValue) {
  // uniform biaxial stretch by (1 + a) of a flat triangle: G = ((1 + a)^2 - 1)/2 I = g I,
  // E = h A (mu 2 g^2 + lambda/2 (2 g)^2)
  io::TriangleMesh mesh;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.3, 0.8, 0)};
  mesh.triangles = {{0, 1, 2}};
  const test::BuiltShell s = test::build(mesh, ShellBending::hinge, ShellMembrane::cst);
  const double a = 0.1;
  const VecX q = (1.0 + a) * s.q;
  const double g = 0.5 * ((1 + a) * (1 + a) - 1);
  const double mu = 2.0 / (2 * 1.3), lambda = 2.0 * 0.3 / (1 - 0.09);
  const double expected = 0.4 * 0.4 * (mu * 2 * g * g + 0.5 * lambda * 4 * g * g);
  EXPECT_NEAR(
      evaluate_energy(term_named(s.model, "membrane_cst"), s.model, s.frames, q, false).energy,
      expected, 1e-14);
}

TEST(ShellEnergies, EdgeSpringStiffnessIsTheTrianglesShares) {
  // sqrt(3)/4 E h |e_bar| from each triangle of the edge (the triangular lattice with the
  // plane-stress E h, test_membrane_modulus.cpp): sqrt(3)/2 E h |e_bar| inside, sqrt(3)/4 E h
  // |e_bar| on the boundary
  const test::BuiltShell s = test::build(io::rectangle_mesh(1.0, 1.0, 3, 3, io::MeshPattern::right),
                                         ShellBending::hinge, ShellMembrane::edge_springs);
  ASSERT_EQ(s.model.shells.edge_springs.size(), s.model.shells.edges.size());
  for (const ShellEdgeSpring& spring : s.model.shells.edge_springs) {
    const bool interior =
        s.model.shells.edge_triangles[static_cast<std::size_t>(spring.edge)][1] >= 0;
    EXPECT_NEAR(spring.stiffness,
                (interior ? 2.0 : 1.0) * std::sqrt(3.0) / 4.0 * 2.0 * 0.4 * spring.rest_length,
                1e-15);
  }
}

}  // namespace
}  // namespace tendril
