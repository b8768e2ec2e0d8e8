#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/geometry/dihedral_angle.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

using std::numbers::pi;

std::array<Vec3, 4> random_hinge(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-0.3, 0.3);
  std::array<Vec3, 4> x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.4, 0.9, 0.2), Vec3(0.6, -0.8, 0.3)};
  for (Vec3& p : x) p += Vec3(unit(rng), unit(rng), unit(rng));
  return x;
}

VecN<12> flatten(const std::array<Vec3, 4>& x) {
  VecN<12> q;
  for (int k = 0; k < 4; ++k) q.segment<3>(3 * k) = x[static_cast<std::size_t>(k)];
  return q;
}

std::array<Vec3, 4> unflatten(const VecN<12>& q) {
  return {q.segment<3>(0), q.segment<3>(3), q.segment<3>(6), q.segment<3>(9)};
}

TEST(DihedralAngle, HandComputedValues) {
  // flat hinge: zero; triangle B folded up by 90 degrees about the x axis: (n_A x n_B) . e_hat = -1
  // -> -pi/2
  const Vec3 x0(0, 0, 0), x1(1, 0, 0), x2(0.5, 1, 0);
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, Vec3(0.5, -1, 0)), 0.0, 1e-15);
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, Vec3(0.5, 0, 1)), -pi / 2, 1e-15);
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, Vec3(0.5, 0, -1)), pi / 2, 1e-15);
  // folded by 150 degrees: |phi| = 150 degrees
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, Vec3(0.5, std::cos(pi / 6), -std::sin(pi / 6))),
              5 * pi / 6, 1e-14);
}

/// Random hinges, then hinges the random ones do not reach: obtuse triangles whose opposite nodes
/// project beyond the edge's ends (alpha_A < 0, alpha_B > 1 in the closed form) and a hinge folded
/// by 170 degrees.
std::vector<std::array<Vec3, 4>> derivative_cases() {
  std::vector<std::array<Vec3, 4>> cases;
  for (unsigned seed = 1; seed <= 5; ++seed) cases.push_back(random_hinge(seed));
  cases.push_back({Vec3(0, 0, 0), Vec3(1, 0.1, 0), Vec3(-0.7, 0.4, 0.1), Vec3(1.8, -0.3, 0.2)});
  const double fold = 170.0 * pi / 180.0;
  cases.push_back({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.3, 1, 0.05),
                   Vec3(0.6, std::cos(fold), -std::sin(fold))});
  return cases;
}

TEST(DihedralAngle, ExactDerivativesMatchFiniteDifferences) {
  for (const std::array<Vec3, 4>& hinge : derivative_cases()) {
    const VecN<12> q = flatten(hinge);
    VecN<12> g;
    MatN<12> h;
    const auto x = unflatten(q);
    dihedral_angle_derivatives(x[0], x[1], x[2], x[3], &g, &h);
    const double step = 1e-6;
    VecN<12> g_fd;
    MatN<12> h_fd;
    for (int i = 0; i < 12; ++i) {
      VecN<12> plus = q, minus = q;
      plus[i] += step;
      minus[i] -= step;
      const auto p = unflatten(plus), m = unflatten(minus);
      VecN<12> gp, gm;
      g_fd[i] = (dihedral_angle_derivatives(p[0], p[1], p[2], p[3], &gp, nullptr) -
                 dihedral_angle_derivatives(m[0], m[1], m[2], m[3], &gm, nullptr)) /
                (2 * step);
      h_fd.col(i) = (gp - gm) / (2 * step);
    }
    EXPECT_LE((g - g_fd).norm(), 1e-7 * g.norm())
        << "phi " << dihedral_angle(x[0], x[1], x[2], x[3]);
    EXPECT_LE((h - h_fd).norm(), 1e-6 * h.norm())
        << "phi " << dihedral_angle(x[0], x[1], x[2], x[3]);
    EXPECT_LE((h - h.transpose()).norm(), 1e-13 * h.norm());
  }
}

TEST(TriangleNormal, JacobianMatchesFiniteDifferences) {
  const Vec3 x0(0.1, 0.2, -0.3), x1(1.2, 0.1, 0.2), x2(0.3, 0.9, 0.4);
  const Mat39 j = triangle_normal_jacobian(x0, x1, x2);
  VecN<9> q;
  q.segment<3>(0) = x0;
  q.segment<3>(3) = x1;
  q.segment<3>(6) = x2;
  const double step = 1e-6;
  for (int i = 0; i < 9; ++i) {
    VecN<9> p = q, m = q;
    p[i] += step;
    m[i] -= step;
    const Vec3 dn = (triangle_normal(p.segment<3>(0), p.segment<3>(3), p.segment<3>(6)) -
                     triangle_normal(m.segment<3>(0), m.segment<3>(3), m.segment<3>(6))) /
                    (2 * step);
    EXPECT_LE((j.col(i) - dn).norm(), 1e-8);
  }
}

}  // namespace
}  // namespace tendril
