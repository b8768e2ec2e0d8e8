// Scene keys of the media forces, actuation, per-spring rest shapes, observables and the
// flagellated robot generator, and InputErrors naming key path and value for bad ones.
#include <gtest/gtest.h>

#include <numbers>

#include "support/input_error.hpp"
#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/core/actuator.hpp"
#include "tendril/core/term.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/rft.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::sim {
namespace {

using testing::expect_input_error;

RodScene load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_rod_scene_text(text, overrides, "test.yaml");
}

/// One straight rod of 11 nodes (0.1 m edges, r = 5 mm) with `rod_keys` (rod-level lines), plus
/// `extra`.
std::string rod(const std::string& extra, const std::string& rod_keys = "") {
  return "duration: 0.01\nrods:\n  - geometry: {type: straight, direction: [1, 0, 0], length: 1.0, "
         "num_nodes: 11}\n"
         "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n" +
         rod_keys + extra;
}

template <class T>
int count(const Model& m) {
  int n = 0;
  for (const auto& f : m.forces) n += dynamic_cast<const T*>(f.get()) != nullptr;
  return n;
}

TEST(MediaScene, ForcesActuationAndRestShapeAreBuilt) {
  const RodScene s = load(
      rod(R"(forces:
  viscous_drag: [{viscosity: 0.5}, {viscosity: 1.0, rod: 0, nodes: [0, -1]}]
  rft: [{rods: [0], mu: 6.828}]
  head_drag: {node: 0, edge: 0, C1: 2.42, C2: 0.039, mu: 6.828, radius: 0.02}
actuation:
  - {quantity: natural_twist, nodes: [3], schedule: {type: rate, rate: 2.0}}
  - {quantity: natural_curvature_1, schedule: {type: sinusoid, amplitude: 0.1, frequency: 1, phase_per_length: 6.28}}
  - {quantity: rest_length, edges: [1], schedule: {type: table, table: [[0, 0.1], [1, 0.2]]}}
)",
          "    rest_shape: [{nodes: [5], natural_curvature: [2.0, 0.0], natural_twist: 1.0}]\n"));
  const Model& m = s.model;
  EXPECT_EQ(count<ViscousDrag>(m), 2);
  EXPECT_EQ(count<ResistiveForce>(m), 1);
  EXPECT_EQ(count<HeadDrag>(m), 1);
  for (const auto& f : m.forces) {
    if (const auto* v = dynamic_cast<const ViscousDrag*>(f.get()); v && v->nodes().size() == 2) {
      EXPECT_EQ(v->nodes(), (std::vector<int>{0, 10}));
    }
  }
  for (const auto& f : m.forces)
    if (const auto* r = dynamic_cast<const ResistiveForce*>(f.get())) {
      // L = 1 m (the rod's length), r0 = 5 mm (its material radius)
      const RftCoefficients expected = rft_coefficients_from_medium(6.828, 1.0, 0.005);
      EXPECT_NEAR(r->coefficients().tangential, expected.tangential, 1e-12);
      EXPECT_NEAR(r->coefficients().normal, expected.normal, 1e-12);
    }
  ASSERT_EQ(m.actuators.size(), 3u);
  // spring k sits at node k + 1; rest_shape at node 5: |kappa_bar| = 2 tan(kappa l / 2), twist tau
  // l
  const BendTwistSpring& five = m.rods.springs[4];
  EXPECT_NEAR(five.natural_curvature[0], 2.0 * std::tan(0.5 * 2.0 * 0.1), 1e-12);
  EXPECT_NEAR(five.natural_twist, 0.1, 1e-12);
  RodNetwork rods;
  actuated_rods(m, 0.5, rods);
  EXPECT_NEAR(rods.springs[2].natural_twist, 1.0, 1e-12) << "the motor at node 3: 0 + 2 t";
  EXPECT_NEAR(rods.rest_length[1], 0.15, 1e-12);
  // the travelling wave at the spring of node 5 (s = 0.5 m) starts from its built value
  EXPECT_NEAR(rods.springs[4].natural_curvature[0],
              five.natural_curvature[0] + 0.1 * std::sin(2 * std::numbers::pi * 0.5 - 6.28 * 0.5),
              1e-12);
}

TEST(MediaScene, FlagellatedRobotIsGenerated) {
  const RodScene s =
      load("duration: 1\nflagellated_robot: {tails: 3, motor_rpm: 60}\nintegrator: {dt: 0.01}\n");
  // body: x_0, x_h, x_a and 3 rim nodes; 3 tails of 27 edges joined at the rim
  EXPECT_EQ(s.model.dofs.num_nodes, 6 + 3 * 27);
  EXPECT_EQ(s.rod_nodes.size(), 4u);
  EXPECT_EQ(count<ResistiveForce>(s.model), 3);
  EXPECT_EQ(count<HeadDrag>(s.model), 1);
  ASSERT_EQ(s.model.actuators.size(), 1u);
  RodNetwork rods;
  actuated_rods(s.model, 1.0, rods);
  EXPECT_NEAR(rods.springs[0].natural_twist - s.model.rods.springs[0].natural_twist,
              2 * std::numbers::pi, 1e-12)
      << "the motor spring at x_h (body node 1) turns once per second at 60 rpm";
  ASSERT_TRUE(s.observables);
  EXPECT_EQ(s.observables->head_edge, 0);
  expect_input_error(
      [] { load("duration: 1\nflagellated_robot: {tails: 2}\n" + rod("").substr(14)); },
      {"rods", "absent when flagellated_robot is given"});
}

TEST(MediaScene, NewtonThreadsComeFromTheSceneOrSet) {
  const std::string robot = "duration: 1\nflagellated_robot: {tails: 2}\nintegrator: {dt: 0.01}\n";
  EXPECT_EQ(load(robot).dynamics.newton.threads, 1) << "default: one thread";
  EXPECT_EQ(load(robot, {"integrator.newton.threads=2"}).dynamics.newton.threads, 2);
  EXPECT_EQ(load("duration: 1\nflagellated_robot: {tails: 2}\nintegrator: {dt: 0.01, newton: "
                 "{threads: 4}}\n")
                .dynamics.newton.threads,
            4);
  expect_input_error([&] { load(robot, {"integrator.newton.threads=0"}); },
                     {"integrator.newton.threads", "0"});
  expect_input_error([&] { load(robot, {"integrator.newton.threads=65"}); },
                     {"integrator.newton.threads", "65"});
  expect_input_error([&] { load(robot, {"integrator.newton.threads=auto"}); },
                     {"integrator.newton.threads", "auto"});
  expect_input_error([&] { load(robot, {"integrator.newton.threads=1.5"}); },
                     {"integrator.newton.threads", "1.5"});
}

TEST(MediaScene, BadInputNamesKeyAndValue) {
  expect_input_error([] { load(rod("forces: {viscous_drag: [{viscosity: -2}]}\n")); },
                     {"forces.viscous_drag[0].viscosity", "-2"});
  expect_input_error([] { load(rod("forces: {rft: [{rods: [0], eta_t: -1, eta_n: 1}]}\n")); },
                     {"forces.rft[0].eta_t", "-1"});
  // RFT on a rod shorter than its radius
  expect_input_error([] { load(rod("forces: {rft: [{rods: [0], mu: 1, length: 0.001}]}\n")); },
                     {"forces.rft[0].length", "0.001", "radius"});
  expect_input_error(
      [] { load(rod("forces: {head_drag: {node: 0, edge: 0, mu: -1, radius: 0.02}}\n")); },
      {"forces.head_drag.mu", "-1"});
  expect_input_error(
      [] {
        load(
            rod("actuation: [{quantity: natural_twist, schedule: {type: table, table: [[0, 0], [2, "
                "1], [1, 2]]}}]\n"));
      },
      {"actuation[0].schedule.table[2][0]", "1", "increasing"});
  expect_input_error(
      [] {
        load(
            rod("actuation: [{quantity: natural_twist, schedule: {type: table, table: [[0, 0], [1, "
                ".nan]]}}]\n"));
      },
      {"actuation[0].schedule.table"});
  // a motor on a rod end (no bend-twist spring)
  expect_input_error(
      [] {
        load(
            rod("actuation: [{quantity: natural_twist, nodes: [0], schedule: {type: rate, rate: "
                "1}}]\n"));
      },
      {"actuation[0].nodes[0]", "0", "exactly one bend-twist spring"});
  expect_input_error([] { load(rod("", "    rest_shape: [{nodes: [-1], natural_twist: 1}]\n")); },
                     {"rods[0].rest_shape[0].nodes[0]", "-1"});
}

}  // namespace
}  // namespace tendril::sim
