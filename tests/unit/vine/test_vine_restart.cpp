// A vine run restarted from one of its saved frames (vine.initial_state.run / frame) continues
// bit-identically to the run that did not stop: every later frame (q, v, t) and every step's
// contact impulses are equal bit for bit, with the paper's contact points and with contact along
// the bodies (with friction and force-limited growth), from frames before, at and during contact.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/example_path.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::vine {
namespace {

namespace fs = std::filesystem;

fs::path cluttered_scene() {
  return testing::example_path("vine_cluttered.yaml");
}

/// Rows [from, end) of every array of `full` with dimension `dim` equal bit for bit to `part`'s.
void expect_same_tail(const io::RunData& full, const io::RunData& part, const std::string& name,
                      std::size_t from) {
  const io::NpyArray& a = full.array(name);
  const io::NpyArray& b = part.array(name);
  const std::size_t row = a.shape[0] > 0 ? a.size() / a.shape[0] : 0;
  ASSERT_EQ(a.shape[0], from + b.shape[0]) << name;
  for (std::size_t i = 0; i < b.size(); ++i)
    ASSERT_EQ(a.data[from * row + i], b.data[i])
        << name << " row " << from + i / row;  // bitwise (no NaN here)
}

void check_restarts(const std::vector<std::string>& overrides, const std::string& tag) {
  const fs::path dir = testing::scratch_dir("vine_restart") / tag;
  const int save_every = 10;
  std::vector<std::string> full_set = overrides;
  full_set.push_back("vine.save_every=" + std::to_string(save_every));
  const VineScene scene = load_vine_scene_file(cluttered_scene(), full_set);
  const io::RunResult full_result = run_vine(scene, dir / "full");
  ASSERT_TRUE(full_result.ok) << full_result.message;
  const io::RunData full = io::read_run(dir / "full");
  const long frames = static_cast<long>(full.array("frame_time").shape[0]);
  int restarts_in_contact = 0;
  // frames before contact, at its onset and during it (the tip meets the first box near step 180)
  for (long frame : {5L, 17L, 18L, 19L, 22L, 25L}) {
    SCOPED_TRACE("restart from frame " + std::to_string(frame));
    std::vector<std::string> set = full_set;
    set.push_back("vine.initial_state.run=" + (dir / "full").string());
    set.push_back("vine.initial_state.frame=" + std::to_string(frame));
    set.push_back("vine.steps=" + std::to_string((frames - 1 - frame) * save_every));
    const fs::path out = dir / ("from_" + std::to_string(frame));
    const io::RunResult result = run_vine(load_vine_scene_file(cluttered_scene(), set), out);
    ASSERT_TRUE(result.ok) << result.message;
    const io::RunData part = io::read_run(out);
    for (const char* name : {"frame_time", "body_pose", "body_velocity", "qp_warm_start"})
      expect_same_tail(full, part, name, static_cast<std::size_t>(frame));
    for (const char* name : {"step_time", "contact_normal_impulse", "step_qp_iterations"})
      expect_same_tail(full, part, name, static_cast<std::size_t>(frame * save_every));
    restarts_in_contact +=
        full.array("qp_warm_start").data[frame * full.array("qp_warm_start").shape[1]] > 0;
  }
  // the restarts cover the QP's warm start: some frames saved an active set of contact rows
  EXPECT_GE(restarts_in_contact, 2);
  double impulse = 0.0;
  for (double n : full.array("contact_normal_impulse").data) impulse += n;
  EXPECT_GT(impulse, 0.0) << "the run should make contact";
}

TEST(VineRestart, ContactPointsContinueBitIdentically) {
  check_restarts({}, "point");
}

TEST(VineRestart, BodyContactWithFrictionContinuesBitIdentically) {
  check_restarts({"vine.contact.model=body", "vine.contact.friction=0.3",
                  "vine.growth.control=force_limited", "vine.growth.force=0.5"},
                 "body");
}

TEST(VineRestart, BadRunOrFrameIsRefusedNamingTheKey) {
  const fs::path dir = testing::scratch_dir("vine_restart") / "bad";
  ASSERT_TRUE(run_vine(load_vine_scene_file(cluttered_scene(), {"vine.steps=3"}), dir / "run").ok);
  const auto refused = [&](const std::vector<std::string>& set, const std::string& key) {
    try {
      load_vine_scene_file(cluttered_scene(), set);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  const std::string run = "vine.initial_state.run=" + (dir / "run").string();
  refused({run, "vine.initial_state.frame=4"}, "vine.initial_state.frame");
  refused({run, "vine.initial_state.frame=-5"}, "vine.initial_state.frame");
  refused({run, "vine.bodies=40"}, "vine.initial_state.run");
  refused({run, "vine.initial_state.project=true"}, "vine.initial_state.project");
  refused({"vine.initial_state.frame=1"}, "vine.initial_state.frame");
  refused({"vine.initial_state.run=" + (dir / "missing").string()}, "vine.initial_state.run");
  // frame 0 and the last frame (-1) are accepted
  EXPECT_EQ(
      load_vine_scene_file(cluttered_scene(), {run, "vine.initial_state.frame=-4"}).initial.time,
      0.0);
  EXPECT_GT(load_vine_scene_file(cluttered_scene(), {run}).initial.time, 0.0);
}

}  // namespace
}  // namespace tendril::vine
