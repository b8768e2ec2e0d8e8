// Shell scene keys (sim/shell_scene.hpp): meshes from generators, MAT-DiSMech and OBJ files,
// materials, bending and membrane choices, clamps, fixed nodes, initial velocities, rod-shell
// joints, point masses, buoyancy and aerodynamic drag; bad meshes give InputErrors naming the file,
// line or key and the value; a run writes the triangles and xi (docs/output_format.md, format
// version 2).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include <fmt/format.h>

#include "support/input_error.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/forces/aerodynamic_drag.hpp"
#include "tendril/forces/buoyancy.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/rod_shell_joint.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

namespace fs = std::filesystem;
using testing::expect_input_error;

RodScene load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_rod_scene_text(text, overrides, "test.yaml");
}

/// A temporary directory removed at the end of the test.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("tendril_shell_scene_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

const std::string kStrip = R"(duration: 0.01
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.02, nodes_x: 6, nodes_y: 3, pattern: right}
    material: {E: 2.0e9, nu: 0.3, density: 1200, thickness: 0.002}
    clamp: {side: x_min, rows: 2}
    velocity: [0, 0, 0.5]
forces: {gravity: [0, 0, -9.81]}
)";

template <class T>
int count(const auto& terms) {
  int n = 0;
  for (const auto& t : terms) n += dynamic_cast<const T*>(t.get()) != nullptr;
  return n;
}

TEST(ShellScene, RectangleWithClampAndVelocity) {
  const RodScene s = load(kStrip);
  const Model& m = s.model;
  EXPECT_EQ(m.dofs.num_nodes, 18);
  EXPECT_EQ(m.dofs.num_edges, 0);
  EXPECT_EQ(m.shells.triangles.size(), 20u);
  // mid-edge bending (the default): one xi per shell edge, 5 + 10 + 2 * 6 - 1... counted by Euler:
  // E = N + T - 1
  EXPECT_EQ(m.dofs.num_shell_edges, 18 + 20 - 1);
  EXPECT_FALSE(m.shells.membrane_triangles.empty());  // CST membrane by default
  EXPECT_TRUE(m.shells.hinges.empty());
  // the two columns x = 0 and x = 0.02 are fixed (6 nodes), nothing else
  int fixed = 0;
  for (int i = 0; i < m.dofs.num_nodes; ++i) {
    const bool f = m.fixed[static_cast<std::size_t>(3 * i)] != 0;
    fixed += f;
    EXPECT_EQ(f, s.q_initial[3 * i] < 0.021) << "node " << i;
  }
  EXPECT_EQ(fixed, 6);
  EXPECT_EQ(s.u_initial.size(), m.dofs.size());
  EXPECT_DOUBLE_EQ(s.u_initial[3 * 7 + 2], 0.5);
  EXPECT_DOUBLE_EQ(s.u_initial.tail(m.dofs.num_shell_edges).norm(), 0.0);
  // lumped mass: rho h A in total
  EXPECT_NEAR(m.mass.head(3 * 18).sum() / 3.0, 1200 * 0.002 * 0.1 * 0.02, 1e-15);

  // a clamp that holds the edge normal: the first row's nodes and the xi of the 2 edges along it
  const RodScene held = load(kStrip, {"shells.0.clamp.rows=1", "shells.0.clamp.hold_normal=true"});
  int held_xi = 0;
  for (int z = 0; z < held.model.dofs.num_shell_edges; ++z)
    held_xi += held.model.fixed[static_cast<std::size_t>(held.model.dofs.xi(z))];
  EXPECT_EQ(held_xi, 2);
  expect_input_error(
      [&] {
        load(kStrip, {"shells.0.bending=hinge", "shells.0.clamp.hold_normal=true"});
      },
      {"shells[0].clamp.hold_normal", "bending: midedge"});

  const RodScene hinge = load(kStrip, {"shells.0.bending=hinge", "shells.0.membrane=edge_springs"});
  EXPECT_EQ(hinge.model.dofs.num_shell_edges, 0);
  EXPECT_FALSE(hinge.model.shells.hinges.empty());
  EXPECT_FALSE(hinge.model.shells.edge_springs.empty());
  EXPECT_TRUE(hinge.model.shells.membrane_triangles.empty());
}

TEST(ShellScene, HexagonParachuteWithRodsJointsPointMassBuoyancyAndDrag) {
  // a hexagon canopy (side 1, 2 divisions) with two ropes from corners 0 and 3 to a payload node
  // below
  const std::string text = R"(duration: 0.01
rods:
  - geometry: {type: straight, start: [1, 0, 0], end: [0, 0, -1], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.5, density: 1500, radius: 0.002}
  - geometry: {type: straight, start: [-1, 0, 0], end: [0, 0, -1], num_nodes: 4}
    material: {E: 1.0e7, nu: 0.5, density: 1500, radius: 0.002}
joints: [{nodes: [[0, -1], [1, -1]]}]
shells:
  - geometry: {type: hexagon, side: 1.0, divisions: 2}
    material: {E: 1.0e9, nu: 0.3, density: 1500, thickness: 0.001}
    bending: hinge
    joints: [{node: 0, rod: 0, rod_node: 0}, {node: -1, rod: 1, rod_node: 0}]
point_masses: [{rod: 0, node: -1, mass: 0.13}]
forces:
  gravity: [0, 0, -9.8]
  buoyancy: {density: 1.0}
  aerodynamic_drag: {density: 1.0, drag_coefficient: 10}
)";
  // find the hexagon's corner nodes at (1, 0, 0) and (-1, 0, 0) to write the joints
  const io::TriangleMesh hex = io::hexagon_mesh(1.0, 2);
  int right = -1, left = -1;
  for (std::size_t i = 0; i < hex.nodes.size(); ++i) {
    if ((hex.nodes[i] - Vec3(1, 0, 0)).norm() < 1e-12) right = static_cast<int>(i);
    if ((hex.nodes[i] - Vec3(-1, 0, 0)).norm() < 1e-12) left = static_cast<int>(i);
  }
  ASSERT_GE(right, 0);
  ASSERT_GE(left, 0);
  const std::vector<std::string> corners = {"shells.0.joints.0.node=" + std::to_string(right),
                                            "shells.0.joints.1.node=" + std::to_string(left)};
  const RodScene s = load(text, corners);
  const Model& m = s.model;
  EXPECT_EQ(m.dofs.num_nodes, 7 + static_cast<int>(hex.nodes.size()) - 2);
  EXPECT_EQ(s.shell_nodes[0][static_cast<std::size_t>(right)], s.rod_nodes[0][0]);
  EXPECT_EQ(s.shell_nodes[0][static_cast<std::size_t>(left)], s.rod_nodes[1][0]);
  // the payload node: half an edge of each rope plus 0.13 kg
  const int payload = s.rod_nodes[0][3];
  const double rope_edge = std::sqrt(2.0) / 3.0 * 1500 * std::numbers::pi * 0.002 * 0.002;
  EXPECT_NEAR(m.mass[3 * payload], rope_edge + 0.13, 1e-12);
  EXPECT_EQ(count<BuoyancyEnergy>(m.energies), 1);
  EXPECT_EQ(count<AerodynamicDrag>(m.forces), 1);
  // bend-twist joints by default: the shell edges of the corner triangles get twist DOFs after xi
  EXPECT_EQ(count<RodShellJointEnergy>(m.energies), 1);
  EXPECT_GT(m.dofs.num_joint_edges, 0);
  EXPECT_EQ(s.q_initial.size(), m.dofs.size());
  EXPECT_EQ(m.mass.size(), m.dofs.size());
  const RodScene pin = load(
      text, {corners[0], corners[1], "shells.0.joints.0.type=pin", "shells.0.joints.1.type=pin"});
  EXPECT_EQ(count<RodShellJointEnergy>(pin.model.energies), 0);
  EXPECT_EQ(pin.model.dofs.num_joint_edges, 0);
  expect_input_error(
      [&] {
        load(text, {corners[0], corners[1], "shells.0.joints.0.type=glued"});
      },
      {"shells[0].joints[0].type", "glued"});

  expect_input_error(
      [&] {
        load(text, {corners[1], "shells.0.joints.0.node=1"});
      },
      {"shells[0].joints[0].node", "coincident with the rod node"});
  expect_input_error(
      [&] {
        load(text, {corners[0], corners[1], "point_masses.0.shell=0"});
      },
      {"point_masses[0].rod", "either rod or shell"});
  // loads on shell nodes: a point load names rod or shell, a shell index in range, a node of that
  // shell
  std::string loads = text;
  loads.replace(loads.find("forces:\n"), 8,
                "forces:\n  point_loads: [{shell: 0, node: 1, force: [0, 0, 1]}]\n"
                "  surface_loads: [{shell: 0, load: [0, 0, -1]}]\n");
  const RodScene loaded = load(loads, corners);
  EXPECT_EQ(loaded.model.forces.size(), 2 + hex.nodes.size())
      << "drag, the point load, one per shell node";
  expect_input_error(
      [&] {
        load(loads, {corners[0], corners[1], "forces.point_loads.0.rod=0"});
      },
      {"forces.point_loads[0].rod", "either rod or shell"});
  expect_input_error(
      [&] {
        load(loads, {corners[0], corners[1], "forces.point_loads.0.shell=1"});
      },
      {"forces.point_loads[0].shell", "1", "an index in 0..0"});
  expect_input_error(
      [&] {
        load(loads, {corners[0], corners[1], "forces.point_loads.0.node=99"});
      },
      {"forces.point_loads[0].node", "99"});
  expect_input_error(
      [&] {
        load(loads, {corners[0], corners[1], "forces.surface_loads.0.shell=2"});
      },
      {"forces.surface_loads[0].shell", "2"});
}

TEST(ShellScene, MatDismechAndObjFiles) {
  const TempDir dir;
  // a unit square of two triangles, with a comment and 1-based indices
  dir.write("square.txt",
            "*Nodes\n0, 0, 0\n1, 0, 0\n1, 1, 0\n0, 1, 0\n# two triangles\n*Triangles\n1, 2, 3\n1, "
            "3, 4\n");
  dir.write(
      "square.obj",
      "# square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\nf -4 -2 -1\n");
  const std::string scene =
      "duration: 0.01\nshells:\n  - geometry: {type: file, file: square.txt}\n"
      "    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.01}\n    fixed_nodes: [0, "
      "-1]\n";
  const fs::path scene_file = dir.write("scene.yaml", scene);
  auto load_in_dir = [&](const std::vector<std::string>& overrides = {}) {
    return load_rod_scene_file(scene_file, overrides);
  };
  for (const std::string type : {"file", "obj"}) {
    const std::string file = type == "file" ? "square.txt" : "square.obj";
    const RodScene s =
        load_in_dir({"shells.0.geometry.type=" + type, "shells.0.geometry.file=" + file});
    EXPECT_EQ(s.model.dofs.num_nodes, 4);
    ASSERT_EQ(s.model.shells.triangles.size(), 2u);
    EXPECT_EQ(s.model.shells.triangles[1], (std::array<int, 3>{0, 2, 3}));
    EXPECT_EQ(s.model.fixed[9], 1);
    EXPECT_EQ(s.model.fixed[3], 0);
  }

  // bad meshes: the file, the line and the value
  dir.write("flipped.txt",
            "*Nodes\n0, 0, 0\n1, 0, 0\n1, 1, 0\n0, 1, 0\n*Triangles\n1, 2, 3\n1, 4, 3\n");
  expect_input_error([&] { load_in_dir({"shells.0.geometry.file=flipped.txt"}); },
                     {"flipped.txt:8", "[0, 3, 2]", "oriented like their neighbours"});
  dir.write("range.txt", "*Nodes\n0, 0, 0\n1, 0, 0\n1, 1, 0\n*Triangles\n1, 2, 7\n");
  expect_input_error([&] { load_in_dir({"shells.0.geometry.file=range.txt"}); },
                     {"range.txt:6", "7", "1..3"});
  dir.write("flat.txt", "*Nodes\n0, 0, 0\n1, 0, 0\n2, 0, 0\n*Triangles\n1, 2, 3\n");
  expect_input_error([&] { load_in_dir({"shells.0.geometry.file=flat.txt"}); },
                     {"flat.txt:6", "non-zero area"});
  dir.write("twice.txt", "*Nodes\n0, 0, 0\n1, 0, 0\n1, 1, 0\n*Triangles\n1, 2, 3\n2, 3, 1\n");
  expect_input_error([&] { load_in_dir({"shells.0.geometry.file=twice.txt"}); },
                     {"twice.txt:7", "duplicate of", "twice.txt:6"});
  dir.write("fan.txt",
            "*Nodes\n0, 0, 0\n1, 0, 0\n0, 1, 0\n0, -1, 0\n0.5, -0.5, 1\n*Triangles\n1, 2, 3\n2, 1, "
            "4\n2, 1, 5\n");
  expect_input_error([&] { load_in_dir({"shells.0.geometry.file=fan.txt"}); },
                     {"fan.txt:10", "non-manifold"});
  // a file with a rod edge besides the triangle needs a rod naming it too (the edge would be lost)
  dir.write("rods.txt",
            "*Nodes\n0, 0, 0\n1, 0, 0\n1, 1, 0\n2, 0, 0\n*Edges\n2, 4\n*Triangles\n1, 2, 3\n");
  expect_input_error([&] { load_in_dir({"shells.0.geometry.file=rods.txt"}); },
                     {"shells[0].geometry.file",
                      "rods.txt (1 rod edges, and no rod names this file)", "rods entry"});
  dir.write("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
  expect_input_error(
      [&] {
        load_in_dir({"shells.0.geometry.type=obj", "shells.0.geometry.file=quad.obj"});
      },
      {"quad.obj:5", "4 vertices", "triangular faces only"});
  dir.write("far.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n");
  expect_input_error(
      [&] {
        load_in_dir({"shells.0.geometry.type=obj", "shells.0.geometry.file=far.obj"});
      },
      {"far.obj:4", "9", "1..3"});

  // a rod naming it alone would lose the triangle; with both, each takes its own nodes (2 + 3, none
  // shared)
  const std::string rod =
      "rods:\n  - geometry: {type: file, file: rods.txt}\n"
      "    material: {E: 1.0e6, nu: 0.3, density: 100, radius: 0.01}\n";
  expect_input_error(
      [&] { load_rod_scene_file(dir.write("rod_scene.yaml", "duration: 0.01\n" + rod)); },
      {"rods[0].geometry.file", "rods.txt (1 triangles, and no shell names this file)",
       "shells entry"});
  const std::string both =
      "duration: 0.01\n" + rod +
      "shells:\n  - geometry: {type: file, file: rods.txt}\n"
      "    material: {E: 1.0e6, nu: 0.3, density: 100, thickness: 0.01}\n    fixed_nodes: [0]\n"
      "    joints: []\n";
  EXPECT_EQ(load_rod_scene_file(dir.write("both.yaml", both)).model.dofs.num_nodes, 5);
}

// MAT-DiSMech's single geometry file (mat_dismech 6.1, Fig. 2a): rods and triangles in one file,
// the shared node a rod-shell joint. The rod plate cantilever of examples/rod_plate_cantilever.yaml
// (a 1 m rod, 40 edges, clamped at x = 0, its tip node the middle of one edge of a stiff 0.2 m
// plate of 5 x 5 nodes) written as one file: the rod and the shell name it, no `joints` are given,
// and the static deflection equals the example's (explicit bend_twist joint) to 1e-6; with the
// plate moved off the rod (`origin`) the file's rods and shell no longer meet, which is an error.
// examples/rod_plate_cantilever.yaml: a generated rod and plate, the joint listed
constexpr const char* kRodPlate = R"(duration: 0
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 1.0, num_nodes: 41}
    clamp: start
    material: {E: 1.0e9, nu: 0.3, density: 1.0e-3, radius: 0.005}
shells:
  - geometry: {type: rectangle, length: 0.2, width: 0.2, nodes_x: 5, nodes_y: 5, pattern: right, origin: [1.0, -0.1, 0]}
    material: {E: 1.0e12, nu: 0.3, density: 2.54842, thickness: 0.01}
    bending: hinge
    joints: [{node: 10, rod: 0, rod_node: -1}]
forces:
  gravity: [0, 0, -9.81]
integrator:
  type: static
)";

TEST(ShellScene, OneGeometryFileWithRodsAndTrianglesJoinsThemAtTheSharedNode) {
  const TempDir dir;
  Simulation example(load_rod_scene_text(kRodPlate));
  // the file: the example's rod nodes (its first edge centred on the clamp at x = 0), then the
  // plate's
  std::string text = "*Nodes\n";
  for (int i = 0; i <= 40; ++i) {  // rod nodes 1..41
    const Vec3 x = example.model().rest_positions.segment<3>(example.model().dofs.node(i));
    text += fmt::format("{:.17g}, {:.17g}, {:.17g}\n", x.x(), x.y(), x.z());
  }
  int index[5][5];  // plate node (ix, iy) -> 1-based
  int next = 42;
  for (int iy = 0; iy < 5; ++iy)
    for (int ix = 0; ix < 5; ++ix) {
      if (ix == 0 && iy == 2) {
        index[ix][iy] = 41;  // the rod's tip
        continue;
      }
      index[ix][iy] = next++;
      text += fmt::format("{}, {}, 0\n", 1.0 + 0.05 * ix, -0.1 + 0.05 * iy);
    }
  text += "*Edges\n";
  for (int i = 1; i <= 40; ++i) text += fmt::format("{}, {}\n", i, i + 1);
  text += "*Triangles\n";
  for (int iy = 0; iy < 4; ++iy)
    for (int ix = 0; ix < 4; ++ix) {
      text += fmt::format("{}, {}, {}\n", index[ix][iy], index[ix + 1][iy], index[ix + 1][iy + 1]);
      text += fmt::format("{}, {}, {}\n", index[ix][iy], index[ix + 1][iy + 1], index[ix][iy + 1]);
    }
  dir.write("rod_plate.txt", text);
  const std::string scene = R"(duration: 0
rods:
  - geometry: {type: file, file: rod_plate.txt}
    clamp: start
    material: {E: 1.0e9, nu: 0.3, density: 1.0e-3, radius: 0.005}
shells:
  - geometry: {type: file, file: rod_plate.txt}
    material: {E: 1.0e12, nu: 0.3, density: 2.54842, thickness: 0.01}
    bending: hinge
forces:
  gravity: [0, 0, -9.81]
integrator:
  type: static
)";
  const fs::path file = dir.write("scene.yaml", scene);
  Simulation one_file(load_rod_scene_file(file));
  EXPECT_EQ(one_file.model().dofs.num_nodes, 41 + 24);
  ASSERT_EQ(example.model().dofs.size(), one_file.model().dofs.size());
  ASSERT_TRUE(one_file.step().ok());
  ASSERT_TRUE(example.step().ok());
  const auto mean_z =
      [](const Simulation& sim) {  // mean height of the plate's nodes (all but the rod's)
        double z = 0.0;
        for (int n = 40; n < sim.model().dofs.num_nodes; ++n)
          z += sim.state().q[sim.model().dofs.node(n) + 2];
        return z / (sim.model().dofs.num_nodes - 40);
      };
  EXPECT_LT(mean_z(example), -5e-3);  // 9.0 mm by beam theory (the example's regression test)
  // the same model, its terms assembled in another order: both solves end at the round-off floor
  // (about 70 iterations, StopCriterion::round_off at 1e-5 to 1e-4 N), where the stiff plate (E
  // 1e12 Pa) leaves the deflection sensitive to the order of summation and to the kernels' rounding
  // (2.4e-8 relative with x86-64-v3's FMA contraction, 1e-11 without; 3.9e-8 and, with the
  // four-lane bend-twist kernel, 1.0e-6); a wrong joint changes it by percents, so the bound sits
  // between the two
  EXPECT_NEAR(mean_z(one_file), mean_z(example), 1e-4 * std::abs(mean_z(example)));

  expect_input_error([&] { load_rod_scene_file(file, {"shells.0.geometry.origin=[0, 0, 0.1]"}); },
                     {"shells[0].geometry.file", "no node shared with the rods", "origin"});
}

TEST(ShellScene, BadMaterialsAndKeysNameThePath) {
  expect_input_error([] { load(kStrip, {"shells.0.material.thickness=0"}); },
                     {"shells[0].material.thickness", "0"});
  expect_input_error([] { load(kStrip, {"shells.0.material.nu=0.7"}); },
                     {"shells[0].material.nu", "0.7"});
  expect_input_error([] { load(kStrip, {"shells.0.hinge_stiffness=1"}); },
                     {"shells[0].hinge_stiffness", "bending: hinge"});
  expect_input_error([] { load(kStrip, {"shells.0.fixed_nodes=[18]"}); },
                     {"shells[0].fixed_nodes[0]", "18"});
  expect_input_error([] { load(kStrip, {"shells.0.geometry.pattern=square"}); },
                     {"shells[0].geometry.pattern", "square"});
  expect_input_error(
      [] {
        load(kStrip, {"forces.buoyancy.density=1000", "forces.gravity=[0,0,0]"});
      },
      {"forces.gravity", "non-zero gravity"});
  expect_input_error([] { load("duration: 1\nrods: []\n"); },
                     {"rods", "at least one rod (or `shells`)"});
}

TEST(ShellScene, HingeActuationOnALineWithAPhaseLag) {
  // the right-pattern 6 x 3 strip: the middle row y = 0.01 has 5 hinge edges along x
  const RodScene s = load(
      kStrip, {"shells.0.bending=hinge", "shells.0.clamp.rows=1",
               "shells.0.hinge_actuation=[{axis: y, value: 0.01, amplitude: 0.5, frequency: 2, "
               "phase_lag: 3.0}]"});
  const Model& m = s.model;
  ASSERT_EQ(m.actuators.size(), 1u);
  std::vector<ShellHinge> hinges;
  const double t = 0.07;
  actuated_hinges(m, t, hinges);
  int on_line = 0;
  for (std::size_t k = 0; k < hinges.size(); ++k) {
    const Vec3 a = m.rest_positions.segment<3>(3 * hinges[k].nodes[0]);
    const Vec3 b = m.rest_positions.segment<3>(3 * hinges[k].nodes[1]);
    double expected = m.shells.hinges[k].natural_angle;
    if (std::abs(a.y() - 0.01) < 1e-12 && std::abs(b.y() - 0.01) < 1e-12) {
      ++on_line;
      // midpoints at x = 0.01 .. 0.09: phase 0 at the leading end x = 0.09, -3 at the trailing x =
      // 0.01
      const double phase = -3.0 * (0.09 - 0.5 * (a.x() + b.x())) / 0.08;
      expected += 0.5 * std::sin(2.0 * std::numbers::pi * 2.0 * t + phase);
    }
    EXPECT_NEAR(hinges[k].natural_angle, expected, 1e-14) << "hinge " << k;
  }
  EXPECT_EQ(on_line, 5);
  expect_input_error(
      [] {
        load(kStrip,
             {"shells.0.hinge_actuation=[{axis: y, value: 0.01, amplitude: 1, frequency: 1}]"});
      },
      {"shells[0].hinge_actuation", "bending: hinge"});
  expect_input_error(
      [] {
        load(kStrip,
             {"shells.0.bending=hinge",
              "shells.0.hinge_actuation=[{axis: y, value: 0.013, amplitude: 1, frequency: 1}]"});
      },
      {"shells[0].hinge_actuation[0].value", "0.013"});
}

TEST(ShellScene, FixedDofsAndClampMotion) {
  // the clamped column x = 0 turns about the x axis through the origin at 2 rad/s; node 17 (the far
  // corner) is held in z only
  Simulation sim(
      load(kStrip, {"shells.0.clamp.rows=1", "shells.0.fixed_dofs=[{node: -1, components: [z]}]",
                    "shells.0.clamp_motion={angular_velocity: [2, 0, 0], center: [0, 0, 0]}",
                    "shells.0.velocity=[0, 0, 0]"}));
  const Model& m = sim.model();
  EXPECT_EQ(m.fixed[3 * 17 + 2], 1);
  EXPECT_EQ(m.fixed[3 * 17 + 1], 0);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(sim.step().ok());
  const double angle = 2.0 * sim.state().time;
  for (int i = 0; i < m.dofs.num_nodes; ++i) {
    const Vec3 x0 = sim.scene().q_initial.segment<3>(3 * i);
    if (x0.x() > 1e-12) continue;
    const Vec3 expected(0.0, std::cos(angle) * x0.y(), std::sin(angle) * x0.y());
    EXPECT_NEAR((sim.state().q.segment<3>(3 * i) - expected).norm(), 0.0, 1e-12) << "node " << i;
  }
  EXPECT_DOUBLE_EQ(sim.state().q[3 * 17 + 2], 0.0);
  expect_input_error(
      [] {
        load(kStrip, {"shells.0.clamp_motion={velocity: [1, 0, 0]}", "shells.0.clamp=null"});
      },
      {"shells[0].clamp_motion", "only with clamp or fixed_nodes"});
}

TEST(ShellScene, RunWritesTrianglesAndXi) {
  const TempDir dir;
  Simulation sim(load(kStrip, {"duration=0.002"}));
  const RunResult r = sim.run(dir.path / "run");
  ASSERT_TRUE(r.ok) << r.message;
  const io::RunData run = io::read_run(dir.path / "run");
  EXPECT_EQ(run.meta["format_version"].as<int>(), 2);
  const YAML::Node info = run.meta["info"];
  EXPECT_EQ(info["triangles"].size(), 20u);
  EXPECT_EQ(info["shell_nodes"][0].size(), 18u);
  EXPECT_EQ(info["xi_edges"].size(), 37u);
  const io::NpyArray& xi = run.array("xi");
  ASSERT_EQ(xi.shape.size(), 2u);
  EXPECT_EQ(xi.shape[1], 37u);
  EXPECT_EQ(xi.shape[0], static_cast<std::size_t>(r.frames));
  // the shell moved up with its initial velocity in the first step (away from the clamp)
  const io::NpyArray& x = run.array("positions");
  EXPECT_GT(x.data[3 * 18 * 1 + 3 * 17 + 2], 0.0);
}

TEST(ShellScene, RunWritesJointEdgesAndTheirTwists) {
  // the rod-plate cantilever as a static run: one frame before, one after
  const TempDir dir;
  Simulation sim(load_rod_scene_text(kRodPlate));
  const DofMap& dofs = sim.model().dofs;
  ASSERT_GT(dofs.num_joint_edges, 0);
  const RunResult r = sim.run(dir.path / "run");
  ASSERT_TRUE(r.ok) << r.message;
  const io::RunData run = io::read_run(dir.path / "run");
  const YAML::Node edges = run.meta["info"]["joint_edges"];
  ASSERT_EQ(edges.size(), static_cast<std::size_t>(dofs.num_joint_edges));
  for (std::size_t j = 0; j < edges.size(); ++j) {
    EXPECT_EQ(edges[j][0].as<int>(), sim.model().shells.joint_edges[j][0]);
    EXPECT_EQ(edges[j][1].as<int>(), sim.model().shells.joint_edges[j][1]);
  }
  const io::NpyArray& twists = run.array("joint_twists");
  ASSERT_EQ(twists.shape.size(), 2u);
  ASSERT_EQ(twists.shape[0], static_cast<std::size_t>(r.frames));
  ASSERT_EQ(twists.shape[1], edges.size());
  // the last frame is the solved state
  const std::size_t last = (twists.shape[0] - 1) * twists.shape[1];
  for (int j = 0; j < dofs.num_joint_edges; ++j)
    EXPECT_EQ(twists.data[last + static_cast<std::size_t>(j)], sim.state().q[dofs.joint_twist(j)])
        << j;
}

}  // namespace
}  // namespace tendril::sim
