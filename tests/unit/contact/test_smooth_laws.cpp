// The smooth penalty of IMC (mat_dismech eq. 21, ground eq. 25-26) and the smooth Coulomb
// direction of eq. 23: values against the paper's branches, derivatives against finite differences
// inside and at the edges of the smooth zone, in stick, slip and the transition.
#include <gtest/gtest.h>

#include <cmath>

#include "tendril/contact/friction/smooth_friction.hpp"
#include "tendril/contact/potentials/smooth_penalty.hpp"

namespace tendril::contact {
namespace {

TEST(SmoothPenalty, MatchesThePapersBranches) {
  const double delta = 1e-3;
  // eq. 21 first branch: (2 r0 - Delta)^2 = g^2 for g <= -delta, within 2 e^-15 relative
  for (double g : {-1e-3, -2e-3, -1e-2})
    EXPECT_NEAR(smooth_penalty(g, delta).value, g * g, 1e-6 * g * g);
  // zero at and beyond delta
  EXPECT_EQ(smooth_penalty(delta, delta).value, 0.0);
  EXPECT_EQ(smooth_penalty(2 * delta, delta).slope, 0.0);
  // just inside the cut-off the value is negligible (< 1e-14 delta^2)
  EXPECT_LT(smooth_penalty(delta * (1 - 1e-12), delta).value, 1e-14 * delta * delta);
  // eq. 25-26 at the gap g: gradient k_c b' and stiffness k_c b'' (k_c = 1)
  for (double g : {-5e-4, 0.0, 3e-4}) {
    const double k1 = 15.0 / delta, e = std::exp(-k1 * g), l = std::log(e + 1.0);
    const PenaltyValue b = smooth_penalty(g, delta);
    EXPECT_NEAR(b.slope, -2.0 * e * l / (k1 * (e + 1.0)), 1e-12 * std::abs(b.slope));
    EXPECT_NEAR(b.curvature, (2.0 * e * l + 2.0 * e * e) / ((e + 1.0) * (e + 1.0)),
                1e-12 * b.curvature);
  }
}

TEST(SmoothPenalty, DerivativesMatchFiniteDifferencesAcrossTheZone) {
  const double delta = 1e-3, h = 1e-9;
  // deep inside, the inner edge, the middle, the outer edge of the smooth zone
  for (double g : {-3e-3, -1e-3, -2e-4, 0.0, 4e-4, 9.9e-4}) {
    const PenaltyValue b = smooth_penalty(g, delta), bp = smooth_penalty(g + h, delta),
                       bm = smooth_penalty(g - h, delta);
    EXPECT_NEAR(b.slope, (bp.value - bm.value) / (2 * h), 1e-6 * std::max(std::abs(b.slope), 1e-12))
        << g;
    EXPECT_NEAR(b.curvature, (bp.slope - bm.slope) / (2 * h), 1e-6 * std::max(b.curvature, 1e-9))
        << g;
    EXPECT_LE(b.slope, 0.0);
    EXPECT_GE(b.curvature, 0.0);
  }
}

TEST(SmoothFriction, GammaSaturatesAndDirectionIsExact) {
  const double nu = 1e-3;
  // slip (|v| = 10 nu): gamma = tanh(75) = 1 to round-off, h = v / |v|
  const Vec3 v_slip(0.01, 0.0, 0.0);
  EXPECT_NEAR(smooth_friction_direction(v_slip, nu).h.x(), 1.0, 1e-15);
  // eq. 23: gamma = 2 / (1 + e^{-K2 |v|}) - 1 at |v| = nu / 10
  const Vec3 v(3e-5, 4e-5, 0.0);  // |v| = 5e-5
  const double gamma = 2.0 / (1.0 + std::exp(-15.0 / nu * 5e-5)) - 1.0;
  EXPECT_NEAR(smooth_friction_direction(v, nu).h.norm(), gamma, 1e-15);
  EXPECT_EQ(smooth_friction_direction(Vec3::Zero(), nu).h.norm(), 0.0);
}

TEST(SmoothFriction, JacobianMatchesFiniteDifferencesInStickSlipAndTransition) {
  const double nu = 1e-3;
  const Vec3 dir = Vec3(0.3, -0.8, 0.5).normalized();
  // stick (far below nu and inside the series branch), transition, slip
  for (double speed : {1e-9, 1e-7, 2e-5, 1e-4, 5e-4, 1e-3, 5e-3}) {
    const Vec3 v = speed * dir + Vec3(0.1, 0.2, -0.1) * speed;
    const FrictionDirection f = smooth_friction_direction(v, nu);
    const double h = 1e-4 * speed + 1e-12;
    Mat3 fd;
    for (int i = 0; i < 3; ++i) {
      Vec3 p = v, m = v;
      p[i] += h;
      m[i] -= h;
      fd.col(i) =
          (smooth_friction_direction(p, nu).h - smooth_friction_direction(m, nu).h) / (2 * h);
    }
    EXPECT_LE((f.dh_dv - fd).norm(), 1e-6 * f.dh_dv.norm()) << "speed " << speed << "\n"
                                                            << f.dh_dv << "\n"
                                                            << fd;
  }
}

}  // namespace
}  // namespace tendril::contact
