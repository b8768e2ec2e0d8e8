// The flagellated robot's sweep table (docs/physics/flagellated_robot.md, "Against the paper":
// granular_flagella Fig. 6 and 7, examples/flagellated_robot.yaml, fits over 10-20 s) reproduced to its
// printed digits with the Newton evaluation on 1 thread (integrator.newton.threads), and on 2 threads for
// two of its rows, whose runs are bitwise identical to 1 thread's at every step: the threads compute
// element-local values that are added in the serial order (docs/physics/time_integration.md, "Threads").
// About 20 s of simulated swimming per row: a few seconds in all on one core.
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

Simulation robot(int tails, int rpm, double duration, int threads) {
  // ctest sets TENDRIL_SOURCE_DIR; run by hand from the source tree without it
  const char* source = std::getenv("TENDRIL_SOURCE_DIR");
  return Simulation::from_file(std::string(source ? source : ".") + "/examples/flagellated_robot.yaml",
                               {"flagellated_robot.tails=" + std::to_string(tails),
                                "flagellated_robot.motor_rpm=" + std::to_string(rpm),
                                "duration=" + std::to_string(duration),
                                "integrator.newton.threads=" + std::to_string(threads)});
}

/// Runs one robot per thread count in lock step and asserts the states are bitwise equal after every step.
std::vector<Simulation> run_in_lock_step(int tails, int rpm, double duration, const std::vector<int>& threads) {
  std::vector<Simulation> sims;
  for (int t : threads) sims.push_back(robot(tails, rpm, duration, t));
  while (!sims[0].finished()) {
    for (Simulation& s : sims) EXPECT_TRUE(s.step().ok());
    for (std::size_t k = 1; k < sims.size(); ++k) {
      // bitwise: == on doubles (no tolerance)
      if (!(sims[k].state().q.array() == sims[0].state().q.array()).all() ||
          !(sims[k].state().u.array() == sims[0].state().u.array()).all()) {
        ADD_FAILURE() << threads[k] << " threads differ from " << threads[0] << " at t = " << sims[0].state().time;
        return sims;
      }
    }
  }
  return sims;
}

TEST(RobotThreads, HalfASecondIsBitwiseTheSameOn1To3Threads) {
  // two runs on 2 threads and one each on 1 and 3: the same positions, twists and velocities at every step
  run_in_lock_step(2, 100, 0.5, {1, 2, 2, 3});
}

TEST(RobotThreads, SweepTableIsReproducedOn1And2Threads) {
  struct Row {
    int tails, rpm;
    const char *v, *omega_h, *omega_t, *eta;  // v [mm/s], omega_h, omega_t [rad/s], eta [-], as printed
  };
  const Row table[] = {
      {2, 50, "0.056", "5.05", "0.18", "0.026"},  {2, 100, "0.215", "10.00", "0.47", "0.050"},
      {2, 150, "0.366", "14.78", "0.93", "0.058"}, {2, 200, "0.450", "19.54", "1.40", "0.054"},
      {2, 250, "0.515", "24.32", "1.86", "0.049"}, {3, 50, "0.033", "5.12", "0.12", "0.015"},
      {3, 100, "0.134", "10.21", "0.26", "0.030"}, {3, 150, "0.289", "15.22", "0.48", "0.044"},
      {3, 200, "0.433", "20.15", "0.79", "0.050"}, {3, 250, "0.529", "25.06", "1.12", "0.049"},
  };
  for (const Row& row : table) {
    // 2 threads beside 1 for two rows (bitwise the same, so the same digits), 1 thread for the others
    const bool both = (row.tails == 2 && row.rpm == 100) || (row.tails == 3 && row.rpm == 250);
    const std::vector<Simulation> sims = run_in_lock_step(row.tails, row.rpm, 20.0, both ? std::vector<int>{1, 2} : std::vector<int>{1});
    for (const Simulation& sim : sims) {
      const RobotObservables::Summary o = sim.observables()->summary();
      const std::string where = fmt::format("n = {}, {} rpm, {} threads", row.tails, row.rpm,
                                            sim.scene().dynamics.newton.threads);
      EXPECT_EQ(fmt::format("{:.3f}", 1e3 * o.speed), row.v) << where;
      EXPECT_EQ(fmt::format("{:.2f}", o.head_rotation_rate), row.omega_h) << where;
      EXPECT_EQ(fmt::format("{:.2f}", o.tail_rotation_rate), row.omega_t) << where;
      EXPECT_EQ(fmt::format("{:.3f}", o.efficiency), row.eta) << where;
    }
  }
}

}  // namespace
}  // namespace tendril::sim
