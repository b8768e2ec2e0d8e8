// Static solver defaults (issue 7): the scene and the API (StaticOptions) use one set, 100 Newton
// iterations per solve and load increments down to 1/1024, and with it the plain benchmark
// cantilever (docs/physics/time_integration.md: 30-40 iterations from the straight rod) converges
// at full load without load stepping.
#include <gtest/gtest.h>

#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

const std::string kCantilever =
    "duration: 0\n"
    "rods:\n"
    "  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 1.0, "
    "num_nodes: 26}\n"
    "    clamp: start\n"
    "    material: {E: 1.0e7, nu: 0.5, density: 1273.52, radius: 0.005}\n"
    "forces: {gravity: [0, 0, -9.81]}\n";

TEST(SolverDefaults, SceneAndApiAgree) {
  const RodScene statics =
      load_rod_scene_text(kCantilever + "integrator: {type: static}\n", {}, "test.yaml");
  EXPECT_EQ(statics.statics.newton.max_iterations, StaticOptions{}.newton.max_iterations);
  EXPECT_EQ(statics.statics.newton.max_iterations, 100);
  EXPECT_EQ(statics.statics.max_load_steps, StaticOptions{}.max_load_steps);
  EXPECT_EQ(statics.statics.max_load_steps, 1024);
  EXPECT_EQ(statics.statics.initial_load_steps, StaticOptions{}.initial_load_steps);
  const RodScene dynamics = load_rod_scene_text(
      kCantilever + "integrator: {type: implicit_euler}\n", {"duration=0.01"}, "test.yaml");
  EXPECT_EQ(dynamics.dynamics.newton.max_iterations, DynamicsOptions{}.newton.max_iterations);
  // an explicit value wins for both
  const RodScene set = load_rod_scene_text(
      kCantilever + "integrator: {type: static, newton: {max_iterations: 7}}\n", {}, "test.yaml");
  EXPECT_EQ(set.statics.newton.max_iterations, 7);
}

TEST(SolverDefaults, PlainCantileverStaticSolveNeedsNoLoadStepping) {
  Simulation sim{
      load_rod_scene_text(kCantilever + "integrator: {type: static}\n", {}, "test.yaml")};
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  // load stepping starts only after a failed full-load attempt, which alone spends max_iterations
  EXPECT_LT(report.iterations, StaticOptions{}.newton.max_iterations);
  EXPECT_NE(report.criterion, StopCriterion::none);
  EXPECT_LT(sim.state().q[3 * 25 + 2], -0.5) << "large deflection: q L^3 / EI = 200";
}

}  // namespace
}  // namespace tendril::sim
