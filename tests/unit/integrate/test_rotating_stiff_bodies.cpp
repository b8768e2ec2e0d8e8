// Stiff bodies that rotate (issue 23): a free helix, every edge equally stiff (E 1e9 Pa on a wire
// of 1 mm diameter), swimming in resistive force theory (or linear viscous drag) under a constant
// torque about its axis. A Newton step is linear in the positions, so where the helix has to turn
// by theta in a step it stretches every edge by about l theta^2 / 2, and with EA = 785 N the merit
// of y + a d rises for every a the line search tries. The line search turns each free body along
// the rigid rotation fitted to its step (docs/physics/time_integration.md, "Stiff parts that
// rotate"), so the helix turns.
//
// References: (1) the same run with the line search off (every full Newton step taken), which is
// the same implicit Euler scheme and converges in a few iterations here; both runs solve the same
// equations to the same force tolerance, so their positions agree to the solver's tolerance. (2)
// The spin rate of the helix against a converged run at dt / 4.
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/forces/point_moment.hpp"
#include "tendril/forces/rft.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "tendril/integrate/stiff_segments.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

constexpr int kEdges = 48;        ///< 3 turns
constexpr double kRadius = 5e-3;  ///< helix radius [m]
constexpr double kPitch = 5e-3;   ///< rise per turn [m]
constexpr double kTorque = 1e-5;  ///< moment about the helix axis z [N m]

/// The free helix (E 1e9 Pa, wire radius 0.5 mm, rho 1000 kg/m^3) with a torque on edge 0 about z
/// and RFT (mu 1 Pa s) or viscous drag (eta 1 Pa s) on every node.
test::BuiltRod torqued_helix(bool rft) {
  RodNetworkInput in;
  for (int i = 0; i <= kEdges; ++i) {
    const double phi = 6.0 * std::numbers::pi * i / kEdges;
    in.nodes.emplace_back(kRadius * std::cos(phi), kRadius * std::sin(phi),
                          kPitch * phi / (2.0 * std::numbers::pi));
  }
  for (int i = 0; i < kEdges; ++i) in.edges.push_back({i, i + 1});
  RodMaterial wire;
  wire.youngs_modulus = 1e9;
  wire.poisson_ratio = 0.5;
  wire.density = 1000.0;
  wire.radius = 5e-4;
  in.materials = {wire};
  test::BuiltRod rod = test::build(in);
  Model& model = rod.model;
  if (rft) {
    std::vector<int> edges(kEdges);
    for (int e = 0; e < kEdges; ++e) edges[e] = e;
    model.forces.push_back(std::make_shared<ResistiveForce>(
        model, edges, rft_coefficients_from_medium(1.0, 0.1, 5e-4)));
  } else {
    model.forces.push_back(std::make_shared<ViscousDrag>(model, std::vector<int>{}, 1.0));
  }
  model.forces.push_back(std::make_shared<PointMoment>(0, Vec3(0.0, 0.0, kTorque)));
  return rod;
}

struct HelixRun {
  State state;
  int iterations = 0, max_iterations = 0;
  bool ok = true;
  std::string message;
};

HelixRun run(bool rft, bool line_search, double dt, int steps) {
  const test::BuiltRod rod = torqued_helix(rft);
  DynamicsOptions options;
  options.dt = dt;
  options.max_dt_halvings = 0;
  options.newton.line_search.enabled = line_search;
  HelixRun out;
  out.state = test::rest_state(rod);
  TimeStepper stepper(rod.model, options, rod.q);
  for (int k = 0; k < steps; ++k) {
    const StepReport report = stepper.step(out.state);
    if (!report.ok()) {
      out.ok = false;
      out.message = "step " + std::to_string(k) + ": " + report.message;
      return out;
    }
    out.iterations += report.iterations;
    out.max_iterations = std::max(out.max_iterations, report.iterations);
  }
  return out;
}

/// Largest distance between corresponding nodes [m].
double max_node_distance(const VecX& a, const VecX& b) {
  double largest = 0.0;
  for (int i = 0; i <= kEdges; ++i)
    largest = std::max(largest, (a.segment<3>(3 * i) - b.segment<3>(3 * i)).norm());
  return largest;
}

TEST(RotatingStiffBodies, TorquedStiffHelixTurnsWithTheLineSearchAsWithout) {
  constexpr int kSteps = 20;  // 0.2 s: the helix turns by about 5.5 rad, 0.28 rad per step
  for (bool rft : {true, false}) {
    const char* medium = rft ? "rft" : "viscous";
    const HelixRun off = run(rft, false, 1e-2, kSteps);
    ASSERT_TRUE(off.ok) << medium << ": " << off.message;
    const HelixRun on = run(rft, true, 1e-2, kSteps);
    ASSERT_TRUE(on.ok) << medium << ": " << on.message;
    const HelixRun fine = run(rft, true, 2.5e-3, 4 * kSteps);
    ASSERT_TRUE(fine.ok) << medium << ": " << fine.message;
    const double to_off = max_node_distance(on.state.q, off.state.q);
    const double step_error = max_node_distance(on.state.q, fine.state.q);
    const double turn =
        (on.state.q.segment<3>(3 * kEdges / 2) - torqued_helix(rft).q.segment<3>(3 * kEdges / 2))
            .norm();
    std::printf(
        "%s: Newton iterations with the line search off %d (max %d per step), on %d (max %d); node "
        "%d moved "
        "%.3e m, distance to the line-search-off run %.3e m, to dt / 4 %.3e m\n",
        medium, off.iterations, off.max_iterations, on.iterations, on.max_iterations, kEdges / 2,
        turn, to_off, step_error);
    // about as many iterations as the full Newton steps (on average within one per step)
    EXPECT_LE(on.iterations, off.iterations + kSteps) << medium;
    // the same implicit Euler solution (both solves stop within the force tolerance, 7e-11 N here)
    EXPECT_LE(to_off, 1e-9) << medium;
    // and within implicit Euler's first-order error of a run at dt / 4 (a few % of the motion)
    EXPECT_LE(step_error, 0.1 * turn) << medium;
  }
}

TEST(RotatingStiffBodies, FreeBodiesAreTheUnfixedRodComponentsAndTurnRigidly) {
  // the free helix is one body; a clamped rod is none (its clamp holds it)
  const test::BuiltRod helix = torqued_helix(true);
  const StiffSegments bodies = StiffSegments::free_bodies(helix.model);
  ASSERT_EQ(bodies.groups().size(), 1u);
  EXPECT_EQ(bodies.groups()[0].size(), static_cast<std::size_t>(kEdges + 1));
  EXPECT_TRUE(StiffSegments::free_bodies(test::clamped_benchmark_rod(6).model).empty());
  // a step that is an infinitesimal rotation about the helix axis: the trial turns the body exactly
  StiffSegments turned = bodies;
  const Vec3 w(0.0, 0.0, 0.3);
  VecX d = VecX::Zero(helix.q.size());
  Vec3 centroid = Vec3::Zero();
  for (int i = 0; i <= kEdges; ++i) centroid += helix.q.segment<3>(3 * i) / (kEdges + 1);
  for (int i = 0; i <= kEdges; ++i)
    d.segment<3>(3 * i) = w.cross(helix.q.segment<3>(3 * i) - centroid);
  turned.fit(helix.q, d);
  VecX trial;
  turned.trial(helix.q, d, 1.0, trial);
  const Eigen::AngleAxisd rotation(w.norm(), w.normalized());
  for (int i = 0; i <= kEdges; ++i)
    EXPECT_LT(
        (trial.segment<3>(3 * i) - centroid - rotation * (helix.q.segment<3>(3 * i) - centroid))
            .norm(),
        1e-15)
        << i;
}

TEST(RotatingStiffBodies, StretchStiffEdgesWithSoftBendingTurnEdgeByEdge) {
  // edges 2-4 of a clamped rod 1e6 times stiffer in EA only: a chain (its springs bend softly). A
  // step that turns each of its edges by its own infinitesimal rotation keeps their lengths on the
  // curve (the straight step stretches them by l theta^2 / 2), and the curve's tangent at a = 0 is
  // the step
  test::BuiltRod rod = test::clamped_benchmark_rod(8);
  for (int e = 2; e <= 4; ++e) rod.model.rods.stretch_stiffness[e] *= 1e6;
  StiffSegments chain(rod.model, 100.0);
  ASSERT_EQ(chain.groups().size(), 1u);
  EXPECT_EQ(chain.groups()[0], (std::vector<int>{2, 3, 4, 5}));
  const VecX& y = rod.q;
  VecX d = VecX::Zero(y.size());
  const double turns[] = {0.2, -0.3, 0.5};  // each edge's rotation about y [rad]
  for (int e = 2; e <= 4; ++e) {
    const Vec3 edge = y.segment<3>(3 * (e + 1)) - y.segment<3>(3 * e);
    d.segment<3>(3 * (e + 1)) = d.segment<3>(3 * e) + Vec3(0.0, turns[e - 2], 0.0).cross(edge);
  }
  chain.fit(y, d);
  VecX trial;
  for (double a : {1.0, 0.5}) {
    chain.trial(y, d, a, trial);
    for (int e = 2; e <= 4; ++e) {
      EXPECT_NEAR((trial.segment<3>(3 * (e + 1)) - trial.segment<3>(3 * e)).norm(),
                  rod.model.rods.rest_length[e], 1e-15)
          << e;
      EXPECT_GT(((y + a * d).segment<3>(3 * (e + 1)) - (y + a * d).segment<3>(3 * e)).norm() -
                    rod.model.rods.rest_length[e],
                1e-4 * a * a)
          << e;
    }
  }
  // the curve leaves the line as a^2: halving a quarters the distance
  auto off_line = [&](double a) {
    chain.trial(y, d, a, trial);
    return (trial - y - a * d).norm();
  };
  EXPECT_NEAR(off_line(1e-4) / off_line(5e-5), 4.0, 0.01);
}

}  // namespace
}  // namespace tendril
