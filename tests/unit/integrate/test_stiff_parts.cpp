// Near-rigid parts (issue 7): the benchmark cantilever (L 1 m, r 5 mm, E 1e7 Pa, 26 nodes, gravity)
// whose five edges next to the clamp are f = 1e2 .. 1e10 times stiffer (EA of edges 1-5, EI and GJ
// of the springs at nodes 1-5, i.e. the scene's stiffness_overrides by edges and by nodes). The
// Newton matrix then spans f in diagonal magnitude; pivots and shifts are judged per row, so none
// is shifted, no step is halved, and each solve takes about as many iterations as the plain rod.
//
// Reference (the rigid limit): as f -> infinity the five edges cannot stretch, bend or twist, and
// being attached to the clamped edge 0 they become part of the clamp: nodes 0-6 stay at their rest
// positions and twists 0-5 at zero. The reference is the plain rod (material stiffness everywhere)
// with exactly those DOFs fixed; its free part (edges 6-24 and the spring at node 6) is the same
// model as the free part of the stiff rod. The stiff part's compliance adds a deflection bounded by
// the small-deflection estimate (Euler-Bernoulli, the stiff part as a beam of length L_s = 0.2 m
// and bending stiffness f EI carrying the moment of the rest of the rod, L_r = 0.76 m under q = rho
// A g): rotation M L_s / (f EI) with M <= q L_r^2 / 2, swung over L_r, so
//   |x - x_rigid| <= q L_r^3 L_s / (2 f EI)    (8.8 m / f here),
// doubled for the dynamic run (a suddenly applied load at most doubles the static response); large
// deflection only shortens the moment arm. Twist is not loaded and stretching adds O(1/f^2 ...)
// less.
#include <cmath>
#include <memory>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

constexpr int kNodes = 26;
constexpr int kFirstStiff = 1, kLastStiff = 5;  ///< stiff edges 1-5, stiff springs at nodes 1-5

/// The clamped benchmark rod under gravity with edges 1-5 and the springs at nodes 1-5 `factor`
/// times stiffer (factor 1 and `rigid`: the reference, nodes 0-6 and twists 0-5 fixed instead).
test::BuiltRod stiffened_cantilever(double factor, bool rigid = false) {
  test::BuiltRod rod = test::clamped_benchmark_rod(kNodes);
  Model& model = rod.model;
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  for (int e = kFirstStiff; e <= kLastStiff; ++e) model.rods.stretch_stiffness[e] *= factor;
  for (BendTwistSpring& spring : model.rods.springs)
    if (spring.node >= kFirstStiff && spring.node <= kLastStiff) {
      spring.bend_stiffness_1 *= factor;
      spring.bend_stiffness_2 *= factor;
      spring.twist_stiffness *= factor;
    }
  if (rigid) {
    for (int i = 0; i <= kLastStiff + 1; ++i)
      for (int d : model.dofs.node_dofs(i)) model.fixed[d] = 1;
    for (int e = 0; e <= kLastStiff; ++e) model.fixed[model.dofs.twist(e)] = 1;
  }
  return rod;
}

/// The bound q L_r^3 L_s / (2 f EI) of the file comment, f = 1 [m].
double compliance_bound(const Model& model) {
  const double q = 9.81 * model.mass[3 * 10] /
                   model.rods.rest_length[10];  // weight per length of a soft edge [N/m]
  const double bend = model.rods.springs[12].bend_stiffness_1;  // EI of a soft spring [N m^2]
  const double rest = 1.0 - 0.24, stiff = 0.2;                  // L_r, L_s [m]
  return q * rest * rest * rest * stiff / (2.0 * bend);
}

/// Largest distance between corresponding nodes [m].
double max_node_distance(const VecX& a, const VecX& b, int num_nodes) {
  double largest = 0.0;
  for (int i = 0; i < num_nodes; ++i)
    largest = std::max(largest, (a.segment<3>(3 * i) - b.segment<3>(3 * i)).norm());
  return largest;
}

TEST(StiffParts, ImplicitEulerStepsConvergeAndTendToTheRigidLimit) {
  constexpr int kSteps = 200;  // 0.2 s: the tip falls about 0.19 m
  DynamicsOptions options;
  options.dt = 1e-3;
  const test::BuiltRod reference_rod = stiffened_cantilever(1.0, true);
  State reference = test::rest_state(reference_rod);
  TimeStepper reference_stepper(reference_rod.model, options, reference_rod.q);
  int reference_max_iterations = 0;
  for (int k = 0; k < kSteps; ++k) {
    const StepReport report = reference_stepper.step(reference);
    ASSERT_TRUE(report.ok()) << report.message;
    reference_max_iterations = std::max(reference_max_iterations, report.iterations);
  }
  const double tip_fall = -reference.q[3 * (kNodes - 1) + 2];
  ASSERT_GT(tip_fall, 0.1);
  const double bound = compliance_bound(reference_rod.model);
  ASSERT_NEAR(bound, 8.8, 0.1);

  double previous_difference = 0.0;
  for (double factor : {1e2, 1e4, 1e6, 1e8, 1e10}) {
    const test::BuiltRod rod = stiffened_cantilever(factor);
    State state = test::rest_state(rod);
    TimeStepper stepper(rod.model, options, rod.q);
    int max_iterations = 0;
    for (int k = 0; k < kSteps; ++k) {
      const StepReport report = stepper.step(state);
      ASSERT_TRUE(report.ok()) << "factor " << factor << ", step " << k << ": " << report.message;
      EXPECT_EQ(report.regularized_iterations, 0) << "factor " << factor << ", step " << k;
      EXPECT_EQ(report.dt_halvings, 0) << "factor " << factor << ", step " << k;
      max_iterations = std::max(max_iterations, report.iterations);
    }
    // the stiff part is held by the clamp: the free part is the reference's problem, so Newton
    // needs at most one iteration more than on the reference (the stiff rows reach their own
    // tolerance one iteration later at most)
    EXPECT_LE(max_iterations, reference_max_iterations + 1) << "factor " << factor;
    const double difference = max_node_distance(state.q, reference.q, kNodes);
    std::printf(
        "factor %.0e: max Newton iterations per step %d (reference %d), max node distance to the "
        "rigid "
        "limit %.3e m\n",
        factor, max_iterations, reference_max_iterations, difference);
    // the compliance bound (dynamic: x2), plus 1e-9 of the tip's fall for the solver tolerance
    EXPECT_LE(difference, 2.0 * bound / factor + 1e-9 * tip_fall) << factor;
    // O(1/f): each hundredfold stiffening brings the rod 50 times closer at least, down to that
    // floor
    if (factor > 1e2) {
      EXPECT_LE(difference, std::max(previous_difference / 50.0, 1e-9 * tip_fall)) << factor;
    }
    previous_difference = difference;
  }
}

TEST(StiffParts, StaticSolveConvergesAndTendsToTheRigidLimit) {
  // large deflection from the straight rod (q L^3 / EI = 200): the plain rod needs tens of Newton
  // iterations there (docs/physics/time_integration.md); stiff parts must not add to that
  const test::BuiltRod reference_rod = stiffened_cantilever(1.0, true);
  State reference = test::rest_state(reference_rod);
  StaticSolver reference_solver(reference_rod.model, StaticOptions{}, reference_rod.q);
  const StaticReport reference_report = reference_solver.solve(reference);
  ASSERT_TRUE(reference_report.ok()) << reference_report.message;
  const double tip_sag = -reference.q[3 * (kNodes - 1) + 2];
  ASSERT_GT(tip_sag, 0.5);
  const double bound = compliance_bound(reference_rod.model);

  double previous_difference = 0.0;
  for (double factor : {1e2, 1e4, 1e6, 1e8, 1e10}) {
    const test::BuiltRod rod = stiffened_cantilever(factor);
    State state = test::rest_state(rod);
    StaticSolver solver(rod.model, StaticOptions{}, rod.q);
    const StaticReport report = solver.solve(state);
    ASSERT_TRUE(report.ok()) << "factor " << factor << ": " << report.message;
    EXPECT_EQ(report.regularized_iterations, 0) << factor;
    EXPECT_LE(report.iterations, reference_report.iterations + 5) << factor;
    const double difference = max_node_distance(state.q, reference.q, kNodes);
    std::printf(
        "factor %.0e: %d Newton iterations (reference %d), max node distance to the rigid limit "
        "%.3e m\n",
        factor, report.iterations, reference_report.iterations, difference);
    EXPECT_LE(difference, bound / factor + 1e-9 * tip_sag) << factor;
    if (factor > 1e2) {
      EXPECT_LE(difference, std::max(previous_difference / 50.0, 1e-9 * tip_sag)) << factor;
    }
    previous_difference = difference;
  }
}

}  // namespace
}  // namespace tendril
