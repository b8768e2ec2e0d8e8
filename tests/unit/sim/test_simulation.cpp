// The Simulation facade: step counts, energies by term, run directories on success and failure.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "support/scratch_dir.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

namespace fs = std::filesystem;

RodScene load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_rod_scene_text(text, overrides, "test.yaml");
}

const std::string kCantilever =
    "duration: 0.0105\n"
    "rods:\n"
    "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 11}\n"
    "    clamp: start\n"
    "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
    "forces: {gravity: [0, 0, -9.81]}\n"
    "integrator: {type: implicit_euler, dt: 0.001}\n"
    "output: {every_steps: 4}\n";

fs::path scratch(const std::string& name) {
  return testing::scratch_dir("sim_run") / name;
}

TEST(Simulation, StepsFramesAndArrays) {
  Simulation sim{load(kCantilever)};
  EXPECT_EQ(sim.total_steps(), 11);  // ceil(0.0105 / 0.001), the last step shortened to end at T
  const fs::path out = scratch("cantilever");
  long calls = 0;
  const RunResult r = sim.run(out, [&](const Progress& p) { calls = p.step; });
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(calls, 11);
  EXPECT_NEAR(sim.state().time, 0.0105, 1e-15);
  // frames: initial, steps 4 and 8, and the last
  EXPECT_EQ(r.frames, 4);
  const io::NpyArray x = io::read_npy(out / "positions.npy");
  EXPECT_EQ(x.shape, (std::vector<std::size_t>{4, 11, 3}));
  EXPECT_EQ(io::read_npy(out / "twists.npy").shape, (std::vector<std::size_t>{4, 10}));
  const io::NpyArray t = io::read_npy(out / "frame_time.npy");
  EXPECT_NEAR(t.data[1], 0.004, 1e-15);
  EXPECT_NEAR(t.data[3], 0.0105, 1e-15);
  const io::NpyArray dt = io::read_npy(out / "step_dt.npy");
  ASSERT_EQ(dt.shape, (std::vector<std::size_t>{11}));
  EXPECT_NEAR(dt.data[10], 0.0005, 1e-12);
  // the tip falls
  EXPECT_LT(x.data[3 * 11 * 3 + 3 * 10 + 2], 0.0);
  // energy terms are named by the terms
  const auto e = sim.energies();
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].first, "stretch");
  EXPECT_EQ(e[2].first, "gravity");
  EXPECT_EQ(e[3].first, "kinetic");
  EXPECT_LT(e[2].second, 0.0);
  EXPECT_GT(e[3].second, 0.0);
}

TEST(Simulation, FailedStepKeepsPartialRunAsFailed) {
  // one Newton iteration without line search cannot converge a large step: the run must fail cleanly
  Simulation sim{load(kCantilever, {"integrator.newton.max_iterations=1", "integrator.max_dt_halvings=0",
                                    "integrator.dt=0.01", "duration=0.05"})};
  const fs::path out = scratch("failing");
  fs::create_directories(out);
  // an earlier run (its run.json lists its files)
  std::ofstream(out / "run.json") << "{\"format\": \"tendril-run\", \"files\": [\"previous\", \"run.json\"]}\n";
  std::ofstream(out / "previous") << "kept";
  const RunResult r = sim.run(out);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.message.find("max_iterations"), std::string::npos) << r.message;
  EXPECT_EQ(r.path.filename().string(), "failing.failed");
  EXPECT_TRUE(fs::exists(out / "previous"));
  std::ifstream meta(r.path / "run.json");
  std::stringstream text;
  text << meta.rdbuf();
  EXPECT_NE(text.str().find("\"status\": \"failed\""), std::string::npos);
  // the failed step is recorded with a non-zero status
  const io::NpyArray status = io::read_npy(r.path / "step_status.npy");
  ASSERT_GE(status.size(), 1u);
  EXPECT_NE(status.data.back(), 0.0);
}

TEST(Simulation, StaticSolveOnce) {
  Simulation sim{load(kCantilever, {"integrator.type=static", "duration=0", "rods.0.material.E=1e9"})};
  EXPECT_EQ(sim.total_steps(), 1);
  const StepReport rep = sim.step();
  ASSERT_TRUE(rep.ok()) << rep.message;
  EXPECT_TRUE(sim.finished());
  // small deflection (q L^3 / EI ~ 2e-3): tip deflection close to Euler-Bernoulli q L^4 / (8 EI)
  const double r = 0.005, A = 3.141592653589793 * r * r, I = A * r * r / 4, q = 1000 * A * 9.81, L = 0.5;
  const double w = q * L * L * L * L / (8 * 1e9 * I);
  EXPECT_NEAR(sim.state().q[3 * 10 + 2], -w, 0.05 * w);
}

}  // namespace
}  // namespace tendril::sim

namespace tendril::sim {
namespace {

TEST(Simulation, StaticClampTurningAlmostHalfATurnInOneSolveStaysRigid) {
  // a weightless rod whose clamp turns by 3.1 rad about z in one quasi-static solve: the equilibrium
  // is the rigidly turned rod; the solver must carry the clamp along its rotation (a straight-line
  // path of the clamped nodes shortens the clamped edge almost to zero, and failed here)
  Simulation sim{load("duration: 1.0\n"
                      "rods:\n"
                      "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 11}\n"
                      "    clamp: start\n"
                      "    clamp_motion: {angular_velocity: [0, 0, 3.1]}\n"
                      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
                      "integrator: {type: static, dt: 1.0}\n")};
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  const int tip = sim.model().dofs.num_nodes - 1;
  const Vec3 x = sim.state().q.segment<3>(3 * tip);
  EXPECT_NEAR(x.x(), 0.5 * std::cos(3.1), 1e-6);
  EXPECT_NEAR(x.y(), 0.5 * std::sin(3.1), 1e-6);
  EXPECT_NEAR(x.z(), 0.0, 1e-9);
}

}  // namespace
}  // namespace tendril::sim
