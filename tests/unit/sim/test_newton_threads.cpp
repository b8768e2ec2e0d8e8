// The threaded Newton evaluation (integrator.newton.threads, docs/physics/time_integration.md
// "Threads") gives bitwise the results of one thread on scenes other than the flagellated robot
// (whose test is tests/validation/media/test_robot_threads.cpp): a star of rods joined at a hub
// under gravity (springs across the threads' edge ranges), and a rod welded to a plate (rod-shell
// joint springs, shell terms without element values, gravity as an external load ramped by the
// static solve's load steps and dynamically). Each scene runs on 1, 2 and 3 threads in lock step,
// compared with == after every step.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/source_tree.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

void expect_bitwise_equal_on_threads(const std::string& example,
                                     std::vector<std::string> overrides) {
  std::vector<Simulation> sims;
  for (int threads : {1, 2, 3}) {
    std::vector<std::string> set = overrides;
    set.push_back("integrator.newton.threads=" + std::to_string(threads));
    sims.push_back(Simulation::from_file(testing::source_tree() / "examples" / example, set));
  }
  int steps = 0;
  do {
    for (Simulation& s : sims) ASSERT_TRUE(s.step().ok()) << example;
    ++steps;
    for (std::size_t k = 1; k < sims.size(); ++k)
      ASSERT_TRUE((sims[k].state().q.array() == sims[0].state().q.array()).all() &&
                  (sims[k].state().u.array() == sims[0].state().u.array()).all())
          << example << ": " << k + 1 << " threads differ from 1 after step " << steps;
  } while (!sims[0].finished());
  EXPECT_GT(steps, 0);
}

TEST(NewtonThreads, StarNetworkIsBitwiseTheSameOn1To3Threads) {
  expect_bitwise_equal_on_threads("star_network.yaml", {"duration=0.02"});
}

TEST(NewtonThreads, RodWeldedToAPlateIsBitwiseTheSameOn1To3Threads) {
  expect_bitwise_equal_on_threads("rod_plate_cantilever.yaml", {});  // static, load steps
  expect_bitwise_equal_on_threads(
      "rod_plate_cantilever.yaml",
      {"integrator.type=implicit_euler", "integrator.dt=0.001", "duration=0.01"});
}

}  // namespace
}  // namespace tendril::sim
