// Every vine example scene (examples/vine_*.yaml) loads, runs into a run directory and shows its
// paper behaviour: the runtime scene (vine paper Fig. 4) slides its tip around the circle, the
// cluttered scene (Fig. 1) passes between the boxes without penetrating them, the wall scene
// (Fig. 7) keeps the tip on the wall while it slides to +x. Each also checks the saved arrays.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

namespace fs = std::filesystem;

fs::path example(const std::string& name) {
  return testing::source_tree() / "examples" / name;
}

struct ExampleRun {
  VineScene scene;
  io::NpyArray pose, min_distance, impulse, status;
};

ExampleRun run_example(const std::string& name, const std::vector<std::string>& overrides = {}) {
  ExampleRun r;
  r.scene = load_vine_scene_file(example(name), overrides);
  const fs::path out = testing::scratch_dir("vine_examples") / fs::path(name).stem();
  const io::RunResult result = run_vine(r.scene, out);
  EXPECT_TRUE(result.ok) << result.message;
  EXPECT_EQ(result.steps, r.scene.steps);
  EXPECT_TRUE(fs::exists(out / "run.json"));
  r.pose = io::read_npy(out / "body_pose.npy");
  r.min_distance = io::read_npy(out / "step_min_distance.npy");
  r.impulse = io::read_npy(out / "contact_normal_impulse.npy");
  r.status = io::read_npy(out / "step_status.npy");
  fs::remove_all(out);
  EXPECT_EQ(r.pose.shape[0], static_cast<std::size_t>(r.scene.steps / r.scene.save_every + 1));
  for (double s : r.status.data) EXPECT_EQ(s, 0.0);
  return r;
}

Vec2 tip(const ExampleRun& r, std::size_t frame) {
  const int n = r.scene.model.num_bodies;
  const double* q = r.pose.data.data() + frame * 3 * n;
  const int b = n - 1;
  return Vec2(q[3 * b], q[3 * b + 1]) +
         r.scene.model.half_length[b] * Vec2(std::cos(q[3 * b + 2]), std::sin(q[3 * b + 2]));
}

double min_of(const io::NpyArray& a) {
  double m = 1e300;
  for (double x : a.data) m = std::min(m, x);
  return m;
}

double max_of(const io::NpyArray& a) {
  double m = -1e300;
  for (double x : a.data) m = std::max(m, x);
  return m;
}

TEST(VineExamples, RuntimeSceneSlidesAroundTheCircle) {
  const ExampleRun r = run_example("vine_runtime.yaml");
  const std::size_t last = r.pose.shape[0] - 1;
  EXPECT_GT(max_of(r.impulse), 0.0) << "the tip never pressed on the circle";
  EXPECT_GT(min_of(r.min_distance), -1e-4);
  // the circle (centre above the axis) deflects the tip downwards
  EXPECT_LT(tip(r, last).y(), -0.01);
}

TEST(VineExamples, ClutteredScenePassesBetweenBoxes) {
  const ExampleRun r = run_example("vine_cluttered.yaml");
  EXPECT_GT(max_of(r.impulse), 0.0) << "no obstacle was touched";
  EXPECT_GT(min_of(r.min_distance), -1e-3);
  // 3 s at 205 mm/s: the tip has travelled well past the first gate (0.45 m along the heading)
  const Vec2 heading(std::cos(-0.907571), std::sin(-0.907571));
  EXPECT_GT(tip(r, r.pose.shape[0] - 1).dot(heading), 0.5);
}

TEST(VineExamples, WallSceneKeepsTipOnWall) {
  const ExampleRun r = run_example("vine_wall_growth.yaml");
  EXPECT_GT(tip(r, r.pose.shape[0] - 1).x(), tip(r, 0).x());
  EXPECT_GT(max_of(r.impulse), 0.0);
  EXPECT_GT(min_of(r.min_distance), -1e-4);
}

TEST(VineExamples, BadScenesNameTheKey) {
  auto expect_key = [](const std::vector<std::string>& overrides, const std::string& key) {
    try {
      load_vine_scene_file(example("vine_runtime.yaml"), overrides);
      ADD_FAILURE() << "accepted " << overrides[0];
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  expect_key({"vine.half_length=-0.01"}, "vine.half_length");
  expect_key({"vine.mass=.nan"}, "vine.mass");
  expect_key({"vine.stiffness=[0.5, 0.4]"}, "vine.stiffness");
  expect_key({"vine.obstacles.0.center=[0.2, 0.0]"}, "vine.initial_state");
  expect_key({"vine.bodys=3"}, "bodys");
  expect_key({"vine.obstacles.0.type=ellipse"}, "vine.obstacles[0].type");
  expect_key({"vine.growth.rate=-0.04"}, "vine.growth.rate");  // retraction is not modelled
}

TEST(VineExamples, PaperExamplesRunWithBodyContact) {
  // the same examples with contact along the bodies instead of the paper's points
  for (const char* name : {"vine_runtime.yaml", "vine_cluttered.yaml", "vine_wall_growth.yaml"}) {
    const ExampleRun r = run_example(name, {"vine.contact.model=body"});
    EXPECT_GT(min_of(r.min_distance), -1e-4) << name;
    EXPECT_GT(max_of(r.impulse), 0.0) << name;
  }
}

TEST(VineExamples, UnstableExplicitSpringsFailTheRun) {
  // explicit springs beyond their limit (dt omega ~ 6 > 2 with K = 0.3 N m/rad, I = 1e-6 kg m^2):
  // the run must end as failed with the reason, not report completed
  const VineScene scene =
      load_vine_scene_file(example("vine_wall_growth.yaml"),
                           {"vine.stiffness=[0.3]", "vine.inertia=1e-6", "vine.steps=400"});
  const fs::path out = testing::scratch_dir("vine_examples") / "unstable";
  const io::RunResult result = run_vine(scene, out);
  EXPECT_FALSE(result.ok);
  EXPECT_LT(result.steps, 400);
  EXPECT_TRUE(result.message.find("joint drift") != std::string::npos ||
              result.message.find("energy blow-up") != std::string::npos)
      << result.message;
  fs::remove_all(out);
  // the same scene with implicit springs completes
  const VineScene stable = load_vine_scene_file(
      example("vine_wall_growth.yaml"),
      {"vine.stiffness=[0.3]", "vine.inertia=1e-6", "vine.steps=400", "vine.springs=implicit"});
  const io::RunResult ok = run_vine(stable, out);
  EXPECT_TRUE(ok.ok) << ok.message;
  fs::remove_all(out);
}

TEST(VineExamples, SteeringTableAndBadSteeringKeys) {
  const VineScene scene = load_vine_scene_file(
      example("vine_runtime.yaml"),
      {"vine.bodies=4", "vine.obstacles=[]", "vine.steering.table=[[0, 0, 0], [1, 0, 0.4]]"});
  ASSERT_EQ(scene.model.rest_angle_schedule.size(), 2u);
  EXPECT_NEAR(scene.model.rest_angle_schedule[1](0.5), 0.2, 1e-15);
  // the same schedule from a CSV file
  const fs::path dir = testing::scratch_dir("vine_examples") / "steering_csv";
  fs::create_directories(dir);
  std::ofstream(dir / "steer.csv") << "t,pin0,pin1\n0,0,0\n1,0,0.4\n";
  fs::copy_file(example("vine_runtime.yaml"), dir / "scene.yaml",
                fs::copy_options::overwrite_existing);
  const VineScene from_csv = load_vine_scene_file(
      dir / "scene.yaml", {"vine.bodies=4", "vine.obstacles=[]", "vine.steering.csv=steer.csv"});
  ASSERT_EQ(from_csv.model.rest_angle_schedule.size(), 2u);
  EXPECT_NEAR(from_csv.model.rest_angle_schedule[1](0.5), 0.2, 1e-15);
  fs::remove_all(dir);
  try {
    load_vine_scene_file(example("vine_runtime.yaml"),
                         {"vine.bodies=4", "vine.obstacles=[]", "vine.steering.table=[[0, 0]]"});
    ADD_FAILURE() << "a steering row without an angle per pin joint was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("vine.steering.table"), std::string::npos) << e.what();
  }
}

TEST(VineExamples, ZeroLengthPrismaticJointIsBadInput) {
  // bodies 0 and 1 of the 4-body vine share their centre: the growth direction is undefined
  try {
    load_vine_scene_file(example("vine_runtime.yaml"),
                         {"vine.bodies=4", "vine.obstacles=[]",
                          "vine.initial_state.q=[0.1,0,0, 0.1,0,0, 0.2,0,0, 0.3,0,0]"});
    ADD_FAILURE() << "zero-length prismatic joint accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("prismatic joint 0"), std::string::npos) << e.what();
    EXPECT_EQ(e.key_path(), "vine.initial_state");
  }
}

TEST(VineExamples, OverflowingStepIsANumericalFailureNotBadInput) {
  // dt = 1e300 s passes the scene checks; the first step moves the bodies by ~1e300 m and the next
  // one overflows the step's data: that step must fail as a numerical failure with the state
  // unchanged, not throw from the QP's input checks
  VineScene scene = load_vine_scene_file(example("vine_runtime.yaml"), {"vine.dt=1e300"});
  VineStepper stepper(scene.model);
  VineState state = scene.initial;
  VineStepReport report = stepper.step(state);
  ASSERT_EQ(report.status, QpStatus::solved);  // the first step's data is still finite
  VineState before = state;
  for (int k = 0; k < 5 && report.status == QpStatus::solved; ++k) {
    before = state;
    report = stepper.step(state);
  }
  EXPECT_EQ(report.status, QpStatus::numerical_failure);
  EXPECT_EQ(state.q, before.q);
  EXPECT_EQ(state.v, before.v);
}

TEST(VineExamples, SceneReadsCsvGrowthTableAndInitialState) {
  const fs::path dir = testing::scratch_dir("vine_csv_scene");
  {
    std::ofstream(dir / "growth.csv") << "t,u\n0.0,0.0\n1.0,0.04\n";
    std::ofstream state(dir / "state.csv");
    state << "x,y,theta,vx,vy,omega\n";
    state << "0.01,0,0,0,0,0\n0.03,0,0,0.01,0,0\n0.05,0,0,0,0,0\n0.07,0,0,0.01,0,0\n";
    std::ofstream(dir / "scene.yaml")
        << "vine:\n  bodies: 4\n  half_length: 0.01\n  stiffness: [0.1, 0.2]\n"
           "  steps: 10\n  growth: {table_csv: growth.csv, mode: tip}\n"
           "  initial_state: {csv: state.csv}\n";
  }
  const VineScene scene = load_vine_scene_file(dir / "scene.yaml");
  EXPECT_NEAR(scene.model.growth.rate(0.25), 0.01, 1e-15);
  EXPECT_NEAR(scene.model.growth.rate(2.0), 0.04, 1e-15);
  EXPECT_EQ(scene.model.growth_mode, GrowthMode::tip);
  EXPECT_EQ(scene.model.stiffness, (std::vector<double>{0.1, 0.2}));
  EXPECT_DOUBLE_EQ(scene.initial.q(9), 0.07);
  // body 1 at 0.01 m/s and body 2 at rest break their pin joint: the nearest velocities meeting
  // J v = 0 share the difference (vx 0.005 m/s each); the positions already meet the joints
  EXPECT_NEAR(scene.initial.v(3), 0.005, 1e-12);
  EXPECT_NEAR(scene.initial.v(6), 0.005, 1e-12);
  EXPECT_NEAR(scene.initial.v(9), 0.01, 1e-12);
  EXPECT_EQ(scene.projection.max_move, 0.0);
  // a malformed row names the file and line
  std::ofstream(dir / "state.csv", std::ios::app) << "1,2,3\n";
  try {
    load_vine_scene_file(dir / "scene.yaml");
    ADD_FAILURE() << "malformed CSV accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 6"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tendril::vine
