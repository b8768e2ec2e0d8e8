// Fitting K and C to the measured wall growth (vine paper IV-B-2, Fig. 7: tip-x mean absolute error
// 1.1 mm after the authors' fit; data ../shared/data/vine_wall_growth), both methods on the same data:
// all 21 measured points of video frames 1-7, the authors' initial guess (K = 0.05 N m/rad,
// C = 1e-5 N m s/rad), the paper's point contact (its step derivatives are exact; with body contact
// the contact point's motion along the body is not differentiated, docs/physics/vine.md).
// - Single shooting must converge, lower the point residual, and not worsen the tip-x error of the
//   unfitted guess.
// - The joint state and parameter estimation (section III, eq. 16), with the tip on the wall as a
//   known contact at every step (the data's README: in contact throughout the clip), must end with
//   IPOPT's Solve_Succeeded and fit the video better than the guess. Enabled in the configuration that
//   converges (the transcribed formulation with the first state's prismatic lengths bounded and the
//   multipliers' prior; its test below, about 2 minutes). The step-map formulation's test, which
//   runs the trust-region pass (200 Levenberg-Marquardt steps) first, is DISABLED: it does not
//   converge. The pass lowers the objective from 5592 to 85 and stalls at a kink of the step map
//   (the tip's contact switches between pushing and not touching where Phi = 0 holds it); IPOPT from there reaches 58.6 and
//   stops with Invalid_Number_Detected after 16 iterations (a step QP fails at step 3 of a point it
//   asks derivatives for; docs/physics/fitting.md). Run with
//   --gtest_also_run_disabled_tests (TENDRIL_IPOPT_LOG=1: IPOPT's log; TENDRIL_LBFGS=1: L-BFGS;
//   TENDRIL_HELD_CONTACTS=1: the known contact held by the step map, impulses >= 0;
//   TENDRIL_ELIMINATE=1: IPOPT on the problem with r eliminated (eliminate_model_residuals), which
//   does not converge either; TENDRIL_TRUST_REGION=N: N pass steps instead of 200, 0: none;
//   TENDRIL_FIRST_VELOCITIES=1: dc/dq(q_0) v_0 = 0 imposed, first_state_joint_velocities;
//   TENDRIL_EXACT_HESSIAN=1: the exact Hessian of the Lagrangian, EstimationHessian::exact, which
//   does not converge either; TENDRIL_MAX_ITER=N: IPOPT's max_iter, default 500;
//   TENDRIL_MODEL_SIGMA_SCALE=F: all four model sigmas times F; TENDRIL_TRANSCRIBED=1: the transcribed
//   formulation, formulation: transcribed, without the pass unless TENDRIL_TRUST_REGION=N is given
//   (TENDRIL_NEWTON=M: then M steps with the residuals' curvature, trust_region_newton_iterations),
//   which does not converge either, but with TENDRIL_TRUST_REGION=200 TENDRIL_NEWTON=1500
//   TENDRIL_EXACT_HESSIAN=1 TENDRIL_MIN_EXTENSION=0 it passes (Solve_Succeeded after 21 iterations;
//   with TENDRIL_MULTIPLIER_SIGMA=10 as well: the enabled test above; docs/physics/fitting.md, "What
//   the wall growth leaves undetermined");
//   TENDRIL_DAMPING_SCALE=S: C_scale; TENDRIL_GUESS_K, TENDRIL_GUESS_C: another initial guess, with
//   TENDRIL_DAMPING_MAX=C its bound on C; TENDRIL_NO_CONTACT=1: no known contact;
//   TENDRIL_DUMP_DIR=DIR, transcribed only: a diagnostic dump into DIR, options.dump_directory: IPOPT's
//   step per iteration and, at its last point (TENDRIL_MAX_ITER=N to stop at iteration N), x, the
//   multipliers, the constraint Jacobian and the exact Lagrangian Hessian (Matrix Market), the
//   blocks' layout; analysed by scripts/estimation_dump_analysis.py); TENDRIL_MULTIPLIER_SIGMA=S,
//   transcribed only: the weak prior |y|^2 / S^2 on the multipliers, options.multiplier_sigma;
//   TENDRIL_MIN_EXTENSION=E [m], transcribed only: the first state's prismatic joints extended by at
//   least E, options.min_prismatic_extension).
// The numbers are printed for the notes and docs/physics/fitting.md; TENDRIL_FIT_PLOT_DIR=DIR writes
// the measured and fitted points as CSV into DIR for apps/cli/plot_fit_points.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "support/lagrangian_hessian.hpp"
#include "support/scratch_dir.hpp"
#include "support/wall_growth.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/fit_points_csv.hpp"
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
  d.before = shooting_residuals(d.c.model, d.c.start, d.frames, Observation::points, d.c.model.stiffness[0],
                                d.c.model.damping[0], false);
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

// prints the point RMS and tip-x MAE before and after [mm], writes the plot table if asked
void report(const WallGrowthData& d, const std::vector<MatX>& fitted, const std::string& method,
            double& mae_before, double& mae_after, double& rms_before, double& rms_after) {
  mae_before = testing::wall_growth_tip_x_mae(d.before.simulated, d.c, 1);
  mae_after = testing::wall_growth_tip_x_mae(fitted, d.c, 1);
  rms_before = point_rms(d.before.simulated, d.frames);
  rms_after = point_rms(fitted, d.frames);
  std::printf("%s: point RMS %.2f -> %.2f mm; tip-x MAE (frames 1-7) %.2f -> %.2f mm (paper after fitting: 1.1 mm)\n",
              method.c_str(), 1e3 * rms_before, 1e3 * rms_after, mae_before, mae_after);
  if (const char* plot_dir = std::getenv("TENDRIL_FIT_PLOT_DIR"))
    write_fit_points_csv(std::filesystem::path(plot_dir) / ("wall_growth_" + method + "_points.csv"), d.frames, fitted);
}

/// The joint estimation's options with the tip on the wall as a known contact at every step.
JointEstimationOptions tip_on_the_wall(const WallGrowthData& d) {
  JointEstimationOptions options;
  const int tip = static_cast<int>(d.c.model.contact_points.size()) - 1;
  options.contacts = {{tip, 0, d.frames.front().step, d.frames.back().step}};
  return options;
}

TEST(WallGrowthFit, StiffnessAndDampingFromTheVideo) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const VineFitResult fit = fit_stiffness_damping(d->c.model, d->c.start, d->frames);
  ASSERT_TRUE(fit.converged) << fit.message;
  std::printf("K = %.3g +- %.2g N m/rad, C = %.3g +- %.2g N m s/rad after %d iterations (%s)\n", fit.stiffness,
              fit.stiffness_sigma, fit.damping, fit.damping_sigma, fit.iterations, fit.message.c_str());
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.fitted.simulated, "shooting", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_LT(fit.cost, fit.initial_cost);
  EXPECT_LT(mae_after, mae_before + 0.05);
}

// The issue's "the unfitted initial guess gives 1.31 mm" is the guess's tip-x mean absolute error over
// all eight video frames 0-7: frame 0's error is zero by construction (the start runs straight through
// its measured tip), so it is 7/8 of the mean over frames 1-7 that the fits report (1.50 mm).
TEST(WallGrowthFit, TheGuessTipErrorOverAllEightFramesIsTheIssuesFigure) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const ShootingResiduals all = shooting_residuals(d->c.model, d->c.start, testing::wall_growth_frames(d->c, 0, 7),
                                                   Observation::points, d->c.model.stiffness[0], d->c.model.damping[0],
                                                   false);
  ASSERT_TRUE(all.ok) << all.message;
  ASSERT_EQ(all.simulated.size(), 8u);
  const double frame0 = testing::wall_growth_tip_x_mae({all.simulated[0]}, d->c, 0);
  const double frames_0_to_7 = testing::wall_growth_tip_x_mae(all.simulated, d->c, 0);
  const double frames_1_to_7 = testing::wall_growth_tip_x_mae(d->before.simulated, d->c, 1);
  std::printf("guess tip-x MAE: frame 0 %.2g mm, frames 0-7 %.3f mm, frames 1-7 %.3f mm\n", frame0, frames_0_to_7,
              frames_1_to_7);
  EXPECT_LT(frame0, 1e-9);
  EXPECT_NEAR(frames_0_to_7, 7.0 / 8.0 * frames_1_to_7, 1e-12);
  EXPECT_NEAR(frames_0_to_7, 1.31, 0.005);  // the issue's figure, to its printed digits
}

// The same single-shooting fit as a `tendril fit` method (vine_shooting): a fit file naming the example
// scene (examples/vine_wall_growth.yaml, the paper's point contact) and the measured points CSV in mm with
// 1-based steps. Its frames must be the CSV's (8 frames of 21 points at steps 0, 3, ..., 21 in metres),
// and its result the library fit's on those frames read independently (support/wall_growth.hpp).
TEST(WallGrowthFit, AsATendrilFitMethodFromAFitFile) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty()) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  const std::filesystem::path source = std::getenv("TENDRIL_SOURCE_DIR") ? std::getenv("TENDRIL_SOURCE_DIR") : ".";
  const std::filesystem::path fit_yaml = testing::scratch_dir("wall_fit") / "wall.yaml";
  std::ofstream(fit_yaml) << "scene: " << (source / "examples/vine_wall_growth.yaml").string()
                          << "\nmethod: vine_shooting\nparameters:\n"
                             "  - {key: vine.stiffness, initial: 0.05, lower: 0}\n"
                             "  - {key: vine.damping, initial: 1.0e-5, lower: 0}\n"
                             "data:\n  csv: " << (dir / "wall_growth_video_points_mm.csv").string()
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
  const vine::VineScene scene = vine::load_vine_scene_file(source / "examples/vine_wall_growth.yaml");
  // the fit file's options (its defaults: 30 iterations, step 1e-6, cost 1e-10)
  const VineFitResult direct =
      fit_stiffness_damping(scene.model, scene.initial, file.frames,
                            {.max_iterations = file.options.max_iterations, .step_tolerance = file.options.step_tolerance,
                             .cost_tolerance = file.options.cost_tolerance});
  ASSERT_TRUE(report.converged) << report.message;
  std::printf("tendril fit vine_shooting: K = %.3g, C = %.3g +- %.2g after %d iterations (%s)\n", report.values[0],
              report.values[1], report.sigma[1], report.iterations, report.message.c_str());
  EXPECT_LT(report.cost, report.initial_cost);
  EXPECT_EQ(report.values[0], direct.stiffness);
  EXPECT_EQ(report.values[1], direct.damping);
  EXPECT_EQ(report.history.size(), direct.history.size());
}

// The exact Hessian of the Lagrangian (EstimationHessian::exact) on the measured case: 10 bodies, the
// tip held on the wall at every step (bilateral_contacts, impulse rows), the first state's velocity
// rows; against central differences (h = 3e-5: 1.7e-5 at 3e-6 and 5.9e-6 at 1e-5 from the step QP's
// tolerance, 6.4e-6 at 1e-4 from truncation) of the Lagrangian's gradient at a random point near
// the guess and random multipliers of size 1e5, in 1 of every 20 columns and K, C.
TEST(WallGrowthJointEstimation, ExactHessianMatchesCentralDifferencesOfTheLagrangianGradient) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  JointEstimationOptions options = tip_on_the_wall(*d);
  options.bilateral_contacts = true;
  options.first_state_joint_velocities = true;
  options.hessian = EstimationHessian::exact;
  const auto evaluate = [&](const VecX& x, const VecX& lambda) {
    return evaluate_joint_estimation(d->c.model, d->c.start, d->frames, options, x, lambda);
  };
  const testing::LagrangianHessianCheck check = testing::check_lagrangian_hessian(evaluate, 1e-6, 1e5, 3e-5, 20, 9);
  std::printf("%d variables, %d constraints, %d Hessian non-zeros: %d columns checked, worst relative error %.2e\n",
              static_cast<int>(check.x.size()), static_cast<int>(check.lambda.size()),
              static_cast<int>(check.hessian.nonZeros()), check.checked, check.worst);
  EXPECT_LT(check.worst, 1e-5);
}

// The converging configuration on the measured wall growth (SLOW, about 2 minutes: the trust-region
// pass), source: the vine paper IV-B-2 (tip-x MAE 1.1 mm after its fit) and docs/physics/fitting.md,
// "What the wall growth leaves undetermined": the transcribed formulation, the pass of 200
// Gauss-Newton and 1500 Newton steps, IPOPT with the exact Hessian, the first state's prismatic
// joints at least end to end (min_prismatic_extension 0) and the weak prior on the step rows'
// multipliers (multiplier_sigma 10 m/s). Both modelling additions, not the bound alone: with the
// bound alone the fit also converges but its first state rotates the whole vine at about 40 rad/s
// (13 m/s at the tip) into an impact at the wall within the first step; the prior keeps v_0 below
// 0.05 m/s, so the fitted first state is the physical one. Asserted: IPOPT's Solve_Succeeded, the
// constraint violation below IPOPT's own constraint tolerance (constr_viol_tol, its default 1e-4,
// which Solve_Succeeded requires of the unscaled constraints), a tip-x error over frames 1-7 below
// the unfitted guess's (1.50 mm) and a lower point RMS, finite sigmas of K and C.
TEST(WallGrowthJointEstimation, TranscribedWithBoundedFirstLengthsConvergesAndFitsTheVideoBetterThanTheGuess) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  JointEstimationOptions options = tip_on_the_wall(*d);
  options.formulation = EstimationFormulation::transcribed;
  options.hessian = EstimationHessian::exact;
  options.trust_region_iterations = 200;
  options.trust_region_newton_iterations = 1500;
  options.min_prismatic_extension = 0.0;
  options.multiplier_sigma = 10.0;
  const auto t0 = std::chrono::steady_clock::now();
  const JointEstimationResult fit = estimate_vine_states_and_parameters(d->c.model, d->c.start, d->frames, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("trust region: %d steps in %.1f s (%s), objective %.4g -> %.4g\n", fit.trust_region_iterations,
              fit.trust_region_seconds, fit.trust_region_message.c_str(), fit.initial_objective, fit.trust_region_objective);
  std::printf("IPOPT %s after %d iterations in %.2f s; objective %.4g (data %.4g, model %.4g), constraint violation "
              "%.2e; %.1f s in all\n",
              fit.status.c_str(), fit.iterations, fit.seconds, fit.objective, fit.data_term, fit.model_term,
              fit.constraint_violation, seconds);
  std::printf("K = %.4g +- %.2g N m/rad, C = %.4g +- %.2g N m s/rad\n", fit.stiffness[0], fit.stiffness_sigma[0],
              fit.damping[0], fit.damping_sigma[0]);
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.simulated, "joint_estimation_transcribed", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  RecordProperty("ipopt_iterations", fit.iterations);
  EXPECT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 1e-4);  // IPOPT's constr_viol_tol (default; the library does not set it)
  EXPECT_LT(mae_after, mae_before);
  EXPECT_LT(rms_after, rms_before);
  EXPECT_TRUE(std::isfinite(fit.stiffness_sigma[0]));
  EXPECT_TRUE(std::isfinite(fit.damping_sigma[0]));
}

TEST(WallGrowthJointEstimation, DISABLED_ConvergesAndFitsTheVideoBetterThanTheGuess) {
  const std::optional<WallGrowthData> d = wall_growth_data();
  if (!d) GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  JointEstimationOptions options = tip_on_the_wall(*d);
  options.print_level = std::getenv("TENDRIL_IPOPT_LOG") ? 5 : 0;
  options.trust_region_iterations = std::getenv("TENDRIL_TRUST_REGION") ? std::atoi(std::getenv("TENDRIL_TRUST_REGION")) : 200;
  options.bilateral_contacts = std::getenv("TENDRIL_HELD_CONTACTS") != nullptr;
  options.eliminate_model_residuals = std::getenv("TENDRIL_ELIMINATE") != nullptr;
  options.first_state_joint_velocities = std::getenv("TENDRIL_FIRST_VELOCITIES") != nullptr;
  if (std::getenv("TENDRIL_LBFGS")) options.hessian = EstimationHessian::limited_memory;
  if (std::getenv("TENDRIL_EXACT_HESSIAN")) options.hessian = EstimationHessian::exact;
  if (std::getenv("TENDRIL_MAX_ITER")) options.max_iterations = std::atoi(std::getenv("TENDRIL_MAX_ITER"));
  if (std::getenv("TENDRIL_TRANSCRIBED")) {
    options.formulation = EstimationFormulation::transcribed;
    if (!std::getenv("TENDRIL_TRUST_REGION")) options.trust_region_iterations = 0;
    if (const char* n = std::getenv("TENDRIL_NEWTON")) options.trust_region_newton_iterations = std::atoi(n);
  }
  if (const char* scale = std::getenv("TENDRIL_DAMPING_SCALE")) options.damping_scale = std::atof(scale);
  if (const char* scale = std::getenv("TENDRIL_MODEL_SIGMA_SCALE")) {
    options.model_sigma_position *= std::atof(scale);
    options.model_sigma_angle *= std::atof(scale);
    options.model_sigma_velocity *= std::atof(scale);
    options.model_sigma_angular_velocity *= std::atof(scale);
  }
  vine::VineModel guess = d->c.model;
  if (const char* k = std::getenv("TENDRIL_GUESS_K")) guess.stiffness.assign(guess.stiffness.size(), std::atof(k));
  if (const char* c = std::getenv("TENDRIL_GUESS_C")) guess.damping.assign(guess.damping.size(), std::atof(c));
  if (const char* c = std::getenv("TENDRIL_DAMPING_MAX")) options.damping_max = std::atof(c);
  if (std::getenv("TENDRIL_NO_CONTACT")) options.contacts.clear();
  if (const char* dir = std::getenv("TENDRIL_DUMP_DIR")) options.dump_directory = dir;
  if (const char* sigma = std::getenv("TENDRIL_MULTIPLIER_SIGMA")) options.multiplier_sigma = std::atof(sigma);
  if (const char* e = std::getenv("TENDRIL_MIN_EXTENSION")) options.min_prismatic_extension = std::atof(e);
  const JointEstimationResult fit = estimate_vine_states_and_parameters(guess, d->c.start, d->frames, options);
  std::printf("trust region: %d steps in %.2f s (%s), objective %.4g -> %.4g\n", fit.trust_region_iterations,
              fit.trust_region_seconds, fit.trust_region_message.c_str(), fit.initial_objective, fit.trust_region_objective);
  std::printf("IPOPT %s after %d iterations in %.2f s (%.1f ms per iteration); objective %.4g -> %.4g "
              "(data %.4g, model %.4g), constraint violation %.2e\n",
              fit.status.c_str(), fit.iterations, fit.seconds, 1e3 * fit.seconds / std::max(1, fit.iterations),
              fit.initial_objective, fit.objective, fit.data_term, fit.model_term, fit.constraint_violation);
  std::printf("K = %.4g +- %.2g N m/rad, C = %.4g +- %.2g N m s/rad; smallest held contact impulse %.3g N s\n",
              fit.stiffness[0], fit.stiffness_sigma[0], fit.damping[0], fit.damping_sigma[0], fit.min_contact_impulse);
  double mae_before, mae_after, rms_before, rms_after;
  report(*d, fit.simulated, "joint_estimation", mae_before, mae_after, rms_before, rms_after);
  RecordProperty("tip_x_mae_mm", std::to_string(mae_after));
  EXPECT_EQ(fit.status, "Solve_Succeeded");
  EXPECT_LT(fit.constraint_violation, 1e-8);
  EXPECT_LT(mae_after, mae_before);
  EXPECT_LT(rms_after, rms_before);
}

}  // namespace
}  // namespace tendril::fit
