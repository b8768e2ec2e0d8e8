// The joint state and parameter estimation by direct transcription (vine paper section III, eq. 16,
// with the step QP's optimality conditions of eq. 15 as NLP constraints;
// fit/vine_transcribed_estimation.hpp, docs/physics/fitting.md): the objective gradient, every
// constraint Jacobian column and the Lagrangian's Hessian at random multipliers against central
// differences on the six-body growing vine (scalar and per-joint K, C, a known contact); the
// simulator's own trajectory and multipliers satisfy the transcribed conditions; one simulator step
// from a fitted state reproduces the next fitted state up to the fitted model residual; and
// recovery of known K, C from simulated trajectories with noise, within bounds that shrink with the
// noise; models and options it does not cover are refused with InputError.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>

#include <Eigen/Dense>

#include "support/input_error.hpp"
#include "support/lagrangian_hessian.hpp"
#include "support/swinging_vine.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit {
namespace {

using testing::swinging_frames;
using testing::swinging_start;
using testing::swinging_vine;
using testing::vine_before_a_wall;
using vine::VineModel;
using vine::VineState;

/// The transcribed formulation with the exact Hessian alone (the defaults less the pass, the prior
/// and the bound on the first lengths): IPOPT from the simulated guess.
JointEstimationOptions transcribed(bool per_joint = false) {
  JointEstimationOptions options;
  EXPECT_EQ(options.formulation, EstimationFormulation::transcribed);
  EXPECT_EQ(options.hessian, EstimationHessian::exact);
  options.trust_region_iterations = 0;
  options.trust_region_newton_iterations = 0;
  options.multiplier_sigma = 0.0;
  options.min_prismatic_extension = -std::numeric_limits<double>::infinity();
  options.per_joint = per_joint;
  return options;
}

/// The tip on the wall as a known contact at steps 0 .. 6.
JointEstimationOptions with_tip_contact(const VineModel& m, JointEstimationOptions options) {
  options.contacts = {{static_cast<int>(m.contact_points.size()) - 1, 0, 0, 6}};
  return options;
}

/// The multipliers' prior (weight 1 / sigma_y^2 = 1 s^2/m^2) and the first state's prismatic length
/// rows.
JointEstimationOptions with_remedies(JointEstimationOptions options) {
  options.multiplier_sigma = 1.0;
  options.min_prismatic_extension = 0.0;
  return options;
}

// central differences (h = 1e-6) of the objective and of g in every third variable and the last
// (K, C) ones, at the guess plus a random displacement of 1e-5 (r and the multipliers away from
// their simulated values too)
void check_first_derivatives(const VineModel& m, const JointEstimationOptions& options) {
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  const auto evaluate = [&](const VecX& x) {
    return evaluate_joint_estimation(m, swinging_start(m), frames, options, x);
  };
  VecX x = evaluate(VecX()).x;
  std::mt19937 rng(5);
  std::normal_distribution<double> gauss(0.0, 1.0);
  for (int i = 0; i < x.size(); ++i) x(i) += 1e-5 * gauss(rng);
  const JointEstimationProblemEvaluation at = evaluate(x);
  const MatX jacobian(at.jacobian);
  EXPECT_LT(at.jacobian.nonZeros(), 0.1 * jacobian.size());  // sparse
  const double h = 1e-6;
  double worst_gradient = 0.0, worst_column = 0.0;
  int checked = 0;
  for (int j = 0; j < x.size(); j += (j + 2 * 3 >= x.size() ? 1 : 3), ++checked) {
    VecX plus = x, minus = x;
    plus(j) += h;
    minus(j) -= h;
    const JointEstimationProblemEvaluation up = evaluate(plus), down = evaluate(minus);
    const double fd_gradient = (up.objective - down.objective) / (2 * h);
    worst_gradient = std::max(
        worst_gradient, std::abs(fd_gradient - at.gradient(j)) / (1.0 + std::abs(at.gradient(j))));
    const VecX fd_column = (up.constraints - down.constraints) / (2 * h);
    worst_column = std::max(worst_column,
                            (fd_column - jacobian.col(j)).norm() / (1.0 + jacobian.col(j).norm()));
  }
  std::printf(
      "%d variables (%d checked), %d constraints, %d Jacobian non-zeros: worst gradient error "
      "%.2e, worst "
      "Jacobian column error %.2e\n",
      static_cast<int>(x.size()), checked, static_cast<int>(at.constraints.size()),
      static_cast<int>(at.jacobian.nonZeros()), worst_gradient, worst_column);
  EXPECT_LT(worst_gradient, 1e-6);
  EXPECT_LT(worst_column, 1e-7);
  EXPECT_GT(jacobian.rightCols(2 * (options.per_joint ? m.num_pins() : 1)).norm(),
            1e-3);  // K, C columns not vacuous
}

TEST(VineTranscribedEstimation, GradientAndJacobianMatchCentralDifferences) {
  check_first_derivatives(swinging_vine(), transcribed());
  check_first_derivatives(swinging_vine(), transcribed(true));
  // the wall 1 mm ahead of the tip, and a slanted wall the tip touches
  for (const double gap : {1e-3, 0.0}) {
    const VineModel m = vine_before_a_wall(gap, 0.6 * (gap == 0.0));
    check_first_derivatives(m, with_tip_contact(m, transcribed()));
  }
  check_first_derivatives(swinging_vine(), with_remedies(transcribed()));
}

// the Hessian of f + lambda . g at random multipliers of size 1e3 (h = 1e-6; the problem has no QP
// inside, so the differences are limited by rounding only), every third column and the last ones;
// the constraints' curvature must matter in the states' columns (the r_i diagonal 2 R ~ 1e10 would
// hide it)
void check_hessian(const VineModel& m, const JointEstimationOptions& options) {
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  const auto evaluate = [&](const VecX& x, const VecX& lambda) {
    return evaluate_joint_estimation(m, swinging_start(m), frames, options, x, lambda);
  };
  const testing::LagrangianHessianCheck check =
      testing::check_lagrangian_hessian(evaluate, 1e-5, 1e3, 1e-6, 3, 7);
  const SparseMatrix objective_only = evaluate(check.x, VecX::Zero(check.lambda.size())).hessian;
  const int states = m.num_dofs() * 2 * 3;  // Z_0 .. Z_2
  const double share = MatX(check.hessian - objective_only).leftCols(states).norm() /
                       MatX(check.hessian).leftCols(states).norm();
  std::printf(
      "%d columns: worst Hessian column error %.2e; the constraints' share of the Hessian %.2e\n",
      check.checked, check.worst, share);
  EXPECT_GE(check.checked, check.x.size() / 3);
  EXPECT_LT(check.worst, 1e-6);
  EXPECT_GT(share, 1e-2);
}

TEST(VineTranscribedEstimation, LagrangianHessianMatchesCentralDifferencesOfItsGradient) {
  check_hessian(swinging_vine(), transcribed());
  check_hessian(swinging_vine(), transcribed(true));
  const VineModel m = vine_before_a_wall(0.0, 0.6);
  check_hessian(m, with_tip_contact(m, transcribed()));
  check_hessian(m, with_remedies(with_tip_contact(m, transcribed())));
}

// The simulator's trajectory with its QP multipliers and r = 0 (the initial guess) satisfies every
// step's conditions to the step QP's tolerance (the first state's rows are left out: the swinging
// vine starts at rest while its growth rate is 0.02 m/s). Changing a multiplier breaks them.
TEST(VineTranscribedEstimation, TheSimulatorsStepsSatisfyTheTranscribedConditions) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 12, 1e-3, 1);
  const JointEstimationProblemEvaluation guess =
      evaluate_joint_estimation(m, swinging_start(m), frames, transcribed());
  const int first_state_rows = 4 * m.num_bodies + m.num_prismatic();
  const VecX steps = guess.constraints.head(guess.constraints.size() - first_state_rows);
  std::printf("largest step condition at the simulated trajectory: %.2e\n",
              steps.lpNorm<Eigen::Infinity>());
  EXPECT_LT(steps.lpNorm<Eigen::Infinity>(), 1e-9);
  // the multipliers of step 0 follow the states and r: x = [Z_0 .. Z_12, r_0 .. r_11, y_0 ...]
  const int n = m.num_dofs();
  VecX x = guess.x;
  x(2 * n * 13 + 2 * n * 12) += 1e-3;
  const JointEstimationProblemEvaluation moved =
      evaluate_joint_estimation(m, swinging_start(m), frames, transcribed(), x);
  EXPECT_GT(moved.constraints.head(steps.size()).lpNorm<Eigen::Infinity>(), 1e-6);
}

// Models and options the transcription does not cover are refused naming the key and the value.
TEST(VineTranscribedEstimation, RefusesStepMapOptionsImplicitSpringsAndFriction) {
  const VineModel m = swinging_vine();
  const std::vector<MeasuredFrame> frames = swinging_frames(m, 3, 6, 1e-3, 1);
  JointEstimationOptions held = transcribed();
  held.bilateral_contacts = true;
  testing::expect_input_error(
      [&] { evaluate_joint_estimation(m, swinging_start(m), frames, held); },
      {"joint_estimation.formulation", "transcribed", "bilateral_contacts"});
  // the transcribed formulation's own options, set on the step map
  const auto refused_on_step_map = [&](const std::function<void(JointEstimationOptions&)>& set,
                                       const std::string& key, const std::string& value) {
    JointEstimationOptions step_map = step_map_options();
    set(step_map);
    testing::expect_input_error(
        [&] { estimate_vine_states_and_parameters(m, swinging_start(m), frames, step_map); },
        {"joint_estimation." + key, value, "transcribed"});
  };
  refused_on_step_map([](auto& o) { o.trust_region_newton_iterations = 5; },
                      "trust_region_newton_iterations", "5");
  refused_on_step_map([](auto& o) { o.multiplier_sigma = 0.5; }, "multiplier_sigma", "0.5");
  refused_on_step_map([](auto& o) { o.min_prismatic_extension = 0.0; }, "min_prismatic_extension",
                      "0");
  // the inflated-beam law: the joint estimation fits K and C (the law by single shooting)
  VineModel beam = m;
  beam.bending_law = vine::BendingLaw::inflated_beam;
  beam.stiffness.assign(beam.stiffness.size(), 0.0);
  beam.inflated_beam = {2000.0, 0.012, 0.02, 0.08};
  testing::expect_input_error(
      [&] { evaluate_joint_estimation(beam, swinging_start(m), frames, transcribed()); },
      {"vine.bending_law", "inflated_beam", "vine_shooting"});
  VineModel implicit = m;
  implicit.springs = vine::SpringIntegration::implicit;
  testing::expect_input_error(
      [&] { evaluate_joint_estimation(implicit, swinging_start(m), frames, transcribed()); },
      {"vine.springs", "explicit"});
  VineModel rough = m;
  rough.friction = 0.3;
  testing::expect_input_error(
      [&] { evaluate_joint_estimation(rough, swinging_start(m), frames, transcribed()); },
      {"vine.friction", "0.3"});
}

/// The recovery's frames: the truth's points with Gaussian noise of `noise` [m], 11 frames of 11
/// points every third step from step 3 to 33 (from step 3: a state of the simulation in motion).
std::vector<MeasuredFrame> recovery_frames(const VineModel& truth, double noise) {
  std::vector<MeasuredFrame> frames = swinging_frames(truth, 3, 33, noise, 11);
  frames.erase(frames.begin());
  return frames;
}

/// M-orthogonal projector onto {dv : A dv = 0}: I - M^-1 A^T (A M^-1 A^T)^-1 A.
MatX projector(const VineModel& m, const MatX& a) {
  VecX minv(m.num_dofs());
  for (int b = 0; b < m.num_bodies; ++b)
    minv.segment<3>(3 * b) << 1.0 / m.mass[b], 1.0 / m.mass[b], 1.0 / m.inertia[b];
  const MatX ma = minv.asDiagonal() * a.transpose();
  return MatX::Identity(m.num_dofs(), m.num_dofs()) - ma * (a * ma).ldlt().solve(a);
}

// The recovery of known K, C (truth 0.05 N m/rad, 5e-4 N m s/rad) from the swinging vine's own
// simulated points with Gaussian noise (11 frames of 11 points every third step from step 3 to 33;
// sigma_p = the noise), from K = 0.03, C = 1e-3, Gauss-Newton Hessian (the exact one does not
// converge from this guess at 0.1 mm: docs/physics/fitting.md): IPOPT must reach Solve_Succeeded,
// the errors stay within four estimated standard deviations, and these shrink with the noise. At
// the 1 mm fit, one simulator step from every fitted (q_i, v_i) with the fitted K, C reproduces the
// next fitted state up to the fitted model residual: v' = v_{i+1} - P r_v,i and
// q' = q_{i+1} - r_q,i - dt P r_v,i (P: the step's rows' M-orthogonal projector, through which the
// QP passes a velocity error), to 1e-8.
TEST(VineTranscribedEstimation, RecoversKnownStiffnessAndDampingAndItsStepsAreTheSimulators) {
  const VineModel truth = swinging_vine(), guess = testing::swinging_guess();
  const double noise[2] = {1e-3, 1e-4};
  double sigma_k[2], sigma_c[2];
  for (int level = 0; level < 2; ++level) {
    JointEstimationOptions options = transcribed();
    options.hessian = EstimationHessian::gauss_newton;
    options.measurement_sigma = noise[level];
    const std::vector<MeasuredFrame> frames = recovery_frames(truth, noise[level]);
    const JointEstimationResult fit =
        estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, options);
    std::printf(
        "noise %.0e m: %s after %d iterations (%.2f s), K = %.6g +- %.2g, C = %.6g +- %.2g, "
        "objective %.4g "
        "(data %.4g, model %.4g), constraint violation %.1e\n",
        noise[level], fit.status.c_str(), fit.iterations, fit.seconds, fit.stiffness[0],
        fit.stiffness_sigma[0], fit.damping[0], fit.damping_sigma[0], fit.objective, fit.data_term,
        fit.model_term, fit.constraint_violation);
    ASSERT_EQ(fit.status, "Solve_Succeeded");
    EXPECT_LT(fit.constraint_violation, 1e-8);
    EXPECT_LT(std::abs(fit.stiffness[0] - testing::kSwingStiffness), 4 * fit.stiffness_sigma[0]);
    EXPECT_LT(std::abs(fit.damping[0] - testing::kSwingDamping), 4 * fit.damping_sigma[0]);
    sigma_k[level] = fit.stiffness_sigma[0];
    sigma_c[level] = fit.damping_sigma[0];
    if (level > 0) continue;
    VineModel fitted = truth;
    fitted.stiffness.assign(fitted.stiffness.size(), fit.stiffness[0]);
    fitted.damping.assign(fitted.damping.size(), fit.damping[0]);
    vine::VineStepper stepper(fitted);
    const int n = truth.num_dofs();
    double worst = 0.0, largest_residual = 0.0;
    for (std::size_t i = 0; i + 1 < fit.trajectory.size(); ++i) {
      VineState s = fit.trajectory[i];
      ASSERT_TRUE(stepper.step(s).ok());
      ASSERT_EQ(stepper.contacts().size(), 0u);
      const MatX p = projector(fitted, MatX(stepper.last_problem().A_eq));
      const VecX& r = fit.model_residuals[i];
      const VecX pr = p * r.tail(n);
      const VecX v_expected = fit.trajectory[i + 1].v - pr;
      const VecX q_expected = fit.trajectory[i + 1].q - r.head(n) - fitted.dt * pr;
      worst = std::max({worst, (s.v - v_expected).lpNorm<Eigen::Infinity>(),
                        (s.q - q_expected).lpNorm<Eigen::Infinity>()});
      largest_residual = std::max(largest_residual, pr.lpNorm<Eigen::Infinity>());
    }
    std::printf(
        "one simulator step from each fitted state: worst difference %.2e (largest |P r_v| %.2e "
        "m/s)\n",
        worst, largest_residual);
    EXPECT_LT(worst, 1e-8);
    EXPECT_GT(largest_residual, 10 * worst);  // the check is not vacuous: the residual is resolved
  }
  EXPECT_LT(sigma_k[1], 0.5 * sigma_k[0]);
  EXPECT_LT(sigma_c[1], 0.5 * sigma_c[0]);
}

// The same recovery (1 mm) with the exact Hessian of the Lagrangian: the same optimum as the
// Gauss-Newton run (K, C within 1 % of their sigma, the objectives within 1e-6 relative); and with
// per-joint K_j, C_j (exact Hessian; with the Gauss-Newton one this diverges): each within four of
// its sigmas of the truth.
TEST(VineTranscribedEstimation, ExactHessianAndPerJointParametersReachTheEstimate) {
  const VineModel truth = swinging_vine(), guess = testing::swinging_guess();
  const std::vector<MeasuredFrame> frames = recovery_frames(truth, 1e-3);
  JointEstimationOptions gauss_newton = transcribed();
  gauss_newton.hessian = EstimationHessian::gauss_newton;
  const JointEstimationOptions per_joint = transcribed(true);
  const JointEstimationResult gn =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, gauss_newton);
  const JointEstimationResult exact =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, transcribed());
  const JointEstimationResult joints =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, per_joint);
  for (const auto& [name, fit] :
       {std::pair{"Gauss-Newton", &gn}, {"exact", &exact}, {"per joint", &joints}}) {
    std::printf("%s: %s after %d iterations (%.2f s), objective %.7g, K =", name,
                fit->status.c_str(), fit->iterations, fit->seconds, fit->objective);
    for (std::size_t j = 0; j < fit->stiffness.size(); ++j)
      std::printf(" %.5g +- %.2g", fit->stiffness[j], fit->stiffness_sigma[j]);
    std::printf(", C =");
    for (std::size_t j = 0; j < fit->damping.size(); ++j)
      std::printf(" %.4g +- %.2g", fit->damping[j], fit->damping_sigma[j]);
    std::printf("\n");
    ASSERT_EQ(fit->status, "Solve_Succeeded") << name;
  }
  EXPECT_LT(std::abs(exact.stiffness[0] - gn.stiffness[0]), 0.01 * gn.stiffness_sigma[0]);
  EXPECT_LT(std::abs(exact.damping[0] - gn.damping[0]), 0.01 * gn.damping_sigma[0]);
  EXPECT_NEAR(exact.objective, gn.objective, 1e-6 * gn.objective);
  ASSERT_EQ(joints.stiffness.size(), static_cast<std::size_t>(truth.num_pins()));
  for (int j = 0; j < truth.num_pins(); ++j) {
    EXPECT_LT(std::abs(joints.stiffness[j] - testing::kSwingStiffness),
              4 * joints.stiffness_sigma[j])
        << j;
    EXPECT_LT(std::abs(joints.damping[j] - testing::kSwingDamping), 4 * joints.damping_sigma[j])
        << j;
  }
  EXPECT_LE(joints.objective, gn.objective);  // more parameters fit at least as well
}

// The trust-region pass on the transcribed problem (trust_region_iterations; r eliminated as the
// dynamics defects, the other rows as penalties, y_c >= 0 and K, C as bounds;
// docs/physics/fitting.md) on the 1 mm recovery above: the pass must lower the objective from the
// simulated guess, and IPOPT with the exact Hessian, warm-started at its point with the multipliers
// at which the least squares are stationary, must reach Solve_Succeeded at the cold Gauss-Newton
// run's optimum (K, C within 1 % of their sigmas, objective within 1e-6 relative) within 5
// iterations (the cold run needs 28). Steps with the residuals' curvature after a shorter pass
// (trust_region_newton_iterations) lower the objective further and end at the same optimum.
TEST(VineTranscribedEstimation, TrustRegionPassWarmStartsIpoptAtTheOptimum) {
  const VineModel truth = swinging_vine(), guess = testing::swinging_guess();
  const std::vector<MeasuredFrame> frames = recovery_frames(truth, 1e-3);
  JointEstimationOptions cold = transcribed();
  cold.hessian = EstimationHessian::gauss_newton;
  JointEstimationOptions warm = cold;
  warm.trust_region_iterations = 300;
  warm.hessian = EstimationHessian::exact;
  const JointEstimationResult a =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, cold);
  const JointEstimationResult b =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, warm);
  std::printf(
      "cold: %s after %d iterations, objective %.7g; pass: %d steps (%s) in %.2f s, objective %.5g "
      "-> %.7g, "
      "then IPOPT %s after %d iterations, objective %.7g, K = %.6g, C = %.6g\n",
      a.status.c_str(), a.iterations, a.objective, b.trust_region_iterations,
      b.trust_region_message.c_str(), b.trust_region_seconds, b.initial_objective,
      b.trust_region_objective, b.status.c_str(), b.iterations, b.objective, b.stiffness[0],
      b.damping[0]);
  ASSERT_EQ(a.status, "Solve_Succeeded");
  ASSERT_EQ(b.status, "Solve_Succeeded");
  EXPECT_GT(b.trust_region_iterations, 0);
  EXPECT_LT(b.trust_region_objective, b.initial_objective);
  EXPECT_LE(b.iterations, 5);
  EXPECT_LT(b.constraint_violation, 1e-8);
  EXPECT_LT(std::abs(b.stiffness[0] - a.stiffness[0]), 0.01 * a.stiffness_sigma[0]);
  EXPECT_LT(std::abs(b.damping[0] - a.damping[0]), 0.01 * a.damping_sigma[0]);
  EXPECT_NEAR(b.objective, a.objective, 1e-6 * a.objective);
  // 100 Gauss-Newton steps, then 30 with the residuals' curvature S
  // (trust_region_newton_iterations): they must lower the objective below the 100 steps' alone, and
  // IPOPT end at the same optimum
  JointEstimationOptions short_pass = warm;
  short_pass.trust_region_iterations = 100;
  JointEstimationOptions newton = short_pass;
  newton.trust_region_newton_iterations = 30;
  const JointEstimationResult c =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, newton);
  const JointEstimationResult d =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, short_pass);
  std::printf(
      "100 Gauss-Newton steps: objective %.7g, IPOPT %s after %d iterations; then %d Newton steps "
      "(%s): "
      "objective %.7g, IPOPT %s after %d iterations\n",
      d.trust_region_objective, d.status.c_str(), d.iterations, c.trust_region_iterations - 100,
      c.trust_region_message.c_str(), c.trust_region_objective, c.status.c_str(), c.iterations);
  ASSERT_EQ(c.status, "Solve_Succeeded");
  EXPECT_GT(c.trust_region_iterations, 100);
  EXPECT_LT(c.trust_region_objective, d.trust_region_objective);
  EXPECT_NEAR(c.objective, a.objective, 1e-6 * a.objective);
}

// The first state's prismatic length rows (min_prismatic_extension = 0: the bodies at least end to
// end, docs/physics/fitting.md "What the wall growth leaves undetermined") on the 1 mm recovery
// with the trust-region pass (300 steps) and the exact Hessian. Without them the estimate's first
// state overlaps the last prismatic joint's bodies (its extension < 0, printed); with them IPOPT
// must reach Solve_Succeeded with the rows held (every prismatic joint's |h| at least its bodies'
// two half lengths, to 1e-6 m) and K, C within the recovery test's bound (four sigmas of the
// truth).
TEST(VineTranscribedEstimation, ThePrismaticLengthBoundKeepsTheRecoveryWithinItsBounds) {
  const VineModel truth = swinging_vine(), guess = testing::swinging_guess();
  const std::vector<MeasuredFrame> frames = recovery_frames(truth, 1e-3);
  JointEstimationOptions plain = transcribed();
  plain.trust_region_iterations = 300;
  JointEstimationOptions bounded = plain;
  bounded.min_prismatic_extension = 0.0;
  const JointEstimationResult a =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, plain);
  const JointEstimationResult b =
      estimate_vine_states_and_parameters(guess, swinging_start(guess), frames, bounded);
  // the smallest extension |h| - d_a - d_b over the prismatic joints (odd joint k: bodies k-1, k)
  // at q_0
  const auto smallest_extension = [&](const JointEstimationResult& fit) {
    const VecX& q0 = fit.trajectory.front().q;
    double smallest = std::numeric_limits<double>::infinity();
    for (int k = 1; k < truth.num_bodies; k += 2)
      smallest = std::min(smallest, (q0.segment<2>(3 * k) - q0.segment<2>(3 * (k - 1))).norm() -
                                        truth.half_length[k - 1] - truth.half_length[k]);
    return smallest;
  };
  std::printf(
      "without the bound: %s after %d iterations, K = %.6g, C = %.6g, objective %.7g, smallest "
      "extension %.3g "
      "m; with it: %s after %d iterations, K = %.6g +- %.2g, C = %.6g +- %.2g, objective %.7g, "
      "smallest "
      "extension %.3g m\n",
      a.status.c_str(), a.iterations, a.stiffness[0], a.damping[0], a.objective,
      smallest_extension(a), b.status.c_str(), b.iterations, b.stiffness[0], b.stiffness_sigma[0],
      b.damping[0], b.damping_sigma[0], b.objective, smallest_extension(b));
  ASSERT_EQ(a.status, "Solve_Succeeded");
  ASSERT_EQ(b.status, "Solve_Succeeded");
  // IPOPT relaxes the rows' bounds by its bound_relax_factor 1e-8 (absolute for bounds below 1 m^2)
  EXPECT_LT(b.constraint_violation, 2e-8);
  EXPECT_GT(smallest_extension(b), -1e-6);
  EXPECT_LT(std::abs(b.stiffness[0] - testing::kSwingStiffness), 4 * b.stiffness_sigma[0]);
  EXPECT_LT(std::abs(b.damping[0] - testing::kSwingDamping), 4 * b.damping_sigma[0]);
}

}  // namespace
}  // namespace tendril::fit
