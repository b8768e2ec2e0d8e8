// Media forces inside the integrators, stepped by implicit Euler and implicit midpoint: the
// velocity-dependent forces enter the Newton matrix through dF/dq + c_u dF/du
// (docs/physics/media.md). To see their Jacobians alone, the model is the benchmark rod's chain of
// nodes and edges with no elastic energy (only gravity, inertia and the medium) and a seeded random
// initial velocity:
// - viscous and head drag are linear in u, so the step's equation is linear and Newton with the
// exact
//   matrix solves it in one iteration;
// - RFT depends on q through the node tangents, so Newton must converge quadratically: the observed
//   order log(r_{k+1}/r_k) / log(r_k/r_{k-1}) reaches 2 above the round-off floor.
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "support/newton_order.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/rft.hpp"
#include "tendril/forces/viscous_drag.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

using testing::best_order;

/// The benchmark rod's nodes and edges with gravity and `force`, no elastic energy, moving with a
/// seeded random velocity, stepped 10 times; returns the residual histories of the steps.
std::vector<std::vector<double>> step_chain(const std::shared_ptr<const ForceTerm>& force_term,
                                            Scheme scheme) {
  test::BuiltRod rod = test::clamped_benchmark_rod(21);
  rod.model.energies.clear();
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  rod.model.forces.push_back(force_term);
  State state = test::rest_state(rod);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int i = 0; i < state.u.size(); ++i) state.u[i] = rod.model.fixed[i] ? 0.0 : 0.5 * unit(rng);
  DynamicsOptions options;
  options.scheme = scheme;
  options.dt = 0.02;
  options.newton.force_tolerance = 1e-13;
  // from q_k: far enough from the solution for several iterations whose order can be measured
  options.initial_guess = InitialGuess::previous;
  TimeStepper stepper(rod.model, options, rod.q);
  std::vector<std::vector<double>> histories;
  for (int k = 0; k < 10; ++k) {
    const StepReport report = stepper.step(state);
    EXPECT_TRUE(report.ok()) << report.message;
    EXPECT_EQ(report.dt_halvings, 0);
    histories.push_back(report.residual_history);
  }
  return histories;
}

/// One Newton iteration brings the residual to round-off (the equation is linear in y).
void expect_one_iteration(const std::shared_ptr<const ForceTerm>& force_term) {
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint})
    for (const auto& r : step_chain(force_term, scheme)) {
      ASSERT_GE(r.size(), 2u);
      EXPECT_LE(r[1], 1e-12 * r[0]) << ::testing::PrintToString(r);
    }
}

std::vector<int> all_edges(const Model& m) {
  std::vector<int> e(m.rods.edges.size());
  for (std::size_t k = 0; k < e.size(); ++k) e[k] = static_cast<int>(k);
  return e;
}

TEST(MediaNewton, ViscousDragStepIsSolvedInOneIteration) {
  const test::BuiltRod rod = test::clamped_benchmark_rod(21);
  expect_one_iteration(std::make_shared<ViscousDrag>(rod.model, std::vector<int>{}, 5.0));
}

TEST(MediaNewton, HeadDragStepIsSolvedInOneIteration) {
  expect_one_iteration(
      std::make_shared<HeadDrag>(20, 19, HeadDragParameters{2.420, 0.039, 6.828, 0.02}));
}

// The tangent part of the RFT Jacobian is not symmetric: the Newton system factorizes the whole
// matrix (LU) for it. With a symmetric factorization reading one triangle, Newton converged
// linearly here (measured orders 0.9-1.1, residual ratio about 1e-2 per iteration); a linear method
// stays near 1, so the bound 1.5 separates the two.
TEST(MediaNewton, RftIncludingTheTangentConvergesQuadratically) {
  const test::BuiltRod rod = test::clamped_benchmark_rod(21);
  const auto rft = std::make_shared<ResistiveForce>(rod.model, all_edges(rod.model),
                                                    rft_coefficients_from_medium(6.828, 1.0, 5e-3));
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    int measured = 0;
    for (const auto& r : step_chain(rft, scheme)) {
      // the round-off floor: a hundred times the converged residual
      const double order = best_order(r, 100.0 * r.back());
      if (order == 0.0) continue;
      ++measured;
      EXPECT_GE(order, 1.5) << ::testing::PrintToString(r);
    }
    EXPECT_GE(measured, 5) << "too few steps with enough Newton iterations to measure the order";
  }
}

}  // namespace
}  // namespace tendril
