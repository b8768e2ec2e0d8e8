#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "rod/rod_shapes.hpp"
#include "tendril/core/error.hpp"
#include "tendril/geometry/curvature_binormal.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril {
namespace {

/// The key path of the InputError thrown by build_rod_model, or "" if none.
std::string error_key(const RodNetworkInput& input) {
  try {
    build_rod_model(input);
  } catch (const InputError& e) {
    return e.key_path();
  }
  return "";
}

TEST(RodBuilder, MassesSumToTotalMassAndTwistInertia) {
  const RodNetworkInput in = test::star_network();
  const Model model = build_rod_model(in);
  double line_mass = 0.0, twist_inertia = 0.0;
  for (std::size_t e = 0; e < in.edges.size(); ++e) {
    const RodMaterial& m = in.materials[static_cast<std::size_t>(in.edge_material[e])];
    const double length = (in.nodes[static_cast<std::size_t>(in.edges[e][1])] -
                           in.nodes[static_cast<std::size_t>(in.edges[e][0])])
                              .norm();
    const double area = m.radius ? std::numbers::pi * *m.radius * *m.radius : *m.area;
    const double polar =
        m.radius ? std::numbers::pi * std::pow(*m.radius, 4) / 2.0 : *m.inertia_1 + *m.inertia_2;
    line_mass += m.density * area * length;
    twist_inertia += m.density * polar * length;
    EXPECT_NEAR(model.mass[model.dofs.twist(static_cast<int>(e))], m.density * polar * length,
                1e-12);
  }
  const auto positions = model.mass.head(3 * model.dofs.num_nodes);
  EXPECT_NEAR(positions.sum() / 3.0, line_mass, 1e-12 * line_mass);
  EXPECT_NEAR(model.mass.tail(model.dofs.num_edges).sum(), twist_inertia, 1e-12 * twist_inertia);
  EXPECT_EQ(model.fixed.size(), static_cast<std::size_t>(model.dofs.size()));
  EXPECT_EQ(model.energies.size(), 2u);
}

TEST(RodBuilder, SpringCountForStarNetwork) {
  // 4 arms of 3 edges: 2 interior nodes per arm -> 8 springs, plus every pair of the 4 edges at the
  // joint: 6
  const Model model = build_rod_model(test::star_network());
  EXPECT_EQ(model.rods.springs.size(), 14u);
  int at_joint = 0;
  for (const BendTwistSpring& s : model.rods.springs) {
    at_joint += s.node == 0;
    // the signs orient edge_a into the node and edge_b out of it
    const auto& ea = model.rods.edges[static_cast<std::size_t>(s.edge_a)];
    const auto& eb = model.rods.edges[static_cast<std::size_t>(s.edge_b)];
    EXPECT_EQ(s.sign_a > 0 ? ea[1] : ea[0], s.node);
    EXPECT_EQ(s.sign_b > 0 ? eb[0] : eb[1], s.node);
  }
  EXPECT_EQ(at_joint, 6);
}

TEST(RodBuilder, JointSpringsKeepTheirBendingStiffness) {
  // a planar 3-arm star (arm 0 into the joint, arms 1, 2 out of it): without turning one frame by
  // pi, the spring between arms 1 and 2 starts with reference twist pi and (m_2^a + m_2^b) = 0,
  // i.e. no bending stiffness. Every joint spring must start untwisted with |(kappa_1, kappa_2)| =
  // |kappa b|.
  RodNetworkInput in;
  in.nodes.emplace_back(0.0, 0.0, 0.0);
  for (double angle : {0.3, 2.4, 4.5})
    for (int j = 1; j <= 2; ++j)
      in.nodes.emplace_back(0.5 * j * std::cos(angle), 0.5 * j * std::sin(angle), 0.0);
  in.edges = {{2, 1}, {1, 0}, {0, 3}, {3, 4}, {0, 5}, {5, 6}};
  in.materials = {test::unit_material()};
  // directors in the star's plane (the default +z would leave every joint spring untwisted)
  in.initial_director_hint.assign(in.edges.size(), Vec3::Zero());
  in.initial_director_hint[0] = Vec3(-std::sin(0.3), std::cos(0.3), 0.0);
  const test::BuiltRod rod = test::build(in);
  Kinematics kin;
  compute_kinematics(rod.model, rod.frames, rod.q, kin);
  int flipped = 0;
  for (std::size_t k = 0; k < rod.model.rods.springs.size(); ++k) {
    const BendTwistSpring& spring = rod.model.rods.springs[k];
    flipped += spring.director_sign_a < 0;
    const BendTwistStencil s = oriented_stencil(rod.model, kin, rod.q, k);
    EXPECT_LE(std::abs(kin.reference_twist[k]), 0.5 * std::numbers::pi);
    const double kb = curvature_binormal(s.edge_a.normalized(), s.edge_b.normalized()).norm();
    EXPECT_NEAR(material_curvature(s).norm(), kb, 1e-12) << "spring " << k;
    if (spring.node == 0) {
      EXPECT_GT(kb, 1.0);
    }
  }
  EXPECT_EQ(flipped, 1);
}

TEST(RodBuilder, CircularSectionStiffnessesAndVoronoiLength) {
  // r = 0.8: A = pi r^2, I = pi r^4 / 4, J = pi r^4 / 2; G = E / (2 (1 + nu)) = 1
  const Model model = build_rod_model(test::straight_rod(3));
  const double r = 0.8;
  EXPECT_NEAR(model.rods.stretch_stiffness[0], 3.0 * std::numbers::pi * r * r, 1e-12);
  const BendTwistSpring& s = model.rods.springs.at(0);
  EXPECT_NEAR(s.bend_stiffness_1, 3.0 * std::numbers::pi * std::pow(r, 4) / 4.0, 1e-12);
  EXPECT_NEAR(s.twist_stiffness, 1.0 * std::numbers::pi * std::pow(r, 4) / 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.voronoi_length, 0.5);
  EXPECT_DOUBLE_EQ(model.rods.rest_length[2], 0.5);
}

TEST(RodBuilder, NaturalShapeFromGeometryOrStraight) {
  RodNetworkInput in = test::helix(6);
  const Model curved = build_rod_model(in);
  in.natural_shape = NaturalShape::straight;
  const Model straight = build_rod_model(in);
  EXPECT_GT(curved.rods.springs[2].natural_curvature.norm(), 0.1);
  EXPECT_EQ(straight.rods.springs[2].natural_curvature.norm(), 0.0);
  EXPECT_EQ(straight.rods.springs[2].natural_twist, 0.0);
}

TEST(RodBuilder, StiffnessOverrides) {
  RodNetworkInput in = test::straight_rod(3);
  StiffnessOverride rigid_edge;
  rigid_edge.edge = 0;
  rigid_edge.stretch_stiffness = 1e6;
  rigid_edge.bend_stiffness = 1e4;
  StiffnessOverride node;
  node.node = 2;
  node.twist_stiffness = 7.0;
  in.overrides = {rigid_edge, node};
  const Model model = build_rod_model(in);
  EXPECT_EQ(model.rods.stretch_stiffness[0], 1e6);
  const double ei = 3.0 * std::numbers::pi * std::pow(0.8, 4) / 4.0;
  EXPECT_NEAR(model.rods.springs[0].bend_stiffness_1, 0.5 * (1e4 + ei),
              1e-9);                                      // spring at node 1: edges 0, 1
  EXPECT_EQ(model.rods.springs[1].twist_stiffness, 7.0);  // spring at node 2
}

TEST(RodBuilder, DirectorHintsSeedEachArmOfAStar) {
  // docs/conventions.md#material-frame-at-t--0: an edge with a hint starts with a_1 = the hint made
  // normal to it; its chain receives it by parallel transport before any joint spreads frames
  RodNetworkInput in;
  in.nodes.emplace_back(0.0, 0.0, 0.0);
  const Vec3 directions[3] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}};
  const Vec3 hints[3] = {{0, 1, 0}, {0, 0, 1}, {0, 1, 1}};
  for (int arm = 0; arm < 3; ++arm) {
    const int first = static_cast<int>(in.nodes.size());
    for (int j = 1; j <= 3; ++j) in.nodes.push_back(0.5 * j * directions[arm]);
    in.edges.insert(in.edges.end(), {{0, first}, {first, first + 1}, {first + 1, first + 2}});
    for (int j = 0; j < 3; ++j)
      in.initial_director_hint.push_back(j == 0 ? hints[arm] : Vec3::Zero());
  }
  in.materials = {test::unit_material()};
  const test::BuiltRod rod = test::build(in);
  for (int arm = 0; arm < 3; ++arm)
    for (int j = 0; j < 3; ++j)
      EXPECT_LE((rod.frames.reference_director[3 * arm + j] - hints[arm].normalized()).norm(),
                1e-14)
          << "arm " << arm << " edge " << j;
  // without hints the whole star is transported from its first edge, which gets +z
  in.initial_director_hint.clear();
  const test::BuiltRod plain = test::build(in);
  for (const Vec3& a1 : plain.frames.reference_director)
    EXPECT_LE((a1 - Vec3::UnitZ()).norm(), 1e-14);
}

TEST(RodBuilder, BadInputNamesTheKey) {
  RodNetworkInput in = test::straight_rod(3);
  in.edges[2][1] = 9;
  EXPECT_EQ(error_key(in), "edges[2][1]");

  in = test::straight_rod(3);
  in.nodes[1] = in.nodes[2];
  EXPECT_EQ(error_key(in), "edges[1]");  // zero length

  in = test::straight_rod(3);
  in.nodes[3].y() = std::nan("");
  EXPECT_EQ(error_key(in), "nodes[3][1]");

  in = test::straight_rod(3);
  in.edges.clear();
  EXPECT_EQ(error_key(in), "edges");

  in = test::straight_rod(3);
  in.materials[0].youngs_modulus = -1.0;
  EXPECT_EQ(error_key(in), "materials[0].E");

  in = test::straight_rod(3);
  in.materials[0].poisson_ratio = 0.7;
  EXPECT_EQ(error_key(in), "materials[0].nu");

  in = test::straight_rod(3);
  in.materials[0].radius.reset();
  EXPECT_EQ(error_key(in), "materials[0].radius");

  in = test::straight_rod(3);
  in.edge_material = {0, 0, 1};
  EXPECT_EQ(error_key(in), "edge_material[2]");

  in = test::straight_rod(3);
  in.overrides.push_back(StiffnessOverride{});
  in.overrides[0].edge = 1;
  in.overrides[0].bend_stiffness = -5.0;
  EXPECT_EQ(error_key(in), "overrides[0].EI");

  in = test::straight_rod(3);
  in.nodes.emplace_back(5.0, 5.0, 5.0);
  EXPECT_EQ(error_key(in), "nodes[4]");  // on no edge

  in = test::straight_rod(2);
  in.nodes[2] = Vec3(0.1, 0.0, 0.0);  // edge 1 folds back onto edge 0
  EXPECT_EQ(error_key(in), "nodes[1]");

  in = test::straight_rod(3);
  in.initial_director_hint.assign(3, Vec3::Zero());
  in.initial_director_hint[1] = Vec3(-2.0, 0.0, 0.0);  // along the edge
  EXPECT_EQ(error_key(in), "initial_director_hint[1]");
  in.initial_director_hint.pop_back();
  EXPECT_EQ(error_key(in), "initial_director_hint");

  try {
    in = test::straight_rod(3);
    in.edges[0][0] = -2;
    build_rod_model(in);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.value(), "-2");
    EXPECT_NE(std::string(e.what()).find("edges[0][0]"), std::string::npos);
  }
}

}  // namespace
}  // namespace tendril
