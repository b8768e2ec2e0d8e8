// Ground contact and friction (mat_dismech sec. 5.2, eq. 25-26 with the friction law of eq. 23):
// - statics: a rod resting on the ground carries exactly its weight (force balance: the contact
//   forces sum to m g, to the Newton tolerance);
// - Coulomb's law on an incline (e.g. any mechanics text: a block on a plane of angle a with
//   friction mu sticks for tan a < mu and otherwise slides with a = g (sin a - mu cos a)).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "energy_force.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

/// Sum of the ground contact forces on all nodes at the current state [N].
Vec3 contact_force(const sim::Simulation& sim) {
  std::vector<int> nodes(sim.model().dofs.num_nodes);
  for (int i = 0; i < sim.model().dofs.num_nodes; ++i) nodes[i] = i;
  return testing::energy_force_on(sim, nodes, [](const Energy& e) {
    return dynamic_cast<const contact::ObstacleContact*>(&e) != nullptr;
  });
}

double total_mass(const Model& m) {
  double mass = 0.0;
  for (int i = 0; i < m.dofs.num_nodes; ++i) mass += m.mass[m.dofs.node(i)];
  return mass;
}

TEST(GroundContact, RestingRodCarriesExactlyItsWeight) {
  // static equilibrium of a slightly curved rod lying on z = 0; horizontal rigid motions and the
  // twist about the axis are held by fixing x, y of node 0, y of the last node and one twist
  const std::string scene = R"(
duration: 0
rods:
  - geometry: {type: explicit, nodes: [[0, 0, 0.0012], [0.02, 0.001, 0.0013], [0.04, 0.0015, 0.0011],
                                       [0.06, 0.001, 0.0012], [0.08, 0, 0.0014]]}
    material: {E: 2.0e6, nu: 0.3, density: 1500, radius: 0.001}
boundary_conditions:
  fixed_dofs: [{node: 0, components: [x, y]}, {node: -1, components: [y]}]
  fixed_twists: [{edges: [0]}]
forces: {gravity: [0, 0, -9.8]}
contact:
  stiffness: 20
  distance_tolerance: 5.0e-4
  ground: {friction: 0.25}
integrator: {type: static}
)";
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  const double weight = total_mass(sim.model()) * 9.8;
  const Vec3 f = contact_force(sim);
  EXPECT_NEAR(f.z(), weight, 1e-6 * weight);
  EXPECT_NEAR(f.x(), 0.0, 1e-12);
  // every node is in contact and none penetrates by more than delta
  const contact::ContactStatistics stats = sim.contact_statistics();
  EXPECT_EQ(stats.active, 5);
  EXPECT_GT(stats.min_gap, -5e-4);
}

/// A short rod lying along the slope of an incline of angle `angle` [rad] through the origin, at
/// rest with its surface 1 um above it; mu = 0.5, nu = 1e-4 m/s. Returns the downhill velocity of
/// its centre node at the given times [s].
std::vector<double> slide(double angle, const std::vector<double>& times) {
  const double c = std::cos(angle), s = std::sin(angle), r = 0.001;
  // rod along the uphill direction (c, 0, s), one radius (+1 um) off the plane with normal (-s, 0,
  // c)
  const Vec3 start = Vec3(0.0, 0.0, 0.0) + (r + 1e-6) * Vec3(-s, 0, c),
             end = start + 0.04 * Vec3(c, 0, s);
  const std::string scene = fmt::format(R"(
duration: {}
rods:
  - geometry: {{type: straight, start: [{}, {}, {}], end: [{}, {}, {}], num_nodes: 5}}
    material: {{E: 1.0e7, nu: 0.3, density: 1000, radius: {}}}
forces: {{gravity: [0, 0, -9.81]}}
contact:
  stiffness: 200
  distance_tolerance: 1.0e-4
  slip_tolerance: 1.0e-4
  ground: {{normal: [{}, 0, {}], friction: 0.5}}
integrator: {{type: implicit_euler, dt: 1.0e-4}}
)",
                                        times.back(), start.x(), start.y(), start.z(), end.x(),
                                        end.y(), end.z(), r, -s, c);
  sim::Simulation sim(sim::load_rod_scene_text(scene));
  const Vec3 downhill(-c, 0, -s);
  std::vector<double> velocity;
  for (double t : times) {
    while (sim.state().time < t - 1e-9) {
      const StepReport report = sim.step();
      EXPECT_TRUE(report.ok()) << report.message;
      if (!report.ok()) return velocity;
    }
    velocity.push_back(sim.state().u.segment<3>(sim.model().dofs.node(2)).dot(downhill));
  }
  return velocity;
}

TEST(GroundFriction, RodOnAnInclineSticksBelowTheFrictionAngle) {
  // tan(20 deg) = 0.36 < mu = 0.5: in the smooth law the rod creeps at the slip speed where
  // gamma = tan a / mu, (nu / 7.5) atanh(0.728) = 1.2e-5 m/s, below nu = 1e-4 m/s
  const std::vector<double> v = slide(20.0 * std::numbers::pi / 180.0, {0.1, 0.2});
  ASSERT_EQ(v.size(), 2u);
  for (double vi : v) EXPECT_LT(std::abs(vi), 1e-4);
  EXPECT_NEAR(v[1], 1e-4 / 7.5 * std::atanh(std::tan(20.0 * std::numbers::pi / 180.0) / 0.5), 2e-6);
}

TEST(GroundFriction, RodOnAnInclineSlidesWithCoulombAcceleration) {
  // tan(35 deg) = 0.70 > mu = 0.5: a = g (sin a - mu cos a); backward Euler integrates a constant
  // acceleration exactly and gamma = 1 - O(e^{-15 v / nu}) once v >> nu; what remains is the
  // decaying normal oscillation in the penalty spring (measured: relative error 1.8e-6; bound 1e-4)
  const double a = 35.0 * std::numbers::pi / 180.0;
  const std::vector<double> v = slide(a, {0.1, 0.2});
  ASSERT_EQ(v.size(), 2u);
  const double expected = 9.81 * (std::sin(a) - 0.5 * std::cos(a));
  EXPECT_NEAR((v[1] - v[0]) / 0.1, expected, 1e-4 * expected);
}

}  // namespace
}  // namespace tendril
