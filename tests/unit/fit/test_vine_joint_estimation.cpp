// The vine paper's joint state and parameter estimation (section III, eq. 16;
// fit/vine_joint_estimation.hpp): the objective gradient and the sparse constraint Jacobian the
// IPOPT solver is given against central differences on a small problem (six bodies, six steps,
// scalar and per-joint K, C, with a known contact: off the wall, and held on it by the step map),
// and recovery of known K, C from trajectories the simulator made with noise added: the error stays
// within four estimated standard deviations, which shrink with the noise. The same with r
// eliminated (eliminate_model_residuals): the residuals' Jacobian against central differences, the
// same optimum as with r, and the rank of de/dv_0. The optional rows dc/dq(q_0) v_0 = 0
// (first_state_joint_velocities) against central differences. The exact Hessian of the Lagrangian
// against central differences of its gradient.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <tuple>

#include <Eigen/SVD>

#include "support/lagrangian_hessian.hpp"
#include "support/swinging_vine.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit {
namespace {

using vine::VineModel;
using vine::VineState;

using testing::swinging_frames;
using testing::swinging_start;
using testing::swinging_vine;
using testing::vine_before_a_wall;

// central differences of the objective and the constraints in every variable at x
void check_derivatives(const VineModel& m, const std::vector<MeasuredFrame>& frames,
                       const JointEstimationOptions& options) {
  const JointEstimationProblemEvaluation guess =
      evaluate_joint_estimation(m, swinging_start(m), frames, options);
  // away from the guess (where r = 0 and the joints close): a small random displacement
  std::mt19937 rng(3);
  std::normal_distribution<double> gauss(0.0, 1.0);
  VecX x = guess.x;
  for (int i = 0; i < x.size(); ++i) x(i) += 1e-5 * gauss(rng);
  const JointEstimationProblemEvaluation at =
      evaluate_joint_estimation(m, swinging_start(m), frames, options, x);
  const MatX jacobian = MatX(at.jacobian);
  EXPECT_LT(at.jacobian.nonZeros(), 0.2 * jacobian.size());  // sparse
  const double h = 1e-6;
  double worst_gradient = 0.0, worst_jacobian = 0.0, worst_residual = 0.0;
  if (options.eliminate_model_residuals) {
    EXPECT_NEAR(at.objective, at.residuals.squaredNorm(), 1e-12 * at.objective);
    const VecX gradient = 2.0 * (at.residual_jacobian.transpose() * at.residuals);
    EXPECT_LT((gradient - at.gradient).norm(), 1e-12 * at.gradient.norm());
  }
  for (int j = 0; j < x.size(); ++j) {
    VecX plus = x, minus = x;
    plus(j) += h;
    minus(j) -= h;
    const JointEstimationProblemEvaluation up =
        evaluate_joint_estimation(m, swinging_start(m), frames, options, plus);
    const JointEstimationProblemEvaluation down =
        evaluate_joint_estimation(m, swinging_start(m), frames, options, minus);
    if (options.eliminate_model_residuals) {
      // with r eliminated the objective carries R ~ 1e10 times the step map's curvature, and its
      // central differences err by ~1e-5 relative at h = 1e-6: check the residuals' Jacobian
      // instead (the gradient is 2 J^T e, checked above). The residuals are the full problem's
      // dynamics rows times sqrt(R) <= 1 / sigma_q: their errors are measured in its units (1 +
      // |column| there); rounding alone gives ~1e-16 / (sigma_q h) = 1e-5 in e's units
      const VecX fd_residuals = (up.residuals - down.residuals) / (2 * h);
      const VecX column = MatX(at.residual_jacobian.col(j));
      const double unit = 1.0 / options.model_sigma_position;
      worst_residual =
          std::max(worst_residual, (fd_residuals - column).norm() / (unit + column.norm()));
    } else {
      const double fd_gradient = (up.objective - down.objective) / (2 * h);
      worst_gradient = std::max(worst_gradient, std::abs(fd_gradient - at.gradient(j)) /
                                                    (1.0 + std::abs(at.gradient(j))));
    }
    const VecX fd_column = (up.constraints - down.constraints) / (2 * h);
    worst_jacobian = std::max(
        worst_jacobian, (fd_column - jacobian.col(j)).norm() / (1.0 + jacobian.col(j).norm()));
  }
  std::printf(
      "%d variables, %d constraints: worst gradient error %.2e, worst Jacobian column error %.2e, "
      "worst residual Jacobian column error %.2e\n",
      static_cast<int>(x.size()), static_cast<int>(at.constraints.size()), worst_gradient,
      worst_jacobian, worst_residual);
  EXPECT_LT(worst_gradient, 1e-5);
  EXPECT_LT(worst_residual, 1e-6);
  EXPECT_LT(worst_jacobian, 1e-6);
  // the parameter columns are not vacuous: the step map depends on K and C (with r eliminated, only
  // the objective and the held impulses' rows see the step map)
  if (options.eliminate_model_residuals)
    EXPECT_GT(at.gradient.tail(2).norm(), 1e-6);
  else
    EXPECT_GT(jacobian.rightCols(2).norm(), 1e-6);
}

// the derivatives with `options`, then with the option `also` switched on as well
void check_derivatives_then_with(const VineModel& m, const std::vector<MeasuredFrame>& frames,
                                 JointEstimationOptions options,
                                 bool JointEstimationOptions::*also) {
  check_derivatives(m, frames, options);
  options.*also = true;
  check_derivatives(m, frames, options);
}

TEST(VineJointEstimation, GradientAndSparseJacobianMatchCentralDifferences) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  JointEstimationOptions options = step_map_options();
  check_derivatives_then_with(m, frames, options, &JointEstimationOptions::per_joint);
}

// r eliminated (eliminate_model_residuals): the objective |e(y)|^2 with r_i = Z_{i+1} - f(Z_i)
// substituted, its gradient 2 J^T e, and the joint, growth and contact rows alone as constraints
TEST(VineJointEstimation, EliminatedResidualsGradientAndJacobianMatchCentralDifferences) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  JointEstimationOptions options = step_map_options();
  options.eliminate_model_residuals = true;
  const JointEstimationProblemEvaluation full =
      evaluate_joint_estimation(m, swinging_start(m), frames, step_map_options());
  const JointEstimationProblemEvaluation eliminated =
      evaluate_joint_estimation(m, swinging_start(m), frames, options);
  // the same problem: at the simulated guess r = 0 = the defects, so the objectives agree, and the
  // constraints are the full problem's rows after its 2n N dynamics rows
  const int dynamics = 2 * m.num_dofs() * 6;
  EXPECT_EQ(full.x.size() - eliminated.x.size(), dynamics);
  EXPECT_NEAR(eliminated.objective, full.objective, 1e-9 * full.objective);
  EXPECT_EQ(eliminated.constraints, full.constraints.tail(full.constraints.size() - dynamics));
  check_derivatives_then_with(m, frames, options, &JointEstimationOptions::per_joint);
}

// first_state_joint_velocities: the rows dc/dq(q_0) v_0 = 0 (2 per body, after the contact rows),
// both forms; the q_0 columns need c's second derivatives (v_0 . da/dq_0)
TEST(VineJointEstimation, FirstStateJointVelocityRowsMatchCentralDifferences) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  JointEstimationOptions options = step_map_options();
  const int without = static_cast<int>(
      evaluate_joint_estimation(m, swinging_start(m), frames, options).constraints.size());
  options.first_state_joint_velocities = true;
  EXPECT_EQ(evaluate_joint_estimation(m, swinging_start(m), frames, options).constraints.size(),
            without + 2 * m.num_bodies);
  check_derivatives_then_with(m, frames, options,
                              &JointEstimationOptions::eliminate_model_residuals);
}

TEST(VineJointEstimation, GradientAndJacobianWithAKnownContactMatchCentralDifferences) {
  // the wall 1 mm ahead: the step map keeps eq. 13's inequality (a bilateral row would pull the tip
  // 1 mm in one step)
  const VineModel m = vine_before_a_wall(1e-3, 0.0);
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  JointEstimationOptions options = step_map_options();
  options.contacts = {{static_cast<int>(m.contact_points.size()) - 1, 0, 0, 6}};
  check_derivatives_then_with(m, frames, options,
                              &JointEstimationOptions::eliminate_model_residuals);
}

TEST(VineJointEstimation, GradientAndJacobianWithAHeldContactMatchCentralDifferences) {
  // the tip on a slanted wall (it slides along it): the step map holds it there by an equality row
  // (bilateral_contacts)
  const VineModel m = vine_before_a_wall(0.0, 0.6);
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  JointEstimationOptions options = step_map_options();
  options.contacts = {{static_cast<int>(m.contact_points.size()) - 1, 0, 0, 6}};
  options.bilateral_contacts = true;  // adds the rows impulse / (m_ref sigma_v) >= 0, one per step
  check_derivatives_then_with(m, frames, options,
                              &JointEstimationOptions::eliminate_model_residuals);
}

// The exact Hessian of the Lagrangian f + lambda . g (EstimationHessian::exact) against central
// differences (h = 1e-5) of its gradient grad f + J^T lambda (both checked above), at a random
// point near the guess and random multipliers of the size 2 R r takes on real data (1e5); the
// constraints' curvature must be a large part of it (else the check would not see it).
void check_lagrangian_hessian(const VineModel& m, const std::vector<MeasuredFrame>& frames,
                              JointEstimationOptions options) {
  options.hessian = EstimationHessian::exact;
  const auto evaluate = [&](const VecX& x, const VecX& lambda) {
    return evaluate_joint_estimation(m, swinging_start(m), frames, options, x, lambda);
  };
  // h: noise-limited below (the step QP's tolerance), truncation-limited above; every column
  const testing::LagrangianHessianCheck check =
      testing::check_lagrangian_hessian(evaluate, 1e-5, 1e5, 1e-5, 1, 5);
  const MatX hessian = MatX(check.hessian);
  const MatX objective_only = MatX(evaluate(check.x, VecX::Zero(check.lambda.size())).hessian);
  ASSERT_EQ(hessian.rows(), check.x.size());
  EXPECT_LT((hessian - hessian.transpose()).norm(), 1e-12 * hessian.norm());
  // the constraints' share
  const double share = (hessian - objective_only).norm() / hessian.norm();
  std::printf(
      "%d variables: worst Lagrangian Hessian column error %.2e; constraint curvature |H - "
      "H(lambda = 0)| / |H| "
      "= %.2e\n",
      static_cast<int>(check.x.size()), check.worst, share);
  EXPECT_EQ(check.checked, check.x.size());
  EXPECT_LT(check.worst, 1e-5);
  EXPECT_GT(share, 1e-2);
  EXPECT_GT((hessian - objective_only).rightCols(2).norm(), 1e-3 * hessian.rightCols(2).norm());
}

TEST(VineJointEstimation, ExactLagrangianHessianMatchesCentralDifferencesOfItsGradient) {
  JointEstimationOptions per_joint = step_map_options();  // and the first state's velocity rows
  per_joint.per_joint = per_joint.first_state_joint_velocities = true;
  for (const JointEstimationOptions& options : {step_map_options(), per_joint})
    check_lagrangian_hessian(swinging_vine(), swinging_frames(swinging_vine(), 3, 6, 1e-3, 1),
                             options);
}

TEST(VineJointEstimation,
     ExactLagrangianHessianWithKnownContactsMatchesCentralDifferencesOfItsGradient) {
  // the wall 1 mm ahead (eq. 13's inequality in the step map), and the tip held on a slanted wall
  // (bilateral_contacts: impulse rows too)
  for (const auto& [gap, tilt, held] : {std::tuple{1e-3, 0.0, false}, std::tuple{0.0, 0.6, true}}) {
    const VineModel m = vine_before_a_wall(gap, tilt);
    JointEstimationOptions options = step_map_options();
    options.contacts = {{static_cast<int>(m.contact_points.size()) - 1, 0, 0, 6}};
    options.bilateral_contacts = held;
    check_lagrangian_hessian(m, swinging_frames(m, 3, 6, 1e-3, 1), options);
  }
}

// Recovery with the Gauss-Newton Hessian (the default): 11 frames of 11 points over 0.33 s, noise
// 1 mm and 0.1 mm with sigma_p set to it, from K = 0.03, C = 1e-3. IPOPT must converge to its
// tolerance, the errors stay within four estimated standard deviations, and those shrink with the
// noise (by about 5, not 10: the model weights R are held, so the model term takes over at low
// noise).
TEST(VineJointEstimation,
     RecoversKnownStiffnessAndDampingWithinTheirUncertaintyWhichShrinksWithTheNoise) {
  const VineModel truth = swinging_vine();
  VineModel guess = truth;
  guess.stiffness.assign(guess.stiffness.size(), 0.03);
  guess.damping.assign(guess.damping.size(), 1e-3);
  const double noise[2] = {1e-3, 1e-4};
  double sigma_k[2], sigma_c[2];
  for (int level = 0; level < 2; ++level) {
    JointEstimationOptions options = step_map_options();
    options.measurement_sigma = noise[level];
    const JointEstimationResult fit = estimate_vine_states_and_parameters(
        guess, swinging_start(guess), swinging_frames(truth, 3, 30, noise[level], 11), options);
    std::printf(
        "noise %.0e m: %s after %d iterations (%.2f s), K = %.6g +- %.2g, C = %.6g +- %.2g, "
        "objective %.4g, "
        "constraint violation %.1e\n",
        noise[level], fit.status.c_str(), fit.iterations, fit.seconds, fit.stiffness[0],
        fit.stiffness_sigma[0], fit.damping[0], fit.damping_sigma[0], fit.objective,
        fit.constraint_violation);
    ASSERT_EQ(fit.status, "Solve_Succeeded");
    EXPECT_LT(fit.constraint_violation, 1e-8);
    EXPECT_LT(std::abs(fit.stiffness[0] - testing::kSwingStiffness), 4 * fit.stiffness_sigma[0]);
    EXPECT_LT(std::abs(fit.damping[0] - testing::kSwingDamping), 4 * fit.damping_sigma[0]);
    EXPECT_EQ(fit.trajectory.size(), 31u);
    sigma_k[level] = fit.stiffness_sigma[0];
    sigma_c[level] = fit.damping_sigma[0];
  }
  EXPECT_LT(sigma_k[1], 0.5 * sigma_k[0]);
  EXPECT_LT(sigma_c[1], 0.5 * sigma_c[0]);
  EXPECT_LT(sigma_k[1], 0.02 * testing::kSwingStiffness);
}

// The recovery of the test above (1 mm noise) with the default options and with `variant`: IPOPT
// must converge on both, to the same optimum (K, C within 1 % of their sigma; the objectives within
// `objective_tolerance` relative if >= 0), and the variant's recovery holds (within four sigma).
// With `from_the_estimate` the variant starts from the default run's K, C (its trajectory simulated
// with them) instead of the guess K = 0.03, C = 1e-3: a test of local convergence.
void expect_the_same_estimate(const JointEstimationOptions& variant, const char* name,
                              double objective_tolerance, bool from_the_estimate = false) {
  const VineModel truth = swinging_vine();
  VineModel guess = truth;
  guess.stiffness.assign(guess.stiffness.size(), 0.03);
  guess.damping.assign(guess.damping.size(), 1e-3);
  const std::vector<MeasuredFrame> frames = swinging_frames(truth, 3, 30, 1e-3, 11);
  const JointEstimationResult full =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, step_map_options());
  ASSERT_EQ(full.status, "Solve_Succeeded");
  if (from_the_estimate) {
    guess.stiffness.assign(guess.stiffness.size(), full.stiffness[0]);
    guess.damping.assign(guess.damping.size(), full.damping[0]);
  }
  const JointEstimationResult fit =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, variant);
  std::printf(
      "%s: %s after %d iterations (%.2f s), K = %.7g +- %.2g, C = %.7g +- %.2g, objective %.6g; "
      "default options: %d iterations (%.2f s), K = %.7g, C = %.7g, objective %.6g\n",
      name, fit.status.c_str(), fit.iterations, fit.seconds, fit.stiffness[0],
      fit.stiffness_sigma[0], fit.damping[0], fit.damping_sigma[0], fit.objective, full.iterations,
      full.seconds, full.stiffness[0], full.damping[0], full.objective);
  ASSERT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 1e-8);
  EXPECT_LT(std::abs(fit.stiffness[0] - full.stiffness[0]), 0.01 * full.stiffness_sigma[0]);
  EXPECT_LT(std::abs(fit.damping[0] - full.damping[0]), 0.01 * full.damping_sigma[0]);
  if (objective_tolerance >= 0.0) {
    EXPECT_NEAR(fit.objective, full.objective, objective_tolerance * full.objective);
  }
  EXPECT_LT(std::abs(fit.stiffness[0] - testing::kSwingStiffness), 4 * fit.stiffness_sigma[0]);
  EXPECT_LT(std::abs(fit.damping[0] - testing::kSwingDamping), 4 * fit.damping_sigma[0]);
}

// With r eliminated (eliminate_model_residuals): the same problem, so the same optimum and
// objective.
TEST(VineJointEstimation, EliminatedResidualsReachTheSameEstimate) {
  JointEstimationOptions options = step_map_options();
  options.eliminate_model_residuals = true;
  expect_the_same_estimate(options, "r eliminated", 1e-6);
}

// With the exact Hessian of the Lagrangian (EstimationHessian::exact): the same problem, so the
// same optimum and objective, reached from the Gauss-Newton run's K, C. Only local convergence is
// asserted: from the far guess K = 0.03, C = 1e-3 the exact Hessian's run converged in 53
// iterations in one build and ran to 500 in another (FMA) or after a change of the QP within its
// tolerance (docs/physics/fitting.md): far from the optimum its path depends on round-off.
TEST(VineJointEstimation, ExactHessianConvergesToTheSameEstimateFromNearIt) {
  JointEstimationOptions options = step_map_options();
  options.hessian = EstimationHessian::exact;
  expect_the_same_estimate(options, "exact Hessian from the estimate's K, C", 1e-6, true);
}

// With the first state's velocity rows (first_state_joint_velocities), r as variables: the same K,
// C (the rows raise the objective, by 0.005 of 272.4 when measured, so it is not compared). With r
// eliminated as well it does not converge (docs/physics/fitting.md).
TEST(VineJointEstimation, FirstStateJointVelocityRowsKeepTheEstimate) {
  JointEstimationOptions options = step_map_options();
  options.first_state_joint_velocities = true;
  expect_the_same_estimate(options, "with dc/dq(q_0) v_0 = 0", -1.0);
}

// Why IPOPT regularises the Gauss-Newton matrix of the eliminated problem: the step map projects
// v_0 onto the joints' velocity constraints, so the residuals do not depend on v_0's components
// that violate them. de/dv_0 (at the guess, 6 bodies, 18 velocities) has rank 18 - 2 per body = 6:
// its 12 smallest singular values are rounding-sized, the others are not.
TEST(VineJointEstimation, EliminatedResidualsDoNotSeeTheJointViolatingVelocitiesOfTheFirstState) {
  const VineModel m = swinging_vine();
  JointEstimationOptions options = step_map_options();
  options.eliminate_model_residuals = true;
  const JointEstimationProblemEvaluation e =
      evaluate_joint_estimation(m, swinging_start(m), swinging_frames(m, 3, 6, 1e-3, 1), options);
  const int n = m.num_dofs(), hidden = 2 * m.num_bodies;
  const VecX s =
      Eigen::JacobiSVD<MatX>(MatX(e.residual_jacobian).middleCols(n, n)).singularValues();
  std::printf(
      "singular values of de/dv_0: largest %.3g, smallest visible %.3g, largest hidden %.3g\n",
      s(0), s(n - hidden - 1), s(n - hidden));
  EXPECT_LT(s(n - hidden), 1e-10 * s(0));
  EXPECT_GT(s(n - hidden - 1), 1e-4 * s(0));
}

}  // namespace
}  // namespace tendril::fit
