// The inflated-beam moment law against the wall stresses integrated in the test, its limits (EI
// of the tube, the wrinkling and collapse moments) and its derivatives against finite differences.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/scratch_dir.hpp"
#include "tendril/core/error.hpp"
#include "tendril/vine/inflated_beam_moment.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::vine {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kP = 2000.0;    // gauge pressure [Pa]
constexpr double kR = 0.012;     // radius [m]
constexpr double kWall = 500.0;  // membrane stiffness E t [N/m]

InflatedBeam tube() {
  InflatedBeam b;
  b.pressure = kP;
  b.radius = kR;
  b.wrinkling_strain = kP * kR / (2.0 * kWall);
  b.joint_length = 0.02;
  return b;
}

/// Reference: the wall stress E t max(eps0 + kappa r cos(phi), 0) integrated by the midpoint rule
/// over the circumference, eps0 found by bisection so that it carries the end caps' pi p r^2.
double wall_moment(double kappa) {
  const int n = 20000;
  const auto integrate = [&](double eps0, double& moment) {
    double force = 0.0;
    moment = 0.0;
    for (int i = 0; i < n; ++i) {
      const double phi = (i + 0.5) * 2.0 * kPi / n;
      const double stress = kWall * std::max(eps0 + kappa * kR * std::cos(phi), 0.0);
      force += stress * kR * 2.0 * kPi / n;
      moment += stress * kR * kR * std::cos(phi) * 2.0 * kPi / n;
    }
    return force;
  };
  double lo = -kappa * kR, hi = 1.0, moment = 0.0;
  for (int it = 0; it < 80; ++it) {
    const double mid = 0.5 * (lo + hi);
    (integrate(mid, moment) > kPi * kP * kR * kR ? hi : lo) = mid;
  }
  integrate(0.5 * (lo + hi), moment);
  return moment;
}

TEST(InflatedBeamMoment, LinearWithTubeStiffnessBelowWrinkling) {
  const InflatedBeam b = tube();
  const double ei = kPi * kWall * kR * kR * kR;  // thin-walled tube: E pi r^3 t
  EXPECT_NEAR(b.bending_stiffness(), ei, 1e-12 * ei);
  const double k_w = kP / (2.0 * kWall);  // the compressed fibre's strain reaches zero
  EXPECT_NEAR(b.wrinkling_curvature(), k_w, 1e-12 * k_w);
  for (double f : {-1.0, -0.3, 0.2, 0.999}) {
    const BendingMoment m = inflated_beam_moment(b, f * k_w);
    EXPECT_NEAR(m.moment, ei * f * k_w, 1e-12 * ei * k_w);
    EXPECT_NEAR(m.stiffness, ei, 1e-12 * ei);
  }
  // the wrinkling moment pi p r^3 / 2 (Comer & Levy 1963)
  EXPECT_NEAR(inflated_beam_moment(b, k_w).moment, 0.5 * kPi * kP * kR * kR * kR,
              1e-12 * kP * kR * kR * kR);
}

TEST(InflatedBeamMoment, WrinkledBranchMatchesIntegratedWallStress) {
  const InflatedBeam b = tube();
  const double k_w = b.wrinkling_curvature();
  for (double f : {0.5, 1.01, 1.5, 3.0, 10.0, 100.0}) {
    const double reference = wall_moment(f * k_w);
    EXPECT_NEAR(inflated_beam_moment(b, f * k_w).moment, reference, 1e-6 * reference) << f;
  }
}

TEST(InflatedBeamMoment, SaturatesAtTheCollapseMoment) {
  const InflatedBeam b = tube();
  const double m_c = kPi * kP * kR * kR * kR;
  EXPECT_NEAR(b.collapse_moment(), m_c, 1e-12 * m_c);
  double previous = 0.0;
  for (double f = 1.0; f < 1e9; f *= 3.0) {
    const double m = inflated_beam_moment(b, f * b.wrinkling_curvature()).moment;
    EXPECT_GT(m, previous);
    EXPECT_LT(m, m_c);
    previous = m;
  }
  EXPECT_NEAR(previous, m_c, 1e-5 * m_c);
  EXPECT_NEAR(inflated_beam_moment(b, -1e9 * b.wrinkling_curvature()).moment, -m_c, 1e-5 * m_c);
}

TEST(InflatedBeamMoment, DerivativesMatchFiniteDifferences) {
  const InflatedBeam b = tube();
  const double k_w = b.wrinkling_curvature();
  for (double f : {0.4, -0.7, 1.2, -1.2, 2.0, 7.0, -30.0, 1e3, 1e7}) {
    const double k = f * k_w, h = 1e-6 * std::abs(k);
    const BendingMoment m = inflated_beam_moment(b, k);
    const BendingMoment plus = inflated_beam_moment(b, k + h);
    const BendingMoment minus = inflated_beam_moment(b, k - h);
    EXPECT_NEAR(m.stiffness, (plus.moment - minus.moment) / (2 * h),
                1e-6 * std::abs(m.stiffness) + 1e-9 * b.bending_stiffness())
        << f;
    EXPECT_NEAR(m.second_derivative, (plus.stiffness - minus.stiffness) / (2 * h),
                1e-5 * std::abs(m.second_derivative) + 1e-9 * b.bending_stiffness() / k_w)
        << f;
    // (far into saturation W ~ M_c kappa is a difference of terms ~ kappa^2: its quotient over h
    // loses digits, so the energy is checked up to 1e3 kappa_w)
    if (std::abs(f) <= 1e3) {
      EXPECT_NEAR(m.moment, (plus.energy - minus.energy) / (2 * h), 1e-7 * std::abs(m.moment)) << f;
    }
  }
}

TEST(InflatedBeamMoment, TangentIsContinuousWhereTheWallWrinkles) {
  const InflatedBeam b = tube();
  const double k_w = b.wrinkling_curvature();
  const BendingMoment after = inflated_beam_moment(b, (1.0 + 1e-10) * k_w);
  EXPECT_NEAR(after.stiffness, b.bending_stiffness(), 1e-4 * b.bending_stiffness());
  EXPECT_NEAR(after.energy, 0.5 * b.bending_stiffness() * k_w * k_w,
              1e-8 * b.bending_stiffness() * k_w * k_w);
}

TEST(InflatedBeamMoment, JointLawSpreadsTheAngleOverTheJointLength) {
  const InflatedBeam b = tube();
  const double angle = 3.0 * b.wrinkling_curvature() * b.joint_length;
  const BendingMoment c = inflated_beam_moment(b, angle / b.joint_length);
  const BendingMoment j = inflated_beam_joint_moment(b, angle);
  EXPECT_EQ(j.moment, c.moment);
  EXPECT_NEAR(j.stiffness, c.stiffness / b.joint_length, 1e-15 * std::abs(j.stiffness));
  EXPECT_NEAR(j.energy, c.energy * b.joint_length, 1e-15 * j.energy);
}

TEST(InflatedBeamMoment, RefusesNonPositiveParameters) {
  InflatedBeam b = tube();
  b.validate("vine.inflated_beam");
  b.wrinkling_strain = 0.0;
  try {
    b.validate("vine.inflated_beam");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("vine.inflated_beam.wrinkling_strain"), std::string::npos);
  }
}

/// Loads a two-body vine scene with `extra` lines under `vine:`; returns the error text or "".
std::string load_error(const std::string& extra, VineModel* model = nullptr) {
  // (a folder of this process's own: ctest runs the tests of this file in parallel processes)
  const std::filesystem::path file = testing::scratch_dir("inflated_beam") / "scene.yaml";
  std::ofstream(file) << "vine:\n  bodies: 2\n  half_length: 0.01\n  steps: 1\n" << extra;
  std::string error;
  try {
    const VineScene scene = load_vine_scene_file(file);
    if (model) *model = scene.model;
  } catch (const InputError& e) {
    error = e.what();
  }
  std::filesystem::remove(file);
  return error;
}

TEST(InflatedBeamScene, ReadsTheLawAndItsDefaults) {
  VineModel m;
  EXPECT_EQ(load_error("  bending_law: inflated_beam\n"
                       "  inflated_beam: {pressure: 2000, wrinkling_strain: 0.02}\n",
                       &m),
            "");
  EXPECT_EQ(m.bending_law, BendingLaw::inflated_beam);
  EXPECT_EQ(m.inflated_beam.pressure, 2000.0);
  EXPECT_EQ(m.inflated_beam.radius, 0.012);       // tube_diameter / 2
  EXPECT_EQ(m.inflated_beam.joint_length, 0.04);  // 4 half_length
  EXPECT_EQ(load_error("  stiffness: [0.1]\n", &m), "");
  EXPECT_EQ(m.bending_law, BendingLaw::linear);
}

TEST(InflatedBeamScene, TakesImplicitSprings) {
  VineModel m;
  EXPECT_EQ(load_error("  bending_law: inflated_beam\n  springs: implicit\n"
                       "  inflated_beam: {pressure: 2000, wrinkling_strain: 0.02}\n",
                       &m),
            "");
  EXPECT_EQ(m.springs, SpringIntegration::implicit);
}

TEST(InflatedBeamScene, RefusesMixedOrMissingKeys) {
  const auto names = [](const std::string& error, const char* key) {
    return error.find(key) != std::string::npos;
  };
  EXPECT_TRUE(names(load_error("  bending_law: inflated_beam\n  stiffness: [0.1]\n"
                               "  inflated_beam: {pressure: 2000, wrinkling_strain: 0.02}\n"),
                    "vine.stiffness"));
  EXPECT_TRUE(names(load_error("  bending_law: inflated_beam\n"), "vine.inflated_beam"));
  EXPECT_TRUE(names(load_error(""), "vine.stiffness"));
  EXPECT_TRUE(names(load_error("  bending_law: inflated_beam\n"
                               "  inflated_beam: {pressure: 2000, wrinkling_strain: -1}\n"),
                    "vine.inflated_beam.wrinkling_strain"));
}

}  // namespace
}  // namespace tendril::vine
