// py-dismech's stopping rule (StoppingRule::dismech; StructuresComp/dismech-python,
// time_steppers/time_stepper.py, `_converged`, read 2026-11-24; docs/physics/time_integration.md
// "Newton iteration and convergence"): iteration k computes the update d_k at y_{k-1}, applies it,
// and then stops if ||f(y_{k-1})|| < tol, or ||f(y_{k-1})|| < ftol ||f(y_0)||, or max |d_k| / dt <
// dtol. So the solve stops one iteration after the residual test is met, and the accepted iterate
// is the updated one. Each test sets one tolerance between two consecutive values of a reference
// solve and checks the iteration it stops at and the iterate it returns (that of a Tendril-rule
// solve stopped there).
#include <cmath>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

constexpr double kDt = 0.02;

/// One implicit Euler step of 20 ms of the benchmark cantilever (21 nodes) released under gravity
/// from straight, from q_k (several Newton iterations), with the given Newton options.
struct Fall {
  State state;
  StepReport report;
};
Fall fall(const NewtonOptions& newton) {
  test::BuiltRod rod = test::clamped_benchmark_rod(21);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  DynamicsOptions options;
  options.dt = kDt;
  options.initial_guess = InitialGuess::previous;
  options.max_dt_halvings = 0;
  options.newton = newton;
  TimeStepper stepper(rod.model, options, rod.q);
  Fall run{test::rest_state(rod), {}};
  run.report = stepper.step(run.state);
  return run;
}

/// The reference solve (to the round-off floor) and its iterates y_0 .. y_n, each from a
/// Tendril-rule solve whose absolute tolerance lies between the residuals of y_k and y_{k-1}.
struct Reference {
  std::vector<double> residuals;  ///< ||f(y_k)||, k = 0 .. n [N]
  std::vector<VecX> iterates;     ///< y_k
  std::vector<double>
      velocity_changes;  ///< max |y_k - y_{k-1}| / dt, k = 1 .. n (entry 0 unused) [m/s]
};
const Reference& reference() {
  static const Reference ref = [] {
    Reference r;
    NewtonOptions tight;
    tight.force_tolerance = 0.0;
    const Fall full = fall(tight);
    EXPECT_TRUE(full.report.ok()) << full.report.message;
    r.residuals = full.report.residual_history;
    NewtonOptions none;
    none.force_tolerance = 0.0;
    none.force_tolerance_abs = 1e300;
    r.iterates.push_back(fall(none).state.q);  // y_0 = q_k: converged at the initial guess
    r.velocity_changes.push_back(0.0);
    for (std::size_t k = 1; k < r.residuals.size(); ++k) {
      NewtonOptions at_k;
      at_k.force_tolerance = 0.0;
      at_k.force_tolerance_abs = std::sqrt(r.residuals[k] * r.residuals[k - 1]);
      const Fall run = fall(at_k);
      EXPECT_EQ(run.report.iterations, static_cast<int>(k));
      r.iterates.push_back(run.state.q);
      r.velocity_changes.push_back((r.iterates[k] - r.iterates[k - 1]).cwiseAbs().maxCoeff() / kDt);
    }
    return r;
  }();
  return ref;
}

NewtonOptions dismech(double tol, double ftol, double dtol) {
  NewtonOptions o;
  o.stopping = StoppingRule::dismech;
  o.dismech = {tol, ftol, dtol};
  return o;
}

/// The solve stopped after `iterations` with `criterion`, at the iterate y_iterations (the update
/// applied).
void expect_stopped_at(const Fall& run, int iterations, StopCriterion criterion) {
  const Reference& ref = reference();
  ASSERT_TRUE(run.report.ok()) << run.report.message;
  EXPECT_EQ(run.report.iterations, iterations);
  EXPECT_EQ(run.report.criterion, criterion);
  const VecX& expected = ref.iterates[static_cast<std::size_t>(iterations)];
  const VecX& before = ref.iterates[static_cast<std::size_t>(iterations - 1)];
  // the same floating-point operations: equal to round-off, far from the iterate before the update
  EXPECT_LE((run.state.q - expected).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_GT((run.state.q - before).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(run.report.final_residual(), ref.residuals[static_cast<std::size_t>(iterations)]);
}

TEST(DismechStopping, ReferenceHasEnoughIterations) {
  const Reference& ref = reference();
  ASSERT_GE(ref.residuals.size(), 5u);  // y_0 .. y_4 at least
  for (std::size_t k = 1; k < ref.residuals.size(); ++k)
    EXPECT_LT(ref.residuals[k], ref.residuals[k - 1]) << k;
}

TEST(DismechStopping, AbsoluteResidualTestsTheIterateBeforeTheUpdate) {
  const Reference& ref = reference();
  // r_2 < tol < r_1: the test passes in iteration 3 (at y_2), whose update is applied
  const Fall run = fall(dismech(std::sqrt(ref.residuals[1] * ref.residuals[2]), 0.0, 0.0));
  expect_stopped_at(run, 3, StopCriterion::residual);
  EXPECT_GT(run.report.final_residual(), 0.0);
}

TEST(DismechStopping, RelativeResidualIsToTheInitialResidual) {
  const Reference& ref = reference();
  // r_1 < ftol r_0 < r_0: the test passes in iteration 2 (at y_1)
  const double ftol = std::sqrt(ref.residuals[0] * ref.residuals[1]) / ref.residuals[0];
  expect_stopped_at(fall(dismech(0.0, ftol, 0.0)), 2, StopCriterion::relative_residual);
}

TEST(DismechStopping, VelocityChangeOfTheUpdate) {
  const Reference& ref = reference();
  const std::vector<double>& s = ref.velocity_changes;
  // s_3 < dtol < s_2 (and s_1 above it): the update of iteration 3 is the first small enough
  const double dtol = std::sqrt(s[2] * s[3]);
  ASSERT_GT(s[1], dtol);
  expect_stopped_at(fall(dismech(0.0, 0.0, dtol)), 3, StopCriterion::velocity_change);
}

TEST(DismechStopping, AnyTestEndsTheSolve) {
  const Reference& ref = reference();
  // the relative test alone would stop at iteration 3, the absolute one at 2: the first wins
  const double ftol = std::sqrt(ref.residuals[1] * ref.residuals[2]) / ref.residuals[0];
  const double tol = std::sqrt(ref.residuals[0] * ref.residuals[1]);
  expect_stopped_at(fall(dismech(tol, ftol, 0.0)), 2, StopCriterion::residual);
}

TEST(DismechStopping, PyDismechFixtureTolerancesConverge) {
  // tol 1e-4 N, ftol 1e-4, dtol 1e-2 m/s (py-dismech's tests/conftest.py): the solve ends earlier
  // than the default rule's, and its residual is not bounded by tol (only the one before the last
  // update is)
  const Fall defaults = fall(NewtonOptions{});
  const Fall run = fall(dismech(1e-4, 1e-4, 1e-2));
  ASSERT_TRUE(run.report.ok()) << run.report.message;
  EXPECT_NE(run.report.criterion, StopCriterion::none);
  EXPECT_LE(run.report.iterations, defaults.report.iterations);
}

}  // namespace
}  // namespace tendril
