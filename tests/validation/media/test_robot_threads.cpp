// The Newton evaluation on several threads (integrator.newton.threads) gives bitwise the results of
// one thread: the threads compute element-local values that are added in the serial order
// (docs/physics/time_integration.md, "Threads"). Checked on the flagellated robot
// (granular_flagella Fig. 3, examples/flagellated_robot.yaml) step by step, over 0.5 s and over 20
// s of two rows of the sweep table of docs/physics/flagellated_robot.md (Fig. 6 and 7), whose
// printed digits test_paper_sweep_table checks on 1 thread. About 2 s on one core.
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

Simulation robot(int tails, int rpm, double duration, int threads) {
  return Simulation::from_file(
      testing::source_tree() / "examples" / "flagellated_robot.yaml",
      {"flagellated_robot.tails=" + std::to_string(tails),
       "flagellated_robot.motor_rpm=" + std::to_string(rpm), "duration=" + std::to_string(duration),
       "integrator.newton.threads=" + std::to_string(threads)});
}

/// Runs one robot per thread count in lock step and asserts the states are bitwise equal after
/// every step.
std::vector<Simulation> run_in_lock_step(int tails, int rpm, double duration,
                                         const std::vector<int>& threads) {
  std::vector<Simulation> sims;
  for (int t : threads) sims.push_back(robot(tails, rpm, duration, t));
  while (!sims[0].finished()) {
    for (Simulation& s : sims) EXPECT_TRUE(s.step().ok());
    for (std::size_t k = 1; k < sims.size(); ++k) {
      // bitwise: == on doubles (no tolerance)
      if (!(sims[k].state().q.array() == sims[0].state().q.array()).all() ||
          !(sims[k].state().u.array() == sims[0].state().u.array()).all()) {
        ADD_FAILURE() << threads[k] << " threads differ from " << threads[0]
                      << " at t = " << sims[0].state().time;
        return sims;
      }
    }
  }
  return sims;
}

TEST(RobotThreads, HalfASecondIsBitwiseTheSameOn1To3Threads) {
  // two runs on 2 threads and one each on 1 and 3: the same positions, twists and velocities at
  // every step
  run_in_lock_step(2, 100, 0.5, {1, 2, 2, 3});
}

TEST(RobotThreads, TwoSweepRowsAreBitwiseTheSameOn1And2Threads) {
  // 20 s of two rows of the sweep table, as its test runs them (test_paper_sweep_table.cpp checks
  // every row's printed digits on 1 thread): bitwise the same states, so the same digits, on 2
  // threads
  for (const auto& [tails, rpm] : {std::pair{2, 100}, std::pair{3, 250}}) {
    const std::vector<Simulation> sims = run_in_lock_step(tails, rpm, 20.0, {1, 2});
    const RobotObservables::Summary one = sims[0].observables()->summary();
    const RobotObservables::Summary two = sims[1].observables()->summary();
    EXPECT_EQ(one.speed, two.speed) << tails << " tails, " << rpm << " rpm";
    EXPECT_EQ(one.head_rotation_rate, two.head_rotation_rate);
    EXPECT_EQ(one.tail_rotation_rate, two.tail_rotation_rate);
    EXPECT_EQ(one.efficiency, two.efficiency);
  }
}

}  // namespace
}  // namespace tendril::sim
