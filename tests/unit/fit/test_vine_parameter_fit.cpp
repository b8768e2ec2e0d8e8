// Single shooting of the vine's other parameters (fit/vine_shooting_fit.hpp): the growth
// schedule's rates, the base heading, the contact radius and the inflated-beam law's identifiable
// M_c and theta_w, alongside K and C. The residual Jacobian against central differences of whole
// runs, and recovery from the simulator's own centre lines with Gaussian noise at two levels: every
// error within four of the fit's own sigmas, the sigmas ten times smaller for ten times less
// noise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "support/swinging_vine.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::fit {
namespace {

using vine::VineModel;
using vine::VineState;
using Kind = VineParameterKind;

/// A synthetic case: the true model, its start, the fitted parameters and a guess of them.
struct Case {
  VineModel truth;
  VineState start;
  std::vector<VineParameter> parameters;
  VecX guess;
};

/// The swinging vine growing at 20 mm/s for 0.5 s, then 10 mm/s; fitted: K, C, both rates and the
/// base heading (rest angle 1.2 rad).
Case growth_and_heading() {
  Case c{testing::swinging_vine(), {}, {}, {}};
  c.truth.growth = vine::GrowthSchedule::piecewise({0.0, 0.5}, {0.02, 0.01}, "growth");
  c.start = testing::swinging_start(c.truth);
  c.parameters = {{Kind::stiffness},
                  {Kind::damping},
                  {Kind::growth_rate, 0},
                  {Kind::growth_rate, 1},
                  {Kind::heading}};
  c.guess = VecX{{0.03, 1e-3, 0.015, 0.015, 1.1}};
  return c;
}

/// The swinging vine with inflated-beam joints: M_c = 0.01 N m, theta_w = 0.1 rad (taut slope
/// M_c / (2 theta_w) = 0.05 N m/rad, the linear case's K), so the base joint, released 0.3 rad
/// off its rest angle, swings through the wrinkled range. Fitted: C, M_c, theta_w.
Case inflated_beam() {
  Case c{testing::swinging_vine(), {}, {}, {}};
  c.truth.bending_law = vine::BendingLaw::inflated_beam;
  c.truth.stiffness.assign(c.truth.stiffness.size(), 0.0);
  c.truth.inflated_beam = {1000.0, 0.012, 0.01, 0.08};
  c.truth.inflated_beam.set_collapse_moment(0.01);
  c.truth.inflated_beam.set_wrinkling_angle(0.1);
  c.start = testing::swinging_start(c.truth);
  c.parameters = {{Kind::damping}, {Kind::collapse_moment}, {Kind::wrinkling_angle}};
  c.guess = VecX{{1e-3, 0.006, 0.15}};
  return c;
}

/// The swinging vine with its tip on a wall tilted -0.6 rad (point contact), towards which it
/// swings the contact radius (12 mm) sets how far from it. Fitted: K, C, r_c.
Case contact_radius() {
  Case c{testing::vine_before_a_wall(0.0, -0.6), {}, {}, {}};
  c.start = testing::swinging_start(c.truth);
  c.parameters = {{Kind::stiffness}, {Kind::damping}, {Kind::contact_radius}};
  c.guess = VecX{{0.03, 1e-3, 0.0115}};
  return c;
}

VecX true_values(const Case& c) {
  VecX v(static_cast<Eigen::Index>(c.parameters.size()));
  for (std::size_t k = 0; k < c.parameters.size(); ++k)
    v(static_cast<Eigen::Index>(k)) = vine_parameter_value(c.truth, c.parameters[k]);
  return v;
}

/// The true model's centre line (11 points) every third step through `last`, with Gaussian noise
/// of `noise` [m] on every coordinate after the start.
std::vector<MeasuredFrame> frames_of(const Case& c, int last, double noise, unsigned seed) {
  std::vector<MeasuredFrame> frames;
  for (int step = 0; step <= last; step += 3) frames.push_back({step, MatX::Zero(11, 2)});
  const ShootingResiduals truth = shooting_residuals(c.truth, c.start, frames, Observation::points,
                                                     c.parameters, true_values(c), false);
  EXPECT_TRUE(truth.ok) << truth.message;
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  for (std::size_t f = 0; f < frames.size(); ++f) {
    frames[f].points = truth.simulated[f];
    if (f > 0)
      for (int i = 0; i < frames[f].points.size(); ++i)
        frames[f].points.data()[i] += noise * gauss(rng);
  }
  return frames;
}

VineModel guess_model(const Case& c) {
  VineModel m = c.truth;
  for (std::size_t k = 0; k < c.parameters.size(); ++k)
    set_vine_parameter(m, c.parameters[k], c.guess(static_cast<Eigen::Index>(k)));
  return m;
}

void expect_jacobian_matches_differences(const Case& c, int last) {
  const std::vector<MeasuredFrame> frames = frames_of(c, last, 0.0, 1);
  const ShootingResiduals r = shooting_residuals(c.truth, c.start, frames, Observation::points,
                                                 c.parameters, c.guess, true);
  ASSERT_TRUE(r.ok) << r.message;
  for (std::size_t k = 0; k < c.parameters.size(); ++k) {
    const auto col = static_cast<Eigen::Index>(k);
    const bool log = fitted_in_log(c.parameters[k].kind);
    const double h = 1e-6;
    VecX plus = c.guess, minus = c.guess;
    plus(col) = log ? c.guess(col) * std::exp(h) : c.guess(col) + h;
    minus(col) = log ? c.guess(col) * std::exp(-h) : c.guess(col) - h;
    const ShootingResiduals rp = shooting_residuals(c.truth, c.start, frames, Observation::points,
                                                    c.parameters, plus, false);
    const ShootingResiduals rm = shooting_residuals(c.truth, c.start, frames, Observation::points,
                                                    c.parameters, minus, false);
    ASSERT_TRUE(rp.ok && rm.ok);
    const VecX fd = (rp.residual - rm.residual) / (2 * h);
    EXPECT_GT(fd.norm(), 1e-5) << vine_parameter_name(c.parameters[k]);  // not vacuous
    EXPECT_LT((fd - r.jacobian.col(col)).norm(), 1e-5 * fd.norm())
        << vine_parameter_name(c.parameters[k]);
  }
}

/// Fits at 1 mm and 0.1 mm of noise: converged, every value within 4 sigma of the truth, the
/// residual RMS the noise, sigma ten times smaller for ten times less noise.
void expect_recovery(const Case& c, int last) {
  const VecX truth = true_values(c);
  const VineModel guess = guess_model(c);
  VecX sigma[2];
  const double noise[2] = {1e-3, 1e-4};
  for (int level = 0; level < 2; ++level) {
    const VineFitResult fit =
        fit_vine_parameters(guess, c.start, frames_of(c, last, noise[level], 7), c.parameters);
    ASSERT_TRUE(fit.converged) << fit.message;
    std::printf("noise %.0e m, %d iterations:", noise[level], fit.iterations);
    for (std::size_t k = 0; k < c.parameters.size(); ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      std::printf(" %s = %.6g +- %.2g (truth %.6g);", vine_parameter_name(c.parameters[k]).c_str(),
                  fit.values(i), fit.sigma(i), truth(i));
      EXPECT_LT(std::abs(fit.values(i) - truth(i)), 4 * fit.sigma(i))
          << vine_parameter_name(c.parameters[k]) << " at noise " << noise[level];
    }
    std::printf("\n");
    const double rms = std::sqrt(2 * fit.cost / static_cast<double>(fit.fitted.residual.size()));
    EXPECT_NEAR(rms, noise[level], 0.2 * noise[level]);
    sigma[level] = fit.sigma;
  }
  for (Eigen::Index i = 0; i < sigma[0].size(); ++i)
    EXPECT_NEAR(sigma[0](i) / sigma[1](i), 10.0, 1.0) << vine_parameter_name(c.parameters[i]);
}

TEST(VineParameterFit, ResidualJacobianMatchesFiniteDifferencesOfWholeRuns) {
  expect_jacobian_matches_differences(growth_and_heading(), 90);
  expect_jacobian_matches_differences(inflated_beam(), 90);
  expect_jacobian_matches_differences(contact_radius(), 45);
}

TEST(VineParameterFit, RecoversGrowthRatesAndHeadingWithStiffnessAndDamping) {
  expect_recovery(growth_and_heading(), 90);
}

TEST(VineParameterFit, RecoversTheInflatedBeamLawsCollapseMomentAndWrinklingAngle) {
  expect_recovery(inflated_beam(), 90);
}

TEST(VineParameterFit, RecoversTheContactRadiusWithStiffnessAndDamping) {
  expect_recovery(contact_radius(), 45);
}

TEST(VineParameterFit, RefusesParametersTheModelDoesNotHave) {
  const Case linear = growth_and_heading();
  const Case beam = inflated_beam();
  const auto refused = [](const VineModel& m, std::vector<VineParameter> p, const char* what) {
    try {
      check_vine_parameters(m, p);
    } catch (const InputError& e) {
      return std::string(e.what()).find(what) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused(linear.truth, {{Kind::collapse_moment}}, "parameters[0]"));
  EXPECT_TRUE(refused(beam.truth, {{Kind::damping}, {Kind::stiffness}}, "parameters[1]"));
  EXPECT_TRUE(refused(linear.truth, {{Kind::growth_rate, 2}}, "sample 0 .. 1"));
  EXPECT_TRUE(refused(linear.truth, {{Kind::contact_radius}}, "obstacles"));
  EXPECT_TRUE(refused(linear.truth, {{Kind::heading}, {Kind::heading}}, "not fitted twice"));
  VineModel steered = linear.truth;
  steered.rest_angle_schedule.assign(steered.num_pins(), constant_rate(0.0, 0.0));
  EXPECT_TRUE(refused(steered, {{Kind::heading}}, "steering"));
  EXPECT_NO_THROW(check_vine_parameters(beam.truth, beam.parameters));
}

}  // namespace
}  // namespace tendril::fit
