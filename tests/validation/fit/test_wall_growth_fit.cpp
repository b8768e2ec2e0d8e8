// Fitting K and C to the measured wall growth (vine paper IV-B-2, Fig. 7: tip-x mean absolute error
// 1.1 mm after the authors' fit; data ../shared/data/vine_wall_growth), both methods on the same
// data: all 21 measured points of video frames 1-7, the authors' initial guess (K = 0.05 N m/rad,
// C = 1e-5 N m s/rad), the paper's point contact (its step derivatives are exact; with body contact
// the contact point's motion along the body is not differentiated, docs/physics/vine.md).
// - Single shooting must converge, lower the point residual, and not worsen the tip-x error of the
//   unfitted guess; K is not identifiable over this clip (it walks to 0, sigma +inf, flagged) while
//   C is.
// - The joint state and parameter estimation (section III, eq. 16) with its default options (the
//   configuration that converges here, docs/physics/fitting.md, "What the wall growth leaves
//   undetermined"), the tip on the wall as a known contact at every step (the data's README: in
//   contact throughout the clip), must end with IPOPT's Solve_Succeeded, keep the constraints to
//   the synthetic tests' bound, fit the video better than the guess and flag K and C not
//   identifiable (sigma above the value), as the docs say. About 20-30 s (the trust-region pass).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "support/lagrangian_hessian.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "support/wall_growth.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {
namespace {

/// The case with point contact, video frames 1-7 and the unfitted simulation's points.
struct WallGrowthData {
  testing::WallGrowthCase c;
  std::vector<MeasuredFrame> frames;
  ShootingResiduals before;
};

std::optional<WallGrowthData> wall_growth_data() {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty()) return std::nullopt;
  WallGrowthData d{testing::wall_growth_case(dir), {}, {}};
  d.c.model.contact_model = vine::ContactModel::point;
  d.frames = testing::wall_growth_frames(d.c, 1, 7);
  d.before = shooting_residuals(d.c.model, d.c.start, d.frames, Observation::points,
                                d.c.model.stiffness[0], d.c.model.damping[0], false);
  EXPECT_TRUE(d.before.ok) << d.before.message;
  return d;
}

double point_rms(const std::vector<MatX>& simulated, const std::vector<MeasuredFrame>& frames) {
  double sum = 0.0;
  int count = 0;
  for (std::size_t i = 0; i < simulated.size(); ++i) {
    sum += (simulated[i] - frames[i].points).squaredNorm();
    count += static_cast<int>(simulated[i].size());
  }
  return std::sqrt(sum / count);
}

// prints the point RMS and tip-x MAE before and after [mm]
void report(const WallGrowthData& d, const std::vector<MatX>& fitted, const std::string& method,
            double& mae_before, double& mae_after, double& rms_before, double& rms_after) {
  mae_before = testing::wall_growth_tip_x_mae(d.before.simulated, d.c, 1);
  mae_after = testing::wall_growth_tip_x_mae(fitted, d.c, 1);
  rms_before = point_rms(d.before.simulated, d.frames);
  rms_after = point_rms(fitted, d.frames);
  std::printf(
      "%s: point RMS %.2f -> %.2f mm; tip-x MAE (frames 1-7) %.2f -> %.2f mm (paper after fitting: "
      "1.1 mm)\n",
      method.c_str(), 1e3 * rms_before, 1e3 * rms_after, mae_before, mae_after);
}

/// The joint estimation's `options` with the tip on the wall as a known contact at every step.
JointEstimationOptions tip_on_the_wall(const WallGrowthData& d,
                                       JointEstimationOptions options = {}) {
  const int tip = static_cast<int>(d.c.model.contact_points.size()) - 1;
  options.contacts = {{tip, 0, d.frames.front().step, d.frames.back().step}};
  return options;
}

TEST(WallGrowthFit, StiffnessAndDampingFromTheVideo) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d)
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const VineFitResult fit = fit_stiffness_damping(d->c.model, d->c.start, d->frames);
  ASSERT_TRUE(fit.converged) << fit.message;
  std::printf("K = %.3g +- %.2g N m/rad, C = %.3g +- %.2g N m s/rad after %d iterations (%s)\n",
              fit.stiffness, fit.stiffness_sigma, fit.damping, fit.damping_sigma, fit.iterations,
              fit.message.c_str());
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.fitted.simulated, "shooting", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_LT(fit.cost, fit.initial_cost);
  EXPECT_LT(mae_after, mae_before + 0.05);
  // the docs' claim: K not identifiable from this clip (ln K walks off, K -> 0), C identified
  EXPECT_FALSE(identifiable(fit.converged, fit.stiffness, fit.stiffness_sigma));
  EXPECT_TRUE(identifiable(fit.converged, fit.damping, fit.damping_sigma));
}

// The issue's "the unfitted initial guess gives 1.31 mm" is the guess's tip-x mean absolute error
// over all eight video frames 0-7: frame 0's error is zero by construction (the start runs straight
// through its measured tip), so it is 7/8 of the mean over frames 1-7 that the fits report (1.50
// mm).
TEST(WallGrowthFit, TheGuessTipErrorOverAllEightFramesIsTheIssuesFigure) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d)
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const ShootingResiduals all = shooting_residuals(
      d->c.model, d->c.start, testing::wall_growth_frames(d->c, 0, 7), Observation::points,
      d->c.model.stiffness[0], d->c.model.damping[0], false);
  ASSERT_TRUE(all.ok) << all.message;
  ASSERT_EQ(all.simulated.size(), 8u);
  const double frame0 = testing::wall_growth_tip_x_mae({all.simulated[0]}, d->c, 0);
  const double frames_0_to_7 = testing::wall_growth_tip_x_mae(all.simulated, d->c, 0);
  const double frames_1_to_7 = testing::wall_growth_tip_x_mae(d->before.simulated, d->c, 1);
  std::printf("guess tip-x MAE: frame 0 %.2g mm, frames 0-7 %.3f mm, frames 1-7 %.3f mm\n", frame0,
              frames_0_to_7, frames_1_to_7);
  EXPECT_LT(frame0, 1e-9);
  EXPECT_NEAR(frames_0_to_7, 7.0 / 8.0 * frames_1_to_7, 1e-12);
  EXPECT_NEAR(frames_0_to_7, 1.31, 0.005);  // the issue's figure, to its printed digits
}

// The same single-shooting fit as a `tendril fit` method (vine_shooting): a fit file naming the
// example scene (examples/vine_wall_growth.yaml, the paper's point contact) and the measured points
// CSV in mm with 1-based steps. Its frames must be the CSV's (8 frames of 21 points at steps 0, 3,
// ..., 21 in metres), and its result the library fit's on those frames read independently
// (support/wall_growth.hpp).
TEST(WallGrowthFit, AsATendrilFitMethodFromAFitFile) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const std::filesystem::path source = testing::source_tree();
  const std::filesystem::path fit_yaml = testing::scratch_dir("wall_fit") / "wall.yaml";
  std::ofstream(fit_yaml)
      << "scene: " << (source / "examples/vine_wall_growth.yaml").string()
      << "\nmethod: vine_shooting\nparameters:\n"
         "  - {key: vine.stiffness, initial: 0.05, lower: 0}\n"
         "  - {key: vine.damping, initial: 1.0e-5, lower: 0}\n"
         "data:\n  csv: "
      << (dir / "wall_growth_video_points_mm.csv").string()
      << "\n  frames: {step: sim_step_1based, step_offset: 1, x: x_mm, y: y_mm, factor: 1e-3}\n";
  const FitFile file = read_fit_file(fit_yaml);
  const testing::WallGrowthCase c = testing::wall_growth_case(dir);
  ASSERT_EQ(file.frames.size(), 8u);
  for (const auto& row : c.points) {
    const MeasuredFrame& f = file.frames[static_cast<std::size_t>(row[0])];
    EXPECT_EQ(f.step, static_cast<int>(row[1]) - 1);
    EXPECT_EQ(f.points(static_cast<int>(row[3]), 0), 1e-3 * row[4]);
    EXPECT_EQ(f.points(static_cast<int>(row[3]), 1), 1e-3 * row[5]);
  }
  const FitReport report = fit_method("vine_shooting").run(file, {});
  const vine::VineScene scene =
      vine::load_vine_scene_file(source / "examples/vine_wall_growth.yaml");
  // the fit file's options (its defaults: 30 iterations, step 1e-6, cost 1e-10)
  const VineFitResult direct = fit_stiffness_damping(scene.model, scene.initial, file.frames,
                                                     {.max_iterations = file.options.max_iterations,
                                                      .step_tolerance = file.options.step_tolerance,
                                                      .cost_tolerance = file.options.cost_tolerance,
                                                      .progress = {}});
  ASSERT_TRUE(report.converged) << report.message;
  std::printf("tendril fit vine_shooting: K = %.3g, C = %.3g +- %.2g after %d iterations (%s)\n",
              report.values[0], report.values[1], report.sigma[1], report.iterations,
              report.message.c_str());
  EXPECT_LT(report.cost, report.initial_cost);
  EXPECT_EQ(report.values[0], direct.stiffness);
  EXPECT_EQ(report.values[1], direct.damping);
  EXPECT_EQ(report.history.size(), direct.history.size());
}

// The exact Hessian of the Lagrangian (EstimationHessian::exact) on the measured case: 10 bodies,
// the tip held on the wall at every step (bilateral_contacts, impulse rows), the first state's
// velocity rows; against central differences (h = 3e-5: 1.7e-5 at 3e-6 and 5.9e-6 at 1e-5 from the
// step QP's tolerance, 6.4e-6 at 1e-4 from truncation) of the Lagrangian's gradient at a random
// point near the guess and random multipliers of size 1e5, in 1 of every 20 columns and K, C.
TEST(WallGrowthJointEstimation, ExactHessianMatchesCentralDifferencesOfTheLagrangianGradient) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d)
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  JointEstimationOptions options = tip_on_the_wall(*d, step_map_options());
  options.bilateral_contacts = true;
  options.first_state_joint_velocities = true;
  options.hessian = EstimationHessian::exact;
  const auto evaluate = [&](const VecX& x, const VecX& lambda) {
    return evaluate_joint_estimation(d->c.model, d->c.start, d->frames, options, x, lambda);
  };
  const testing::LagrangianHessianCheck check =
      testing::check_lagrangian_hessian(evaluate, 1e-6, 1e5, 3e-5, 20, 9);
  std::printf(
      "%d variables, %d constraints, %d Hessian non-zeros: %d columns checked, worst relative "
      "error %.2e\n",
      static_cast<int>(check.x.size()), static_cast<int>(check.lambda.size()),
      static_cast<int>(check.hessian.nonZeros()), check.checked, check.worst);
  EXPECT_LT(check.worst, 1e-5);
}

// The default options on the measured wall growth (about 20-30 s, most in the trust-region pass),
// source: the vine paper IV-B-2 (tip-x MAE 1.1 mm after its fit) and docs/physics/fitting.md, "What
// the wall growth leaves undetermined": the transcribed formulation, the pass of 200 Gauss-Newton
// and 1500 Newton steps, IPOPT with the exact Hessian, the first state's prismatic joints at least
// end to end and the weak prior on the step rows' multipliers. Asserted: IPOPT's Solve_Succeeded;
// the constraint violation below the synthetic tests' 2e-8 (the equalities hold to IPOPT's
// tolerance; the active length rows |h|^2 >= (d_a + d_b)^2 may be short by IPOPT's bound
// relaxation, bound_relax_factor 1e-8 times max(1, |bound|) = 1e-8 for bounds of about 1e-3 m^2,
// the same as in VineTranscribedEstimation.ThePrismaticLengthBoundKeepsTheRecoveryWithinItsBounds);
// a tip-x error over frames 1-7 below the unfitted guess's (1.50 mm) and a lower point RMS; and K
// and C flagged not identifiable, their sigmas above their values, as the docs say.
TEST(WallGrowthJointEstimation,
     DefaultsConvergeAndFitTheVideoBetterThanTheGuessWithKAndCNotIdentifiable) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d)
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const JointEstimationOptions options = tip_on_the_wall(*d);
  const auto t0 = std::chrono::steady_clock::now();
  const JointEstimationResult fit =
      estimate_vine_states_and_parameters(d->c.model, d->c.start, d->frames, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("trust region: %d steps in %.1f s (%s), objective %.4g -> %.4g\n",
              fit.trust_region_iterations, fit.trust_region_seconds,
              fit.trust_region_message.c_str(), fit.initial_objective, fit.trust_region_objective);
  std::printf(
      "IPOPT %s after %d iterations in %.2f s; objective %.4g (data %.4g, model %.4g), constraint "
      "violation "
      "%.2e; %.1f s in all\n",
      fit.status.c_str(), fit.iterations, fit.seconds, fit.objective, fit.data_term, fit.model_term,
      fit.constraint_violation, seconds);
  std::printf("K = %.4g +- %.2g N m/rad, C = %.4g +- %.2g N m s/rad\n", fit.stiffness[0],
              fit.stiffness_sigma[0], fit.damping[0], fit.damping_sigma[0]);
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.simulated, "joint_estimation", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  RecordProperty("ipopt_iterations", fit.iterations);
  EXPECT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 2e-8);
  EXPECT_LT(mae_after, mae_before);
  EXPECT_LT(rms_after, rms_before);
  EXPECT_GT(fit.stiffness_sigma[0], fit.stiffness[0]);
  EXPECT_GT(fit.damping_sigma[0], fit.damping[0]);
  EXPECT_FALSE(identifiable(fit.converged, fit.stiffness[0], fit.stiffness_sigma[0]));
  EXPECT_FALSE(identifiable(fit.converged, fit.damping[0], fit.damping_sigma[0]));
}

// The growth rate estimated with K and C by the default joint estimation on the measured wall
// growth (then with the contact radius too, see below), against the single-shooting fit of (K, C,
// u) from the same frames (computed here; docs/physics/fitting.md "Linear K or the inflated-beam
// law": 36.4 +- 0.4 mm/s, below the authors' 40 mm/s). Asserted: Solve_Succeeded, the constraint
// violation of the test above, a point RMS below the guess's, the rate identified (sigma below a
// tenth of it) and within four combined sigmas of the shooting fit's (the model residuals r absorb
// part of the growth, so the joint estimate's sigma is the larger).
TEST(WallGrowthJointEstimation, TheGrowthRateAndTheContactRadiusAgainstTheShootingFit) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d)
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const VineParameter rate{VineParameterKind::growth_rate, 0};
  JointEstimationOptions options = tip_on_the_wall(*d);
  options.parameters = {rate};
  const JointEstimationResult fit =
      estimate_vine_states_and_parameters(d->c.model, d->c.start, d->frames, options);
  const VineFitResult shooting =
      fit_vine_parameters(d->c.model, d->c.start, d->frames,
                          {{VineParameterKind::stiffness}, {VineParameterKind::damping}, rate});
  std::printf(
      "joint estimation: IPOPT %s after %d iterations (pass %d steps), objective %.4g, violation "
      "%.2e; K = %.3g +- %.2g, C = %.3g +- %.2g, u = %.5g +- %.2g m/s\n",
      fit.status.c_str(), fit.iterations, fit.trust_region_iterations, fit.objective,
      fit.constraint_violation, fit.stiffness[0], fit.stiffness_sigma[0], fit.damping[0],
      fit.damping_sigma[0], fit.parameter_values[0], fit.parameter_sigmas[0]);
  std::printf("vine_shooting: %s, K = %.3g +- %.2g, C = %.4g +- %.2g, u = %.5g +- %.2g m/s\n",
              shooting.message.c_str(), shooting.values(0), shooting.sigma(0), shooting.values(1),
              shooting.sigma(1), shooting.values(2), shooting.sigma(2));
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.simulated, "joint_estimation with u", mae_before, mae_after, rms_before,
         rms_after);
  ASSERT_TRUE(shooting.converged) << shooting.message;
  EXPECT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 2e-8);
  EXPECT_LT(rms_after, rms_before);
  const double u = fit.parameter_values[0], sigma_u = fit.parameter_sigmas[0];
  EXPECT_LT(sigma_u, 0.1 * u);
  EXPECT_LT(std::abs(u - shooting.values(2)), 4.0 * std::hypot(sigma_u, shooting.sigma(2)));
  // with the contact radius as well (the tip held on the wall at every step): a model containing
  // the one above fits at least as well, and r_c is identified; the shooting fit's r_c printed
  // beside it (its contact is unilateral)
  const VineParameter radius{VineParameterKind::contact_radius};
  options.parameters = {rate, radius};
  const JointEstimationResult with_radius =
      estimate_vine_states_and_parameters(d->c.model, d->c.start, d->frames, options);
  const VineFitResult shooting_radius = fit_vine_parameters(
      d->c.model, d->c.start, d->frames,
      {{VineParameterKind::stiffness}, {VineParameterKind::damping}, rate, radius});
  std::printf(
      "joint estimation with r_c: IPOPT %s after %d iterations, objective %.4g (data %.4g), "
      "violation %.2e; K = %.3g +- %.2g, C = %.3g +- %.2g, u = %.5g +- %.2g m/s, r_c = %.5g +- "
      "%.2g m (guess %.4g)\n",
      with_radius.status.c_str(), with_radius.iterations, with_radius.objective,
      with_radius.data_term, with_radius.constraint_violation, with_radius.stiffness[0],
      with_radius.stiffness_sigma[0], with_radius.damping[0], with_radius.damping_sigma[0],
      with_radius.parameter_values[0], with_radius.parameter_sigmas[0],
      with_radius.parameter_values[1], with_radius.parameter_sigmas[1], d->c.model.contact_radius);
  std::printf(
      "vine_shooting with r_c: %s, 1/2 |r|^2 %.6g, C = %.4g +- %.2g, u = %.5g +- %.2g m/s, "
      "r_c = %.5g +- %.2g m\n",
      shooting_radius.message.c_str(), shooting_radius.cost, shooting_radius.values(1),
      shooting_radius.sigma(1), shooting_radius.values(2), shooting_radius.sigma(2),
      shooting_radius.values(3), shooting_radius.sigma(3));
  report(*d, with_radius.simulated, "joint_estimation with u, r_c", mae_before, mae_after,
         rms_before, rms_after);
  EXPECT_EQ(with_radius.status, "Solve_Succeeded");
  EXPECT_LT(with_radius.constraint_violation, 2e-8);
  EXPECT_LE(with_radius.objective, fit.objective);
  EXPECT_LT(with_radius.parameter_sigmas[1], 0.1 * with_radius.parameter_values[1]);
}

}  // namespace
}  // namespace tendril::fit
