// The `contact` keys of rod scenes (sim/contact_scene.cpp): terms built from the keys, and bad input
// (negative stiffness or tolerance, friction without contact, an obstacle that starts inside a rod)
// reported as InputError naming the key and the value.
#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::sim {
namespace {

using testing::expect_input_error;

const std::string kRod = R"(
duration: 0.01
rods:
  - geometry: {type: straight, start: [0, 0, 0.01], end: [0.1, 0, 0.01], num_nodes: 6}
    material: {E: 1.0e6, nu: 0.3, density: 1000, radius: 0.002}
)";

RodScene load(const std::string& contact) { return load_rod_scene_text(kRod + contact); }

template <class T>
int count(const RodScene& s) {
  int n = 0;
  for (const auto& e : s.model.energies) n += dynamic_cast<const T*>(e.get()) != nullptr;
  for (const auto& f : s.model.forces) n += dynamic_cast<const T*>(f.get()) != nullptr;
  return n;
}

TEST(ContactScene, BuildsGroundObstaclesSelfContactAndFriction) {
  const RodScene s = load(R"(
contact:
  ground: {friction: 0.3}
  self: {}
  obstacles:
    - {shape: sphere, center: [0.05, 0, 0.1], radius: 0.02, friction: 0.1, path: [[0, 0, 0, 0], [1, 0, 0, -0.05]]}
    - {shape: capsule, p0: [0, 0.1, 0], p1: [0.1, 0.1, 0], radius: 0.01}
    - {shape: box, center: [0, -0.1, 0], half_extents: [0.01, 0.02, 0.03], rotation: [0, 0, 0.3]}
)");
  EXPECT_EQ(count<contact::ObstacleContact>(s), 4);
  EXPECT_EQ(count<contact::ObstacleFriction>(s), 2);  // mu = 0 adds no friction term
  EXPECT_EQ(count<contact::SelfContact>(s), 1);
  for (const auto& e : s.model.energies)
    if (const auto* c = dynamic_cast<const contact::ObstacleContact*>(e.get())) {
      EXPECT_EQ(c->nodes().nodes.size(), 6u);
      EXPECT_EQ(c->nodes().radius[0], 0.002);  // the rod's radius
      EXPECT_EQ(c->parameters().stiffness, 20.0);
    }
}

TEST(ContactScene, RejectsBadValuesNamingKeyAndValue) {
  expect_input_error([] { load("contact: {stiffness: -5, ground: {}}\n"); }, {"contact.stiffness", "-5", "> 0"});
  expect_input_error([] { load("contact: {distance_tolerance: 0, ground: {}}\n"); },
                     {"contact.distance_tolerance", "0", "> 0"});
  expect_input_error([] { load("contact: {slip_tolerance: -1e-3, ground: {}}\n"); }, {"contact.slip_tolerance"});
  expect_input_error([] { load("contact: {ground: {friction: -0.2}}\n"); }, {"contact.ground.friction", "-0.2"});
  expect_input_error([] { load("contact: {ground: {normal: [0, 0, 0]}}\n"); }, {"contact.ground.normal"});
  expect_input_error([] { load("contact: {rods: [3], ground: {}}\n"); }, {"contact.rods[0]", "3"});
  expect_input_error([] { load("contact: {}\n"); }, {"contact", "nothing enabled"});
}

TEST(ContactScene, RejectsFrictionWithoutContact) {
  expect_input_error([] { load("contact: {ground: {enabled: false, friction: 0.4}}\n"); },
                     {"contact.ground.friction", "0.4", "friction needs contact"});
  expect_input_error([] { load("contact: {ground: {}, self: {enabled: false, friction: 0.2}}\n"); },
                     {"contact.self.friction", "0.2"});
}

TEST(ContactScene, RejectsAnObstacleThatStartsInsideARod) {
  // the rod lies at z = 0.01 with radius 2 mm: a sphere around its middle node, a ground above it
  expect_input_error([] { load("contact: {obstacles: [{shape: sphere, center: [0.04, 0, 0.01], radius: 0.005}]}\n"); },
                     {"contact.obstacles[0]", "rods[0].nodes[2] at", "inside", "gap >= 0"});
  expect_input_error([] { load("contact: {ground: {point: [0, 0, 0.009]}}\n"); }, {"contact.ground", "inside"});
}

}  // namespace
}  // namespace tendril::sim
