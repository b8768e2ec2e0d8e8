// 3D vine scenes (vine3d/vine3d_scene.hpp): a scene's keys become the model and start state, and
// bad input (unknown keys, zero-length bodies, broken chains, obstacles enclosing the base or
// holding a body, degenerate obstacles, per-joint lists of the wrong length, steering tables of the
// wrong width) is refused with an InputError naming the key, the value and what is allowed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/vine3d/bending_joints.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"

namespace tendril::vine3d {
namespace {

using testing::expect_input_error;

const char* kScene = R"yaml(vine3d:
  bodies: 5
  half_length: 0.01
  stiffness: [0.05]
  steps: 10
  obstacles:
    - {shape: sphere, center: [0.3, 0, 0], radius: 0.05}
)yaml";

Vine3dScene load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  io::Scene scene = io::Scene::from_text(text, vine3d_schema(), overrides, "scene");
  return load_vine3d_scene(scene);
}

TEST(Vine3dScene, KeysBecomeTheModelAndTheStraightStart) {
  const Vine3dScene s = load(
      kScene,
      {"vine3d.base=[0.1, 0.2, 0.3]", "vine3d.base_rotation=[0, 0, 1.5707963267948966]",
       "vine3d.initial_state.extension=0.002", "vine3d.rest_bend=[[0, 0.1], [0.2, 0], [0, 0]]"});
  const Vine3dModel& m = s.model;
  EXPECT_EQ(m.num_bodies, 5);
  EXPECT_EQ(m.num_bending(), 3);
  EXPECT_EQ(m.stiffness, std::vector<double>(3, 0.05));
  EXPECT_DOUBLE_EQ(m.contact_radius, 0.012);  // tube_diameter / 2
  ASSERT_EQ(m.obstacles.size(), 1u);
  EXPECT_EQ(m.obstacles[0].name, "vine3d.obstacles[0]");
  EXPECT_DOUBLE_EQ(m.rest_bend[1].x(), 0.2);
  // straight along the base frame's x axis, here world y: body 4's tip at base + (10 d + 2 e) e_y
  const Vec3 tip = s.initial.position[4] + 0.01 * (s.initial.orientation[4] * Vec3::UnitX());
  EXPECT_NEAR((tip - Vec3(0.1, 0.2 + 0.1 + 2 * 0.002, 0.3)).norm(), 0.0, 1e-15);
  EXPECT_EQ(s.steps, 10);
}

TEST(Vine3dScene, BadInputNamesTheKeyTheValueAndWhatIsAllowed) {
  expect_input_error([] { load(kScene, {"vine3d.stifness=[1]"}); },
                     {"vine3d.stifness", "stiffness"});
  expect_input_error([] { load(kScene, {"vine3d.half_length=0"}); },
                     {"vine3d.half_length", "0", "> 0"});
  expect_input_error([] { load(kScene, {"vine3d.stiffness=[1, 2]"}); },
                     {"vine3d.stiffness", "2 values", "one per bending joint"});
  expect_input_error(
      [] { load(kScene, {"vine3d.obstacles=[{shape: sphere, center: [0, 0, 0]}]"}); },
      {"vine3d.obstacles[0].radius", "sphere"});
  expect_input_error([] { load(kScene, {"vine3d.obstacles=[{shape: cone, center: [0, 0, 0]}]"}); },
                     {"vine3d.obstacles[0].shape", "cone", "sphere", "box"});
  expect_input_error(
      [] {
        load(kScene, {"vine3d.obstacles=[{shape: box, center: [1, 0, 0], half_extents: [0.1, 0, "
                      "0.1]}]"});
      },
      {"vine3d.obstacles[0].half_extents", "> 0"});
  expect_input_error(
      [] {
        load(kScene, {"vine3d.obstacles=[{shape: plane, point: [0, 0, 0], normal: [0, 0, 0]}]"});
      },
      {"vine3d.obstacles[0].normal", "non-zero"});
  expect_input_error([] { load(kScene, {"vine3d.steering.table=[[0, 1, 2]]"}); },
                     {"vine3d.steering.table", "7"});
  expect_input_error([] { load(kScene, {"vine3d.initial_state.frame=2"}); },
                     {"vine3d.initial_state.frame", "only with run"});
}

TEST(Vine3dScene, CylinderMeshAndEvertedDensityKeysBecomeTheModel) {
  // an OBJ square (one quad: two triangles) 0.1 m below the axis, beside the scene that names it
  const std::filesystem::path dir = testing::scratch_dir("vine3d_scene_mesh");
  std::ofstream(dir / "floor.obj") << "v -1 -1 -0.1\nv 1 -1 -0.1\nv 1 1 -0.1\nv -1 1 -0.1\n"
                                      "f 1 2 3 4\n";
  std::ofstream(dir / "scene.yaml")
      << kScene
      << "    - {shape: cylinder, center: [0.3, 0.2, 0], axis: [0, 0, 2], radius: 0.05, "
         "half_height: 0.1}\n"
         "    - {shape: mesh, file: floor.obj}\n"
         "  growth: {rate: 0.01, everted_density: 0.02}\n";
  const Vine3dScene s = load_vine3d_scene_file(dir / "scene.yaml", {});
  const Vine3dModel& m = s.model;
  ASSERT_EQ(m.obstacles.size(), 4u);  // sphere, cylinder, two triangles
  EXPECT_EQ(m.obstacles[1].name, "vine3d.obstacles[1]");
  EXPECT_EQ(m.obstacles[3].name, "vine3d.obstacles[2][1]");
  Vec3 normal;
  // cylinder: 0.15 m beside its side (radius 0.05), 0.2 m above its cap (half height 0.1)
  EXPECT_NEAR(signed_distance(m.obstacles[1], Vec3(0.3, 0.4, 0.0), normal), 0.15, 1e-15);
  EXPECT_NEAR(signed_distance(m.obstacles[1], Vec3(0.3, 0.2, 0.3), normal), 0.2, 1e-15);
  // the square's triangles: the origin is 0.1 m above both halves' shared diagonal
  EXPECT_NEAR(signed_distance(m.obstacles[2], Vec3(0.5, -0.5, 0.0), normal), 0.1, 1e-15);
  EXPECT_NEAR(signed_distance(m.obstacles[3], Vec3(-0.5, 0.5, 0.0), normal), 0.1, 1e-15);
  EXPECT_DOUBLE_EQ(m.everted_density, 0.02);
  std::filesystem::remove_all(dir);
}

TEST(Vine3dScene, BadCylinderMeshOrEvertedDensityIsRefused) {
  expect_input_error(
      [] {
        load(kScene, {"vine3d.obstacles=[{shape: cylinder, center: [1, 0, 0], radius: 0.1}]"});
      },
      {"vine3d.obstacles[0].half_height", "cylinder"});
  expect_input_error(
      [] {
        load(kScene, {"vine3d.obstacles=[{shape: cylinder, center: [1, 0, 0], radius: 0.1, "
                      "half_height: 0.1, axis: [0, 0, 0]}]"});
      },
      {"vine3d.obstacles[0].axis", "non-zero"});
  expect_input_error(
      [] {
        load(kScene, {"vine3d.obstacles=[{shape: cylinder, center: [1, 0, 0], radius: 0, "
                      "half_height: 0.1}]"});
      },
      {"vine3d.obstacles[0].radius", "0", "> 0"});
  expect_input_error([] { load(kScene, {"vine3d.obstacles=[{shape: mesh}]"}); },
                     {"vine3d.obstacles[0].file", "mesh"});
  expect_input_error(
      [] { load(kScene, {"vine3d.obstacles=[{shape: mesh, file: no_such_mesh.obj}]"}); },
      {"vine3d.obstacles[0].file", "no_such_mesh.obj", "cannot be opened"});
  expect_input_error([] { load(kScene, {"vine3d.growth.everted_density=-1"}); },
                     {"vine3d.growth.everted_density", "-1"});
  // a mesh triangle through the base
  const std::filesystem::path dir = testing::scratch_dir("vine3d_scene_bad_mesh");
  std::ofstream(dir / "wall.obj") << "v 0 -1 -1\nv 0 1 -1\nv 0 0 1\nf 1 2 3\n";
  std::ofstream(dir / "wall.yaml") << kScene << "    - {shape: mesh, file: wall.obj}\n";
  expect_input_error([&] { load_vine3d_scene_file(dir / "wall.yaml", {}); },
                     {"vine3d.obstacles[1][0]", "from the base"});
  std::filesystem::remove_all(dir);
}

TEST(Vine3dScene, ObstaclesEnclosingTheBaseOrABodyAreRefused) {
  // a sphere around the base, and a floor 5 mm below the axis (the capsule's radius is 12 mm)
  expect_input_error(
      [] { load(kScene, {"vine3d.obstacles=[{shape: sphere, center: [0, 0, 0], radius: 0.05}]"}); },
      {"vine3d.obstacles[0]", "from the base", "clear of the base"});
  expect_input_error(
      [] {
        load(kScene, {"vine3d.obstacles=[{shape: plane, point: [0, 0, -0.005], normal: [0, 0, "
                      "1]}]"});
      },
      {"vine3d.obstacles[0]", "from the base"});
  expect_input_error(
      [] {
        load(kScene,
             {"vine3d.obstacles=[{shape: box, center: [0.05, 0, 0.02], half_extents: [0.002, "
              "0.01, 0.01]}]"});
      },
      {"vine3d.obstacles[0]", "0.002 m into body 2", "clear of every body"});
  // resting on a floor exactly one contact radius below the axis is allowed
  EXPECT_NO_THROW(load(
      kScene, {"vine3d.obstacles=[{shape: plane, point: [0, 0, -0.012], normal: [0, 0, 1]}]"}));
}

TEST(Vine3dScene, ABrokenChainIsRefusedNamingTheJoint) {
  // bodies end to end along x (prismatic joints closed), body 3 moved 2 mm sideways: its
  // prismatic joint's bodies are no longer collinear
  const std::string positions =
      "vine3d.initial_state.positions=[[0.01, 0, 0], [0.03, 0, 0], [0.05, 0, 0], [0.07, 0.002, 0], "
      "[0.09, 0.002, 0]]";
  const std::string rotations =
      "vine3d.initial_state.rotations=[[0, 0, 0], [0, 0, 0], [0, 0, 0], "
      "[0, 0, 0], [0, 0, 0]]";
  const std::string good =
      "vine3d.initial_state.positions=[[0.01, 0, 0], [0.03, 0, 0], [0.05, 0, 0], [0.07, 0, 0], "
      "[0.09, 0, 0]]";
  EXPECT_NO_THROW(load(kScene, {good, rotations}));
  expect_input_error(
      [&] {
        load(kScene, {positions, rotations});
      },
      {"vine3d.initial_state", "broken chain", "body 3", "0.002", "initial_state.tolerance"});
  // a gap at a bending joint (body 2 is 1 mm too far along x)
  const std::string gap =
      "vine3d.initial_state.positions=[[0.01, 0, 0], [0.03, 0, 0], [0.051, 0, 0], [0.071, 0, 0], "
      "[0.091, 0, 0]]";
  expect_input_error(
      [&] {
        load(kScene, {gap, rotations});
      },
      {"broken chain", "body 2", "bending joint's ends", "0.001"});
  // overlapping bodies at a prismatic joint
  const std::string overlap =
      "vine3d.initial_state.positions=[[0.01, 0, 0], [0.025, 0, 0], [0.045, 0, 0], [0.065, 0, 0], "
      "[0.085, 0, 0]]";
  expect_input_error([&] { load(kScene, {overlap, rotations}); }, {"overlapping", "0.005"});
  expect_input_error([&] { load(kScene, {good}); }, {"vine3d.initial_state.rotations"});
}

TEST(Vine3dScene, SteeringTableSetsTheRestBendsOverTime) {
  const Vine3dScene s = load(kScene, {"vine3d.steering.table=[[0, 0, 0, 0, 0, 0, 0], [2, 0.2, "
                                      "-0.4, 0, 0, 0.6, 0.8]]"});
  ASSERT_EQ(s.model.steering.size(), 6u);
  EXPECT_DOUBLE_EQ(s.model.steering[0](1.0), 0.1);   // joint 0 about y, halfway
  EXPECT_DOUBLE_EQ(s.model.steering[1](3.0), -0.4);  // joint 0 about z, held after the table
  EXPECT_DOUBLE_EQ(s.model.steering[5](0.5), 0.2);   // joint 2 about z
}

}  // namespace
}  // namespace tendril::vine3d
