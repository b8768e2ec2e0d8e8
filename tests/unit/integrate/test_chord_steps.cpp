// Chord steps (NewtonOptions::chord_contraction, docs/physics/time_integration.md "Chord steps"):
// after an iteration that cut the residual to at most c times the previous one, the next iteration
// solves with the factorization already held (the chord method, Kelley, "Solving Nonlinear
// Equations with Newton's Method", SIAM 2003, section 2.3.3: linear convergence at the rate of the
// Jacobian's error). The solve stops on the same tests, so the answer agrees with fresh Newton
// steps to the force tolerance; a chord step that contracts poorly is followed by a fresh Newton
// step.
#include <memory>

#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

struct ChordRun {
  State state;
  int iterations = 0;
  int chord_iterations = 0;
};

/// The benchmark cantilever (21 nodes) released under gravity from straight, 20 implicit Euler
/// steps of 20 ms from q_k (several Newton iterations each), with chord steps after a contraction
/// <= c.
ChordRun fall(double chord_contraction) {
  test::BuiltRod rod = test::clamped_benchmark_rod(21);
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  DynamicsOptions options;
  options.dt = 0.02;
  options.initial_guess = InitialGuess::previous;
  options.newton.chord_contraction = chord_contraction;
  TimeStepper stepper(rod.model, options, rod.q);
  ChordRun run{test::rest_state(rod)};
  for (int k = 0; k < 20; ++k) {
    const StepReport report = stepper.step(run.state);
    EXPECT_TRUE(report.ok()) << "step " << k << ": " << report.message;
    EXPECT_EQ(report.dt_halvings, 0) << "step " << k;
    if (report.criterion == StopCriterion::residual) {
      EXPECT_LE(report.final_residual(), report.tolerance) << "step " << k;
    }
    EXPECT_LE(report.chord_iterations, report.iterations);
    // every iteration that is not a chord step factorizes its own Jacobian once (more only when the
    // matrix needed a diagonal shift); a chord step factorizes nothing
    if (report.regularized_iterations == 0) {
      EXPECT_EQ(report.factorizations, report.iterations - report.chord_iterations) << "step " << k;
    } else {
      EXPECT_GT(report.factorizations, report.iterations - report.chord_iterations) << "step " << k;
    }
    run.iterations += report.iterations;
    run.chord_iterations += report.chord_iterations;
  }
  return run;
}

TEST(ChordSteps, SameAnswerAsFreshNewtonStepsWithinTheTolerance) {
  const ChordRun fresh = fall(0.0);
  EXPECT_EQ(fresh.chord_iterations, 0);
  for (double c : {0.1, 0.5}) {
    const ChordRun chord = fall(c);
    EXPECT_GT(chord.chord_iterations, 0) << "c = " << c << ": the chord branch is exercised";
    EXPECT_LT(chord.state.q[3 * 20 + 2], -1e-2) << "the tip falls";
    EXPECT_LE((chord.state.q - fresh.state.q).norm(), 1e-9 * fresh.state.q.norm()) << "c = " << c;
    EXPECT_LE((chord.state.u - fresh.state.u).norm(), 1e-9 * fresh.state.u.norm()) << "c = " << c;
  }
}

TEST(ChordSteps, NeverTakenChordLeavesNewtonUnchanged) {
  // c so small that no contraction qualifies: the Jacobian is evaluated at each accepted iterate
  // instead of at the trial points, which must give the same iterates bit for bit
  const ChordRun fresh = fall(0.0);
  const ChordRun lazy = fall(1e-300);
  EXPECT_EQ(lazy.chord_iterations, 0);
  EXPECT_EQ(lazy.iterations, fresh.iterations);
  EXPECT_EQ(lazy.state.q, fresh.state.q);
  EXPECT_EQ(lazy.state.u, fresh.state.u);
}

}  // namespace
}  // namespace tendril
