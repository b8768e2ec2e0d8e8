// Which pin law fits the measured wall growth better (../shared/data/vine_wall_growth; the fitting
// issue: a linear K that the data cannot identify may say the model is wrong): single shooting on
// all 21 points of video frames 1-7 with the paper's point contact, from the authors' guess, the
// linear law (K, C) against the inflated-beam law (C and the law's only parameters that shapes
// determine, M_c = pi p r^3 and theta_w = l eps_w / r), each also with the growth rate fitted
// (docs/physics/fitting.md, "Linear K or the inflated-beam law"). Asserted, as the docs say: both
// laws' moments vanish (K -> 0; M_c -> 0 with theta_w -> infinity), flagged not identifiable, and
// each fit is the zero-moment model (its cost is that of K = 0 with the fitted C and rate, an
// independent run), so neither law fits better; the growth rate is identified, below the authors'
// 40 mm/s by more than four sigma, and lowers the cost; with the base heading as well the fit ends
// at another minimum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "support/wall_growth.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"

namespace tendril::fit {
namespace {

using Kind = VineParameterKind;

VineFitResult fit_law(const testing::WallGrowthCase& c, const std::vector<MeasuredFrame>& frames,
                      const vine::VineModel& guess, const std::vector<VineParameter>& parameters,
                      const char* name) {
  const VineFitResult f = fit_vine_parameters(guess, c.start, frames, parameters);
  const double rms = std::sqrt(2.0 * f.cost / static_cast<double>(f.fitted.residual.size()));
  std::printf("%s: %s after %d iterations; cost %.6g m^2, point RMS %.3f mm, tip-x MAE %.3f mm\n",
              name, f.converged ? "converged" : "NOT converged", f.iterations, f.cost, 1e3 * rms,
              testing::wall_growth_tip_x_mae(f.fitted.simulated, c, 1));
  for (std::size_t k = 0; k < parameters.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    std::printf("  %s = %.4g +- %.2g%s\n", vine_parameter_name(parameters[k]).c_str(), f.values(i),
                f.sigma(i),
                identifiable(f.converged, f.values(i), f.sigma(i)) ? "" : " (not identifiable)");
  }
  return f;
}

/// 1/2 |r|^2 of the linear model with K = 0, C = `damping` and the scene's growth rate or `rate`
/// [m/s] (NaN: the scene's).
double zero_moment_cost(const testing::WallGrowthCase& c, const std::vector<MeasuredFrame>& frames,
                        double damping, double rate) {
  vine::VineModel m = c.model;
  set_vine_parameter(m, {Kind::stiffness}, 0.0);
  set_vine_parameter(m, {Kind::damping}, damping);
  if (!std::isnan(rate)) set_vine_parameter(m, {Kind::growth_rate, 0}, rate);
  const ShootingResiduals r =
      shooting_residuals(m, c.start, frames, Observation::points, {}, VecX(), false);
  EXPECT_TRUE(r.ok) << r.message;
  return 0.5 * r.residual.squaredNorm();
}

TEST(WallGrowthBendingLaw, NeitherLawFitsBetterTheirMomentsVanishAndTheGrowthRateIsIdentified) {
  const std::filesystem::path dir = testing::wall_growth_data_dir();
  if (dir.empty())
    GTEST_SKIP() << "measured data ../shared/data/vine_wall_growth not found beside the repository";
  testing::WallGrowthCase c = testing::wall_growth_case(dir);
  c.model.contact_model = vine::ContactModel::point;
  const std::vector<MeasuredFrame> frames = testing::wall_growth_frames(c, 1, 7);
  // the inflated-beam guess: taut slope M_c / (2 theta_w) = 0.05 N m/rad, the linear guess's K
  vine::VineModel beam = c.model;
  beam.bending_law = vine::BendingLaw::inflated_beam;
  beam.stiffness.assign(beam.stiffness.size(), 0.0);
  beam.inflated_beam = {1000.0, 0.5 * beam.tube_diameter, 0.01, 4.0 * beam.half_length[0]};
  beam.inflated_beam.set_collapse_moment(5e-3);
  beam.inflated_beam.set_wrinkling_angle(0.05);
  const VineParameter rate{Kind::growth_rate, 0};
  double cost_at_the_scenes_rate = 0.0;
  for (const bool with_rate : {false, true}) {
    std::vector<VineParameter> linear_p = {{Kind::stiffness}, {Kind::damping}};
    std::vector<VineParameter> beam_p = {
        {Kind::damping}, {Kind::collapse_moment}, {Kind::wrinkling_angle}};
    if (with_rate) {
      linear_p.push_back(rate);
      beam_p.push_back(rate);
    }
    const VineFitResult linear = fit_law(c, frames, c.model, linear_p, "linear");
    const VineFitResult law = fit_law(c, frames, beam, beam_p, "inflated beam");
    ASSERT_TRUE(linear.converged) << linear.message;
    ASSERT_TRUE(law.converged) << law.message;
    // the moments vanish, flagged
    EXPECT_FALSE(identifiable(true, linear.values(0), linear.sigma(0)));
    for (int k : {1, 2}) EXPECT_FALSE(identifiable(true, law.values(k), law.sigma(k))) << k;
    EXPECT_LT(linear.values(0), 1e-20);
    EXPECT_LT(law.values(1), 1e-6 * law.values(2));  // M_c / theta_w, the taut slope: none
    // both are the zero-moment model: the same cost as an independent run with K = 0
    const double nan = std::nan("");
    EXPECT_NEAR(linear.cost,
                zero_moment_cost(c, frames, linear.values(1), with_rate ? linear.values(2) : nan),
                1e-9 * linear.cost);
    EXPECT_NEAR(law.cost,
                zero_moment_cost(c, frames, law.values(0), with_rate ? law.values(3) : nan),
                1e-9 * law.cost);
    EXPECT_NEAR(law.cost, linear.cost, 1e-6 * linear.cost);  // neither fits better
    if (!with_rate) cost_at_the_scenes_rate = linear.cost;
    if (with_rate) {
      EXPECT_LT(linear.cost, cost_at_the_scenes_rate);
      const double u = linear.values(2), sigma_u = linear.sigma(2);
      EXPECT_TRUE(identifiable(true, u, sigma_u));
      EXPECT_LT(u + 4.0 * sigma_u, 0.040);  // below the authors' 40 mm/s
      EXPECT_NEAR(law.values(3), u, sigma_u);
      // with the base heading too the fit ends at another, lower minimum (C -> 0 as well): the
      // sigmas above are local
      const VineFitResult heading =
          fit_law(c, frames, c.model, {{Kind::stiffness}, {Kind::damping}, {Kind::heading}, rate},
                  "linear + heading");
      ASSERT_TRUE(heading.converged) << heading.message;
      EXPECT_LT(heading.cost, linear.cost);
    }
  }
}

}  // namespace
}  // namespace tendril::fit
