// A 3D vine scene's run (vine3d/vine3d_run.hpp) through io::run, the one way to run: the run folder
// holds the bodies' positions and unit-quaternion orientations, the centre line (each joint point
// recomputed here from the saved pose), the per-step rows and the obstacles in the scene record; a
// run restarted from a saved frame (vine3d.initial_state.run / frame, or Vine3dRun::restore)
// continues bit-identically to the run that did not stop, before and during contact with friction,
// and so does a stepper started at any step from its state and the warm start saved there.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/example_path.hpp"
#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/vine3d/vine3d_run.hpp"

namespace tendril::vine3d {
namespace {

namespace fs = std::filesystem;

/// A vine growing into a sphere off its axis and sliding over it, with friction, above a floor.
const char* kScene = R"yaml(vine3d:
  bodies: 8
  half_length: 0.01
  stiffness: [0.05]
  damping: [1.0e-4]
  springs: implicit
  gravity: [0, 0, -2]
  steps: 120
  save_every: 4
  growth: {rate: 0.05}
  contact: {friction: 0.2}
  obstacles:
    - {shape: sphere, center: [0.2, 0.015, 0.01], radius: 0.03}
    - {shape: plane, point: [0, 0, -0.05], normal: [0, 0, 1]}
)yaml";

Vine3dScene load(const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_text(kScene, vine3d_schema(), overrides, "scene");
  return load_vine3d_scene(scene);
}

/// Rows [from, end) of array `name` of `full` equal bit for bit to `part`'s.
void expect_same_tail(const io::RunData& full, const io::RunData& part, const std::string& name,
                      std::size_t from) {
  const io::NpyArray& a = full.array(name);
  const io::NpyArray& b = part.array(name);
  const std::size_t row = a.shape[0] > 0 ? a.size() / a.shape[0] : 0;
  ASSERT_EQ(a.shape[0], from + b.shape[0]) << name;
  for (std::size_t i = 0; i < b.size(); ++i)
    ASSERT_EQ(a.data[from * row + i], b.data[i]) << name << " row " << from + i / row;
}

TEST(Vine3dRun, RunFolderHoldsPosesCentrelineStepsAndObstacles) {
  const fs::path out = testing::scratch_dir("vine3d_run") / "folder";
  Vine3dRun run(load({}));
  const io::RunResult result = io::run(run, out);
  ASSERT_TRUE(result.ok) << result.message;
  EXPECT_EQ(result.steps, 120);
  const io::RunData data = io::read_run(out);
  EXPECT_EQ(data.kind, "vine3d");
  const io::NpyArray& p = data.array("body_position");
  const io::NpyArray& r = data.array("body_orientation");
  const io::NpyArray& c = data.array("centerline");
  ASSERT_EQ(p.shape, (std::vector<std::size_t>{31, 8, 3}));
  ASSERT_EQ(r.shape, (std::vector<std::size_t>{31, 8, 4}));
  ASSERT_EQ(c.shape, (std::vector<std::size_t>{31, 9, 3}));
  EXPECT_EQ(data.array("body_velocity").shape, (std::vector<std::size_t>{31, 8, 6}));
  EXPECT_EQ(data.array("step_status").shape, (std::vector<std::size_t>{120}));
  // the tip (the distal end of body 7, d e_x rotated by its quaternion) and the base, per frame
  for (std::size_t f = 0; f < 31; ++f) {
    const double* q = &r.data[4 * (8 * f + 7)];
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    EXPECT_NEAR(w * w + x * x + y * y + z * z, 1.0, 1e-12);
    // first column of the rotation matrix of (w, x, y, z)
    const double e[3] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(c.data[3 * (9 * f + 8) + k], p.data[3 * (8 * f + 7) + k] + 0.01 * e[k], 1e-15);
      EXPECT_EQ(c.data[3 * 9 * f + k], 0.0);
    }
  }
  // the vine touched the sphere (contact rows active) and the obstacles are in the scene record
  double active = 0.0;
  for (double a : data.array("step_active_contacts").data) active += a;
  EXPECT_GT(active, 0.0);
  const YAML::Node obstacles = data.meta["scene"]["vine3d"]["obstacles"];
  ASSERT_EQ(obstacles.size(), 2u);
  EXPECT_EQ(obstacles[0]["shape"].as<std::string>(), "sphere");
  EXPECT_EQ(obstacles[1]["normal"][2].as<double>(), 1.0);
}

TEST(Vine3dRun, RestartFromASavedFrameContinuesBitIdentically) {
  const fs::path dir = testing::scratch_dir("vine3d_run") / "restart";
  Vine3dRun full_run(load({}));
  ASSERT_TRUE(io::run(full_run, dir / "full").ok);
  const io::RunData full = io::read_run(dir / "full");
  const io::NpyArray& warm = full.array("qp_warm_start");
  int in_contact = 0;
  // frames before contact, at its onset and during it (the tip meets the sphere near step 40)
  for (long frame : {3L, 9L, 11L, 14L, 20L, 26L}) {
    SCOPED_TRACE("restart from frame " + std::to_string(frame));
    const fs::path out = dir / ("from_" + std::to_string(frame));
    Vine3dRun part_run(load({"vine3d.initial_state.run=" + (dir / "full").string(),
                             "vine3d.initial_state.frame=" + std::to_string(frame),
                             "vine3d.steps=" + std::to_string((30 - frame) * 4)}));
    ASSERT_TRUE(io::run(part_run, out).ok);
    const io::RunData part = io::read_run(out);
    for (const char* name : {"frame_time", "body_position", "body_orientation", "body_velocity",
                             "qp_warm_start", "qp_warm_start_pairs"})
      expect_same_tail(full, part, name, static_cast<std::size_t>(frame));
    for (const char* name : {"step_time", "step_qp_iterations", "step_kkt_residual"})
      expect_same_tail(full, part, name, static_cast<std::size_t>(frame * 4));
    in_contact += warm.data[static_cast<std::size_t>(frame) * warm.shape[1]] > 0;
  }
  // the restarts cover the QP's warm start: some frames saved an active set of contact rows
  EXPECT_GE(in_contact, 2);
  // Vine3dRun::restore (the Stepper interface) is the same as the scene keys
  Vine3dRun restored(load({"vine3d.steps=40"}));
  restored.restore(dir / "full", 20);
  ASSERT_TRUE(io::run(restored, dir / "restored").ok);
  expect_same_tail(full, io::read_run(dir / "restored"), "body_position", 20);
}

/// What a run of expect_every_step_continues covered: steps whose contact pairs changed, those of
/// them that carried active rows of the primal-dual method over (flags 1), and warm starts the dual
/// active-set method left (flags 2).
struct Coverage {
  int changes = 0, carried = 0, dual = 0;
};

/// A new stepper started at every step of `scene` from the state and the warm start the run would
/// save there takes the same step, bit for bit.
Coverage expect_every_step_continues(const Vine3dScene& scene, int steps) {
  Vine3dStepper stepper(scene.model);
  Vine3dState state = scene.initial;
  Coverage covered;
  for (int k = 0; k < steps; ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    Vine3dStepper restarted(scene.model);
    const Vine3dWarmStart before = stepper.warm_start();
    restarted.set_warm_start(before);
    Vine3dState copy = state;
    const Vine3dStepReport a = stepper.step(state), b = restarted.step(copy);
    EXPECT_TRUE(a.ok() && b.ok());
    // the same QP iterations from the same active set
    EXPECT_EQ(b.qp_iterations, a.qp_iterations);
    EXPECT_EQ(b.kkt_residual, a.kkt_residual);
    for (int i = 0; i < scene.model.num_bodies; ++i) {
      EXPECT_EQ(copy.position[i], state.position[i]) << "body " << i;
      EXPECT_EQ(copy.orientation[i].coeffs(), state.orientation[i].coeffs()) << "body " << i;
    }
    EXPECT_EQ(copy.velocity, state.velocity);
    if (::testing::Test::HasFailure()) return covered;
    const Vine3dWarmStart warm = stepper.warm_start();
    const bool changed = warm.pairs != before.pairs;
    covered.changes += changed;
    covered.carried +=
        changed && std::find(before.active.begin(), before.active.end(), 1) != before.active.end();
    covered.dual += std::find(warm.active.begin(), warm.active.end(), 2) != warm.active.end();
  }
  return covered;
}

TEST(Vine3dRun, EveryStepContinuesBitIdenticallyFromItsSavedStartAndWarmStart) {
  // also at the steps where the contact pairs change and the active rows of the pairs that stay
  // are carried over: the table example (gravity, a plane, a sunk sphere and a box: contact rows
  // at every step), frictionless, where changes carry the primal-dual active-set method's active
  // rows (flags 1; from a cold start the steps of this run take 3.3 times as many QP iterations,
  // and 530 of its 600 steps end at other velocities)
  const Vine3dScene scene = load_vine3d_scene_file(
      testing::example_path("vine_3d_table_obstacles.yaml"), {"vine3d.contact.friction=0"});
  const Coverage covered = expect_every_step_continues(scene, scene.steps);
  EXPECT_GT(covered.changes, 2) << "the contact pairs should change during the run";
  EXPECT_GE(covered.carried, 2) << "changes should carry the primal-dual method's active rows";
}

TEST(Vine3dRun, EveryStepWithFrictionContinuesFromTheDualMethodsWorkingSet) {
  // with friction 0.3 (the example's) dependent rows send steps to the dual active-set method,
  // which the next step starts from its working set (flags 2 in the warm start)
  const Vine3dScene scene =
      load_vine3d_scene_file(testing::example_path("vine_3d_table_obstacles.yaml"), {});
  EXPECT_GT(expect_every_step_continues(scene, 200).dual, 10);
}

TEST(Vine3dRun, BadRestartsAreRefusedNamingTheKey) {
  const fs::path dir = testing::scratch_dir("vine3d_run") / "bad";
  Vine3dRun run(load({"vine3d.steps=3", "vine3d.save_every=1"}));
  ASSERT_TRUE(io::run(run, dir / "run").ok);
  const std::string from = "vine3d.initial_state.run=" + (dir / "run").string();
  testing::expect_input_error(
      [&] {
        load({from, "vine3d.initial_state.frame=4"});
      },
      {"vine3d.initial_state.frame", "0 to 3"});
  testing::expect_input_error(
      [&] {
        load({from, "vine3d.bodies=6"});
      },
      {"vine3d.initial_state.run", "8 bodies", "6 bodies"});
  testing::expect_input_error(
      [&] { load({"vine3d.initial_state.run=" + testing::example_path("").string()}); },
      {"vine3d.initial_state.run"});
  Vine3dRun stepped(load({}));
  stepped.step();
  testing::expect_input_error([&] { stepped.restore(dir / "run", 0); },
                              {"vine3d.initial_state.run", "before the first step"});
}

TEST(Vine3dRun, ARestartFromAnActiveSetSavedWithoutItsContactPairsIsRefused) {
  // a run of the format before qp_warm_start_pairs: the rows of a frame's active set cannot be
  // matched to pairs, so it cannot continue exactly; a frame without contact rows still restarts
  const fs::path dir = testing::scratch_dir("vine3d_run") / "old_format";
  Vine3dRun run(load({}));
  ASSERT_TRUE(io::run(run, dir).ok);
  const io::RunData saved = io::read_run(dir);
  const io::NpyArray& warm = saved.array("qp_warm_start");
  long active = -1;
  for (std::size_t f = 0; f < warm.shape[0] && active < 0; ++f)
    if (warm.data[f * warm.shape[1]] > 0) active = static_cast<long>(f);
  ASSERT_GT(active, 0);
  std::ifstream in(dir / "run.json");
  std::string meta((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::string name = "\"name\": \"qp_warm_start_pairs\"";
  ASSERT_NE(meta.find(name), std::string::npos);
  meta.replace(meta.find(name), name.size(), "\"name\": \"no_longer_known\"");
  std::ofstream(dir / "run.json") << meta;
  const std::string from = "vine3d.initial_state.run=" + dir.string();
  testing::expect_input_error(
      [&] {
        load({from, "vine3d.initial_state.frame=" + std::to_string(active)});
      },
      {"vine3d.initial_state.run", "qp_warm_start_pairs", "run the scene again"});
  EXPECT_NO_THROW(load({from, "vine3d.initial_state.frame=0"}));
}

}  // namespace
}  // namespace tendril::vine3d
