// Rod scenes: generators, the clamp convention, materials, joints, boundary conditions, natural
// curvature conversion, and InputErrors naming key path and value for bad scenes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/io/rod_generators.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

namespace fs = std::filesystem;

RodScene load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_rod_scene_text(text, overrides, "test.yaml");
}

const std::string kMaterial = "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n";

std::string straight(int nodes, const std::string& clamp = "none", const std::string& extra = "") {
  return "duration: 0.01\nrods:\n  - geometry: {type: straight, direction: [1, 0, 0], length: 1.0, "
         "num_nodes: " +
         std::to_string(nodes) + "}\n    clamp: " + clamp + "\n" + kMaterial + extra;
}

using testing::expect_input_error;

TEST(Generators, StraightRodEdgeLengths) {
  const io::Polyline p = io::straight_rod(Vec3(1, 2, 3), Vec3(0, 0, 1), 2.0, 4, false);
  ASSERT_EQ(p.nodes.size(), 5u);
  ASSERT_EQ(p.edges.size(), 4u);
  for (const auto& e : p.edges) EXPECT_NEAR((p.nodes[e[1]] - p.nodes[e[0]]).norm(), 0.5, 1e-15);
  EXPECT_TRUE(p.nodes.back().isApprox(Vec3(1, 2, 5)));
}

TEST(Generators, ClampOffsetPutsFirstEdgeMidpointAtStart) {
  // clamp convention: length measured from the midpoint of the fixed first edge to the free end
  const io::Polyline p = io::straight_rod(Vec3::Zero(), Vec3(1, 0, 0), 1.0, 10, true);
  const double dl = 1.0 / 9.5;
  EXPECT_NEAR((p.nodes[1] - p.nodes[0]).norm(), dl, 1e-15);
  EXPECT_NEAR((0.5 * (p.nodes[0] + p.nodes[1])).norm(), 0.0, 1e-15);
  EXPECT_NEAR(p.nodes.back().x(), 1.0, 1e-14);
}

TEST(Generators, HelixRadiusAndPitch) {
  const Vec3 axis = Vec3(1, 1, 0).normalized();
  const Vec3 center(0.5, -1, 2);
  const double R = 0.3, pitch = 0.1, turns = 3;
  const int n = 61;  // 20 nodes per turn
  const io::Polyline p = io::helix(center, axis, R, pitch, turns, n);
  ASSERT_EQ(p.nodes.size(), static_cast<std::size_t>(n));
  for (const Vec3& x : p.nodes) {
    const Vec3 r = x - center;
    EXPECT_NEAR((r - r.dot(axis) * axis).norm(), R, 1e-14);  // distance from the axis
  }
  // one turn later (20 nodes) the point has risen by the pitch along the axis, same radial position
  for (int i = 0; i + 20 < n; ++i)
    EXPECT_TRUE((p.nodes[i + 20] - p.nodes[i]).isApprox(pitch * axis, 1e-12));
  const double edge = (p.nodes[1] - p.nodes[0]).norm();
  EXPECT_NEAR(edge, std::hypot(2 * R * std::sin(std::numbers::pi / 20), pitch / 20), 1e-14);
}

TEST(Generators, CircleClosedAndOpen) {
  const io::Polyline closed = io::circle(Vec3::Zero(), Vec3(0, 0, 1), 2.0, 12, true);
  EXPECT_EQ(closed.edges.size(), 12u);
  EXPECT_EQ(closed.edges.back(), (std::array<int, 2>{11, 0}));
  for (const Vec3& x : closed.nodes) EXPECT_NEAR(x.norm(), 2.0, 1e-14);
  EXPECT_EQ(io::circle(Vec3::Zero(), Vec3(0, 0, 1), 2.0, 12, false).edges.size(), 11u);
}

TEST(RodScene, CantileverClampAndMaterial) {
  const RodScene s = load(straight(11, "start"));
  EXPECT_EQ(s.model.dofs.num_nodes, 11);
  EXPECT_EQ(s.model.dofs.num_edges, 10);
  // clamp: nodes 0, 1 and the twist of edge 0 are fixed, nothing else
  int fixed = 0;
  for (auto f : s.model.fixed) fixed += f;
  EXPECT_EQ(fixed, 7);
  EXPECT_TRUE(s.model.fixed[s.model.dofs.twist(0)]);
  // free length from the clamp point (x = 0) is 1 m
  EXPECT_NEAR(s.q_initial[3 * 10], 1.0, 1e-14);
  EXPECT_NEAR(s.q_initial[0] + s.q_initial[3], 0.0, 1e-14);
  // EA = E pi r^2
  EXPECT_NEAR(s.model.rods.stretch_stiffness[0], 1e7 * std::numbers::pi * 25e-6, 1e-6);
}

TEST(RodScene, HorizontalRodsStartWithFirstMaterialDirectorUp) {
  // docs/conventions.md#material-frame-at-t--0: without `m1`, m1 = +z made normal to the first
  // edge, for any horizontal direction (the former rule gave +z along +x but -z along +y and -x)
  for (const char* d :
       {"[1, 0, 0]", "[0, 1, 0]", "[-1, 0, 0]", "[1, 0.1, 0.09]", "[1, 0.09, 0.1]"}) {
    const RodScene s =
        load("duration: 0.01\nrods:\n  - geometry: {type: straight, direction: " + std::string(d) +
             ", length: 1.0, num_nodes: 5}\n" + kMaterial);
    RodFrames frames;
    initialize_frames(s.model, s.q_initial, frames);
    const Vec3 t = frames.tangent[0];
    const Vec3 expected = (Vec3::UnitZ() - t.z() * t).normalized();
    for (const Vec3& a1 : frames.reference_director) EXPECT_LE((a1 - expected).norm(), 1e-14) << d;
  }
}

TEST(RodScene, M1KeySetsTheInitialMaterialFrame) {
  const RodScene s = load(straight(5, "none", "    m1: [0.5, 1, 1]\n"));
  RodFrames frames;
  initialize_frames(s.model, s.q_initial, frames);
  Kinematics kin;
  compute_kinematics(s.model, frames, s.q_initial, kin);
  for (const Vec3& m1 : kin.material_director_1)
    EXPECT_LE((m1 - Vec3(0, 1, 1).normalized()).norm(), 1e-14);
  testing::expect_input_error([] { load(straight(5, "none", "    m1: [-2, 0, 0]\n")); },
                              {"rods[0].m1", "[-2, 0, 0]", "not parallel to the rod's first edge"});
}

TEST(RodScene, NaturalCurvatureBendsTowardsM1) {
  // a clamped rod with natural curvature [k, 0] and no load is stress-free as the polygon that
  // turns by k l at every spring in the plane of t and m1
  // (docs/conventions.md#natural-curvature-and-twist-in-scenes)
  const double k = 2.0, length = 1.0;
  const int num_nodes = 21;
  Simulation sim(
      load("duration: 0\nrods:\n  - geometry: {type: straight, direction: [1, 0, 0], length: 1.0, "
           "num_nodes: " +
           std::to_string(num_nodes) + "}\n    clamp: start\n" + kMaterial +
           "    m1: [0, 1, 1]\n    natural_curvature: [2.0, 0]\nintegrator: {type: static}\n"));
  ASSERT_TRUE(sim.step().ok());
  const double dl = length / (num_nodes - 1.5);
  const Vec3 m1 = Vec3(0, 1, 1).normalized();
  Vec3 tip = 0.5 * dl * Vec3::UnitX();  // the first edge's midpoint is the clamp point, the origin
  for (int j = 1; j < num_nodes - 1; ++j)
    tip += dl * (std::cos(j * k * dl) * Vec3::UnitX() + std::sin(j * k * dl) * m1);
  const VecX& q = sim.state().q;
  EXPECT_LE((q.segment<3>(3 * (num_nodes - 1)) - tip).norm(), 1e-6);
  EXPECT_GT(q.segment<3>(3 * (num_nodes - 1)).dot(m1), 0.3);
}

TEST(RodScene, NaturalCurvatureIsIntegratedPerSpring) {
  const RodScene s =
      load(straight(11, "none", "    natural_curvature: [2.0, -1.0]\n    natural_twist: 3.0\n"));
  const double l = 0.1, k = std::sqrt(5.0);
  for (const BendTwistSpring& sp : s.model.rods.springs) {
    EXPECT_NEAR(sp.voronoi_length, l, 1e-14);
    // |kappa b| = 2 tan(|kappa| l / 2) along (kappa1, kappa2)
    EXPECT_NEAR(sp.natural_curvature.norm(), 2 * std::tan(k * l / 2), 1e-14);
    EXPECT_NEAR(sp.natural_curvature.x() / sp.natural_curvature.y(), -2.0, 1e-12);
    EXPECT_NEAR(sp.natural_twist, 3.0 * l, 1e-14);
  }
}

TEST(RodScene, StarJointMergesNodes) {
  std::string text = "duration: 0.01\nrods:\n";
  for (const char* d : {"[1, 0, 0]", "[0, 1, 0]", "[-1, 0, 0]"})
    text += std::string("  - geometry: {type: straight, direction: ") + d +
            ", length: 1, num_nodes: 5}\n" + kMaterial;
  text += "joints:\n  - nodes: [[0, 0], [1, 0], [2, 0]]\n";
  const RodScene s = load(text);
  EXPECT_EQ(s.model.dofs.num_nodes, 13);  // 15 nodes, hub counted once
  EXPECT_EQ(s.rod_nodes[1][0], s.rod_nodes[0][0]);
  EXPECT_EQ(s.rod_nodes[2][0], s.rod_nodes[0][0]);
  // 3 springs per limb + 3 pairs at the hub
  EXPECT_EQ(s.model.rods.springs.size(), 12u);
}

TEST(RodScene, BoundaryConditionsAndLoads) {
  const RodScene s =
      load(straight(6, "none",
                    "boundary_conditions:\n"
                    "  fixed_nodes: [{nodes: [0]}]\n"
                    "  fixed_twists: [{edges: [-1]}]\n"
                    "  fixed_dofs: [{node: -1, components: [x, z]}]\n"
                    "forces:\n  gravity: [0, 0, -9.81]\n"
                    "  point_loads: [{node: 2, table: [[0, 0, 0, 0], [1, 0, 0, -1]]}]\n"));
  const DofMap& d = s.model.dofs;
  EXPECT_TRUE(s.model.fixed[0] && s.model.fixed[1] && s.model.fixed[2]);
  EXPECT_TRUE(s.model.fixed[d.twist(4)]);
  EXPECT_TRUE(s.model.fixed[3 * 5 + 0] && !s.model.fixed[3 * 5 + 1] && s.model.fixed[3 * 5 + 2]);
  int fixed = 0;
  for (auto f : s.model.fixed) fixed += f;
  EXPECT_EQ(fixed, 6);
  EXPECT_EQ(s.model.forces.size(), 1u);
  EXPECT_EQ(s.model.energies.back()->name(), "gravity");
}

TEST(RodScene, ClampMotionRotatesTheClampedEdge) {
  const RodScene s = load(
      straight(6, "start", "    clamp_motion: {angular_velocity: [0, 0, 1.5707963267948966]}\n"));
  ASSERT_EQ(s.model.prescribed.size(), 1u);
  VecX q = s.q_initial;
  s.model.prescribed[0].apply(1.0, s.q_initial,
                              q);  // a quarter turn about z through the clamp point
  const Vec3 x1 = q.segment<3>(3);
  const Vec3 x1_0 = s.q_initial.segment<3>(3);
  EXPECT_TRUE(x1.isApprox(Vec3(-x1_0.y(), x1_0.x(), x1_0.z()), 1e-12));
  // omega is perpendicular to the edge: no twist
  EXPECT_NEAR(q[s.model.dofs.twist(0)], 0.0, 1e-15);
}

TEST(RodScene, MatDismechFileGeometry) {
  const fs::path dir = testing::scratch_dir("sim_test");
  std::ofstream(dir / "rod.txt") << "*Nodes\n0, 0, 0\n0.1, 0, 0\n0.2, 0, 0\n*Edges\n1, 2\n2, 3\n";
  std::ofstream(dir / "shell.txt")
      << "*Nodes\n0, 0, 0\n0.1, 0, 0\n0, 0.1, 0\n*Edges\n1, 2\n*Triangles\n1, 2, 3\n";
  const std::string scene =
      "duration: 1\nrods:\n  - geometry: {type: file, file: FILE}\n" + kMaterial;
  auto with = [&](const char* f) {
    std::string t = scene;
    t.replace(t.find("FILE"), 4, (dir / f).string());
    return t;
  };
  EXPECT_EQ(load(with("rod.txt")).model.dofs.num_nodes, 3);
  // a file with triangles as well (mat_dismech 6.1) needs a shell naming it for the triangles
  expect_input_error(
      [&] { load(with("shell.txt")); },
      {"rods[0].geometry.file", "1 triangles, and no shell names this file", "shells entry"});
  std::ofstream(dir / "triangles_only.txt")
      << "*Nodes\n0, 0, 0\n0.1, 0, 0\n0, 0.1, 0\n*Triangles\n1, 2, 3\n";
  expect_input_error([&] { load(with("triangles_only.txt")); },
                     {"rods[0].geometry.file", "no *Edges"});
}

TEST(RodSceneErrors, EmptyRods) {
  expect_input_error([] { load("duration: 1\nrods: []\n"); }, {"rods", "at least one rod"});
  expect_input_error([] { load("duration: 1\n"); }, {"rods", "at least one rod"});
}

TEST(RodSceneErrors, ZeroLengthEdge) {
  expect_input_error(
      [] {
        load(
            "duration: 1\nrods:\n  - geometry: {type: explicit, nodes: [[0, 0, 0], [1, 0, 0], [1, "
            "0, 0]]}\n" +
            kMaterial);
      },
      {"rods[0].geometry.edges[1]", "nodes 1 and 2 at distance 0", "non-zero length"});
}

TEST(RodSceneErrors, DanglingIndices) {
  expect_input_error(
      [] {
        load(
            "duration: 1\nrods:\n  - geometry: {type: explicit, nodes: [[0, 0, 0], [1, 0, 0]], "
            "edges: [[0, 2]]}\n" +
            kMaterial);
      },
      {"rods[0].geometry.edges[0][1]", "got 2", "0..1"});
  expect_input_error(
      [] { load(straight(5, "none", "boundary_conditions:\n  fixed_nodes: [{nodes: [0, 7]}]\n")); },
      {"boundary_conditions.fixed_nodes[0].nodes[1]", "got 7", "-5..4"});
  expect_input_error(
      [] {
        load(
            straight(5, "none", "forces:\n  point_loads: [{rod: 1, node: 0, force: [0, 0, 1]}]\n"));
      },
      {"forces.point_loads[0].rod", "got 1", "0..0"});
  expect_input_error([] { load(straight(5, "none", "joints:\n  - nodes: [[0, 0], [0, 3]]\n")); },
                     {"joints[0].nodes[1]", "distance 0.75", "coincident"});
}

TEST(RodSceneErrors, MaterialAndValues) {
  expect_input_error([] { load(straight(5), {"rods.0.material.E=-1"}); },
                     {"rods[0].material.E", "got -1", "> 0"});
  expect_input_error([] { load(straight(5), {"rods.0.material.density=.nan"}); },
                     {"rods[0].material.density", "got .nan", "finite"});
  expect_input_error([] { load(straight(5), {"rods.0.material.G=1e6"}); },
                     {"rods[0].material.G", "not both"});
  expect_input_error([] { load(straight(5), {"rods.0.material.radus=1"}); },
                     {"rods[0].material.radus", "unknown key", "did you mean 'radius'"});
  expect_input_error([] { load(straight(5), {"rods.0.geometry.pitch=0.1"}); },
                     {"rods[0].geometry.pitch", "got 0.1", "not used"});
  expect_input_error([] { load(straight(5), {"integrator.type=implicit"}); },
                     {"integrator.type", "got implicit"});
  expect_input_error([] { load(straight(2, "start")); },
                     {"rods[0].geometry.num_nodes", "got 2", "at least 3"});
  // an integer that does not fit an int is refused, never wrapped
  expect_input_error([] { load(straight(5), {"rods.0.geometry.num_nodes=4294967322"}); },
                     {"rods[0].geometry.num_nodes", "got 4294967322", "at most 2147483647"});
  // so is a step count that cannot be represented
  expect_input_error([] { load(straight(5), {"duration=1e300"}); },
                     {"duration", "got 1e300", "at most 1e+09 steps"});
}

TEST(RodScene, MidpointAlphaOnlyForTheMidpointRule) {
  const RodScene damped =
      load(straight(5), {"integrator.type=implicit_midpoint", "integrator.midpoint_alpha=0.52"});
  EXPECT_DOUBLE_EQ(damped.dynamics.midpoint_alpha, 0.52);
  EXPECT_DOUBLE_EQ(load(straight(5), {"integrator.type=implicit_midpoint"}).dynamics.midpoint_alpha,
                   0.5);
  expect_input_error([] { load(straight(5), {"integrator.midpoint_alpha=0.6"}); },
                     {"integrator.midpoint_alpha", "got 0.6", "only with type implicit_midpoint"});
  expect_input_error(
      [] {
        load(straight(5), {"integrator.type=implicit_midpoint", "integrator.midpoint_alpha=0.4"});
      },
      {"integrator.midpoint_alpha", "got 0.4", "[0.5, 1]"});
}

TEST(RodScene, DismechStoppingKeys) {
  // defaults: Tendril's rule; with stopping: dismech, py-dismech's fixture tolerances unless given
  EXPECT_EQ(load(straight(5)).dynamics.newton.stopping, StoppingRule::tendril);
  const RodScene rule = load(straight(5), {"integrator.newton.stopping=dismech",
                                           "integrator.newton.dismech.velocity_tolerance=0.003"});
  EXPECT_EQ(rule.dynamics.newton.stopping, StoppingRule::dismech);
  EXPECT_DOUBLE_EQ(rule.dynamics.newton.dismech.force_tolerance, 1e-4);
  EXPECT_DOUBLE_EQ(rule.dynamics.newton.dismech.relative_tolerance, 1e-4);
  EXPECT_DOUBLE_EQ(rule.dynamics.newton.dismech.velocity_tolerance, 0.003);
  expect_input_error([] { load(straight(5), {"integrator.newton.stopping=pydismech"}); },
                     {"integrator.newton.stopping", "got pydismech", "tendril, dismech"});
  expect_input_error(
      [] { load(straight(5), {"integrator.newton.dismech.force_tolerance=1e-3"}); },
      {"integrator.newton.dismech", "only with integrator.newton.stopping: dismech"});
  expect_input_error(
      [] {
        load(straight(5), {"integrator.newton.stopping=dismech",
                           "integrator.newton.dismech.relative_tolerance=-1"});
      },
      {"integrator.newton.dismech.relative_tolerance", "got -1"});
}

}  // namespace
}  // namespace tendril::sim
