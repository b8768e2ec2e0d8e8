// One way to run (io/stepper.hpp): a rod scene and a vine scene go through the same io::Stepper
// interface and io::run. Each run takes the steps its scene plans (ceil(T / dt) for the rod,
// vine.steps for the vine), reports progress after each, saves the frames of its output schedule
// and ends at the scene's end time; a run continued from a saved frame through Stepper::restore
// ends in the uninterrupted run's last state bit for bit; a failed step ends either run alike (the
// partial record in <out>.failed, the steps reached, the failed step's row kept).

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "support/example_path.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/sim/simulation.hpp"
#include "tendril/vine/vine_run.hpp"

namespace tendril::io {
namespace {

namespace fs = std::filesystem;

using Make = std::function<std::unique_ptr<Stepper>(const std::vector<std::string>&)>;

/// The rod scene: a cantilever under gravity, dt = 1 ms, a frame every 10 ms.
std::unique_ptr<Stepper> rod(const std::vector<std::string>& overrides) {
  return std::make_unique<sim::Simulation>(
      sim::load_rod_scene_file(testing::example_path("cantilever_gravity.yaml"), overrides));
}

/// The vine scene: the vine paper's runtime scene, dt = 10 ms.
std::unique_ptr<Stepper> vine(const std::vector<std::string>& overrides) {
  return std::make_unique<vine::VineRun>(
      vine::load_vine_scene_file(testing::example_path("vine_runtime.yaml"), overrides));
}

/// The last frame of the frame array `name` of `run`.
std::vector<double> last_frame(const RunData& run, const std::string& name) {
  const NpyArray& a = run.array(name);
  const std::size_t row = a.size() / a.shape[0];
  return {a.data.end() - static_cast<long>(row), a.data.end()};
}

struct Planned {
  long steps;       ///< steps the scene plans
  double end_time;  ///< [s]
  long frames;      ///< frames its output schedule saves, the initial one included
};

void expect_runs_as_planned(const Make& make, const std::vector<std::string>& overrides,
                            const Planned& plan, const std::string& kind) {
  const fs::path out = testing::scratch_dir("stepper") / ("planned_" + kind);
  const std::unique_ptr<Stepper> s = make(overrides);
  EXPECT_EQ(s->kind(), kind);
  EXPECT_EQ(s->total_steps(), plan.steps);
  std::vector<long> seen;
  const RunResult result = run(*s, out, [&](const RunProgress& p) {
    seen.push_back(p.step);
    EXPECT_EQ(p.total_steps, plan.steps);
  });
  ASSERT_TRUE(result.ok) << result.message;
  EXPECT_EQ(result.steps, plan.steps);
  EXPECT_EQ(result.frames, plan.frames);
  EXPECT_TRUE(s->finished());
  ASSERT_EQ(seen.size(), static_cast<std::size_t>(plan.steps));
  for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], static_cast<long>(k) + 1);
  EXPECT_NEAR(s->time(), plan.end_time, 1e-12);
  const RunData data = read_run(out);
  EXPECT_EQ(data.kind, kind);
  EXPECT_EQ(data.status, "completed");
  EXPECT_EQ(data.array("frame_time").shape[0], static_cast<std::size_t>(plan.frames));
  EXPECT_EQ(data.array("step_time").shape[0], static_cast<std::size_t>(plan.steps));
  EXPECT_NEAR(data.array("frame_time").data.back(), plan.end_time, 1e-12);
}

TEST(OneWayToRun, RodAndVineScenesRunThroughOneInterface) {
  // T = 0.02 s at dt = 1 ms: 20 steps, frames at t = 0, 0.01 and 0.02 s
  expect_runs_as_planned(rod, {"duration=0.02"}, {20, 0.02, 3}, "rod");
  // 20 steps of 10 ms, a frame every 5 steps and the initial one
  expect_runs_as_planned(vine, {"vine.steps=20", "vine.save_every=5"}, {20, 0.2, 5}, "vine");
}

/// Runs the scene with `overrides` whole, then with `rest` from its saved frame `frame` (restored
/// through the interface) and compares the last frames of `arrays`.
void expect_restart_ends_alike(const Make& make, const std::vector<std::string>& overrides,
                               const std::vector<std::string>& rest, long frame,
                               const std::vector<std::string>& arrays, const std::string& kind) {
  const fs::path dir = testing::scratch_dir("stepper") / ("restart_" + kind);
  const std::unique_ptr<Stepper> whole = make(overrides);
  ASSERT_TRUE(run(*whole, dir / "whole").ok);
  const std::unique_ptr<Stepper> part = make(rest);
  part->restore(dir / "whole", frame);
  const RunResult result = run(*part, dir / "part");
  ASSERT_TRUE(result.ok) << result.message;
  EXPECT_GT(result.steps, 0);
  EXPECT_EQ(part->time(), whole->time());
  const RunData a = read_run(dir / "whole"), b = read_run(dir / "part");
  for (const std::string& name : arrays)
    EXPECT_EQ(last_frame(a, name), last_frame(b, name)) << kind << " " << name;
  // restoring is for a simulation that has not stepped yet
  EXPECT_THROW(whole->restore(dir / "whole", frame), InputError);
}

TEST(OneWayToRun, RestoredRunsEndInTheWholeRunsStateBitForBit) {
  // frames every 10 ms of 50 ms; from frame 2 (t = 20 ms) the restored rod runs on to T
  expect_restart_ends_alike(rod, {"duration=0.05"}, {"duration=0.05"}, 2,
                            {"positions", "velocities", "twists"}, "rod");
  // frames every 5 of 20 steps; from frame 2 (step 10) the restored vine takes the 10 steps left
  expect_restart_ends_alike(vine, {"vine.steps=20", "vine.save_every=5"},
                            {"vine.steps=10", "vine.save_every=5"}, 2,
                            {"body_pose", "body_velocity", "qp_warm_start"}, "vine");
}

void expect_failed_alike(const Make& make, const std::vector<std::string>& overrides,
                         const std::string& kind) {
  const fs::path out = testing::scratch_dir("stepper") / ("failed_" + kind);
  const std::unique_ptr<Stepper> s = make(overrides);
  const RunResult result = run(*s, out);
  ASSERT_FALSE(result.ok) << kind;
  EXPECT_EQ(result.signal, 0);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(result.path, fs::path(out.string() + ".failed"));
  EXPECT_EQ(result.steps, s->steps());
  EXPECT_LT(result.steps, s->total_steps());
  EXPECT_EQ(result.message.rfind("step " + std::to_string(result.steps + 1), 0), 0u)
      << result.message;
  const RunData data = read_run(result.path);
  EXPECT_EQ(data.status, "failed");
  EXPECT_EQ(data.meta["reached"]["steps"].as<long>(), result.steps);
  EXPECT_DOUBLE_EQ(data.meta["reached"]["time"].as<double>(), s->time());
  // every step taken has its row, the failed one too; the frames saved before it are kept
  EXPECT_EQ(data.array("step_time").shape[0], static_cast<std::size_t>(result.steps + 1));
  EXPECT_EQ(data.array("frame_time").shape[0], static_cast<std::size_t>(result.frames));
}

TEST(OneWayToRun, FailedStepsEndRodAndVineRunsAlike) {
  // an infinite load makes the rod's state non-finite; an infinite mass fails the vine's QP
  expect_failed_alike(rod, {"duration=0.02", "forces.gravity=[0, 0, -1e308]"}, "rod");
  expect_failed_alike(vine, {"vine.steps=20", "vine.mass=1e308"}, "vine");
}

}  // namespace
}  // namespace tendril::io
