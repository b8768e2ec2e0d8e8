// A rod or shell run continued from one of its saved frames (`restart.run` / `restart.frame`,
// restart_state.hpp) equals the run that did not stop bit for bit: every later frame's positions,
// twists, xi, joint twists, energies, work, reactions and full state, from several frames, for a
// clamped rod under gravity, a rod-and-shell parachute with mid-edge DOFs, a flapping plate in
// water (hinge actuation, drag, chord Newton steps), and scenes restarted while in contact: a rod
// on the ground with friction, a knot in self-contact with friction (edge-edge candidate pairs) and
// a rod on a trampoline (rod-shell point-triangle pairs with friction).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/example_path.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

namespace fs = std::filesystem;

/// Every frame array of `part` equals frames `from`.. of `full` bit for bit.
void expect_same_tail(const io::RunData& full, const io::RunData& part, std::size_t from) {
  int compared = 0;
  for (const io::RunArrayEntry& entry : full.entries) {
    if (entry.name.rfind("step_", 0) == 0)
      continue;  // per step: wall times differ, the rest is compared per frame
    const io::NpyArray& a = full.array(entry.name);
    const io::NpyArray& b = part.array(entry.name);
    const std::size_t row = a.size() / a.shape[0];
    ASSERT_EQ(a.shape[0], from + b.shape[0]) << entry.name;
    for (std::size_t i = 0; i < b.size(); ++i)
      ASSERT_EQ(a.data[from * row + i], b.data[i]) << entry.name << " frame " << from + i / row;
    ++compared;
  }
  EXPECT_GE(compared, 5);
}

/// The largest contact force on a node at frame `frame` of `run` [N].
double contact_force_at(const io::RunData& run, std::size_t frame) {
  const io::NpyArray& f = run.array("contact_forces");
  const std::size_t row = f.size() / f.shape[0];
  double largest = 0.0;
  for (std::size_t i = 0; i < row; ++i)
    largest = std::max(largest, std::abs(f.data[frame * row + i]));
  return largest;
}

/// Restarts `scene` from each of `frames` and compares with the run that did not stop; with
/// `in_contact`, each of those frames has a contact force.
void check_restarts(const std::string& scene, const std::vector<std::string>& overrides,
                    const std::vector<long>& frames, const std::string& tag,
                    bool in_contact = false) {
  const fs::path dir = testing::scratch_dir("sim_restart") / tag;
  const RunResult full_result =
      Simulation::from_file(testing::example_path(scene), overrides).run(dir / "full");
  ASSERT_TRUE(full_result.ok) << full_result.message;
  const io::RunData full = io::read_run(dir / "full");
  for (long frame : frames) {
    SCOPED_TRACE("restart from frame " + std::to_string(frame));
    if (in_contact) {
      EXPECT_GT(contact_force_at(full, static_cast<std::size_t>(frame)), 0.0) << "in contact";
    }
    std::vector<std::string> set = overrides;
    set.push_back("restart.run=" + (dir / "full").string());
    set.push_back("restart.frame=" + std::to_string(frame));
    const fs::path out = dir / ("from_" + std::to_string(frame));
    Simulation sim = Simulation::from_file(testing::example_path(scene), set);
    EXPECT_GT(sim.state().u.lpNorm<Eigen::Infinity>(), 0.0) << "a moving state";
    const RunResult result = sim.run(out);
    ASSERT_TRUE(result.ok) << result.message;
    // the restarted run saves the frames after the one it started from
    expect_same_tail(full, io::read_run(out), static_cast<std::size_t>(frame + 1));
  }
}

TEST(SimRestart, ClampedRodUnderGravityContinuesBitIdentically) {
  check_restarts("cantilever_gravity.yaml", {}, {1, 7, 15}, "rod");
}

TEST(SimRestart, ParachuteWithMidEdgeShellContinuesBitIdentically) {
  check_restarts("parachute.yaml", {"duration=0.3", "shells.0.bending=midedge"}, {2, 4},
                 "parachute");
}

TEST(SimRestart, FlappingPlateInWaterContinuesBitIdentically) {
  check_restarts("manta_ray.yaml", {"duration=0.1"}, {1, 3}, "manta");
}

TEST(SimRestart, RodOnTheGroundWithFrictionContinuesBitIdentically) {
  check_restarts("rod_drop_soft.yaml", {"duration=0.2"}, {12, 17}, "ground", true);
}

// the self-contact candidate pairs depend on the time of their last update (the motion allowance),
// which the restart restores
TEST(SimRestart, KnotInSelfContactWithFrictionContinuesBitIdentically) {
  check_restarts("overhand_knot.yaml", {"duration=0.1"}, {7, 9}, "knot", true);
}

TEST(SimRestart, RodOnTrampolineShellContinuesBitIdentically) {
  check_restarts("rod_on_trampoline.yaml", {"duration=0.2"}, {8, 17}, "trampoline", true);
}

TEST(SimRestart, BadRestartIsRefusedNamingTheKey) {
  const fs::path dir = testing::scratch_dir("sim_restart") / "bad";
  ASSERT_TRUE(
      Simulation::from_file(testing::example_path("cantilever_gravity.yaml"), {"duration=0.02"})
          .run(dir / "run")
          .ok);
  const auto refused = [&](const std::string& scene, const std::vector<std::string>& set,
                           const std::string& key) {
    try {
      Simulation::from_file(testing::example_path(scene), set);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.key_path(), key) << e.what();
    }
  };
  const std::string run = "restart.run=" + (dir / "run").string();
  refused("cantilever_gravity.yaml", {"duration=0.02", run, "restart.frame=3"}, "restart.frame");
  refused("cantilever_gravity.yaml", {"duration=0.01", run},
          "restart.frame");  // beyond the scene's steps
  refused("cantilever_gravity.yaml", {"duration=0.02", run, "rods.0.geometry.num_nodes=10"},
          "restart.run");
  refused("cantilever_gravity.yaml", {"restart.run=" + (dir / "missing").string()}, "restart.run");
  // the observables fit the whole history, which is not saved
  refused("flagellated_robot.yaml", {run}, "restart");
}

}  // namespace
}  // namespace tendril::sim
