// A Model is read-only while it is stepped (core/term.hpp, "Terms are read-only"): two Simulations
// of one Model, stepping at the same time on two std::threads, give bitwise the results of each run
// alone. The two Simulations are built from copies of one loaded scene, so their Models hold the
// same term objects (checked); every evaluation writes only the workspaces of its own simulation
// (core/model_workspace.hpp). The second run starts with other velocities, so that anything one run
// left in a shared term would change the other. Scenes: the flagellated robot (RFT and bend-twist
// element values computed on two Newton threads per run) and the legged robot with ground contact
// and self-contact (candidate pairs updated before every step, broad-phase buffers).
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

RodScene load(const std::string& example, const std::vector<std::string>& overrides) {
  return load_rod_scene_file(testing::source_tree() / "examples" / example, overrides);
}

/// Adds `dv` [m/s] to the velocity of every free node of `sim`.
void push(Simulation& sim, const Vec3& dv) {
  const Model& m = sim.model();
  for (int n = 0; n < m.dofs.num_nodes; ++n)
    for (int c = 0; c < 3; ++c)
      if (!m.fixed[static_cast<std::size_t>(3 * n + c)]) sim.state().u[3 * n + c] += dv[c];
}

/// q and u after every step of `sim` to its end.
struct Trajectory {
  std::vector<VecX> q, u;
  std::string failure;  ///< the first step's failure, if any
};

void run(Simulation& sim, Trajectory& out) {
  while (!sim.finished()) {
    const StepReport report = sim.step();
    if (!report.ok()) {
      out.failure = report.message;
      return;
    }
    out.q.push_back(sim.state().q);
    out.u.push_back(sim.state().u);
  }
}

void expect_bitwise_equal(const Trajectory& threaded, const Trajectory& alone,
                          const std::string& what) {
  ASSERT_TRUE(alone.failure.empty()) << what << " alone: " << alone.failure;
  ASSERT_TRUE(threaded.failure.empty()) << what << " on a thread: " << threaded.failure;
  ASSERT_EQ(threaded.q.size(), alone.q.size()) << what;
  ASSERT_GT(alone.q.size(), 1u) << what;
  for (std::size_t k = 0; k < alone.q.size(); ++k)
    ASSERT_TRUE((threaded.q[k].array() == alone.q[k].array()).all() &&
                (threaded.u[k].array() == alone.u[k].array()).all())
        << what << ": the run on a thread differs from the run alone after step " << k + 1;
}

/// Runs two Simulations of an example scene, the second pushed by `dv`: alone one after the other
/// (each on a Model of its own), then both at once on two threads on one Model (a copy of one
/// loaded scene each, sharing its terms), and compares the trajectories.
void expect_shared_model_steps_on_two_threads(const std::string& example,
                                              const std::vector<std::string>& overrides,
                                              const Vec3& dv) {
  Trajectory alone[2], threaded[2];
  for (int k = 0; k < 2; ++k) {
    Simulation sim(load(example, overrides));
    if (k == 1) push(sim, dv);
    run(sim, alone[k]);
  }
  const RodScene scene = load(example, overrides);
  Simulation first(scene), second(scene);
  ASSERT_EQ(first.model().energies.size(), second.model().energies.size());
  for (std::size_t t = 0; t < first.model().energies.size(); ++t)
    ASSERT_EQ(first.model().energies[t].get(), second.model().energies[t].get());
  for (std::size_t t = 0; t < first.model().forces.size(); ++t)
    ASSERT_EQ(first.model().forces[t].get(), second.model().forces[t].get());
  push(second, dv);
  std::thread one([&] { run(first, threaded[0]); });
  std::thread two([&] { run(second, threaded[1]); });
  one.join();
  two.join();
  expect_bitwise_equal(threaded[0], alone[0], example + ", first run");
  expect_bitwise_equal(threaded[1], alone[1], example + ", second run");
}

TEST(SharedModel, FlagellatedRobotInAGranularMediumStepsOnTwoThreadsAsAlone) {
  expect_shared_model_steps_on_two_threads("flagellated_robot.yaml",
                                           {"duration=1.0", "integrator.newton.threads=2"},
                                           Vec3(0.0, 0.01, 0.0));
}

TEST(SharedModel, LeggedRobotWithGroundAndSelfContactStepsOnTwoThreadsAsAlone) {
  expect_shared_model_steps_on_two_threads(
      "legged_robot.yaml", {"duration=0.05", "contact.self.friction=0.3"}, Vec3(0.0, 0.0, -0.5));
}

}  // namespace
}  // namespace tendril::sim
