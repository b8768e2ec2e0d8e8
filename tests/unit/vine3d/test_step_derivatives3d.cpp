// Step derivatives of the 3D vine (src/tendril/vine3d/step_derivatives3d.hpp) against central
// differences of whole steps: the step re-solved (a new stepper, the same model) from a start moved
// along each state tangent, and with K_j, C_j, u_j moved, by the fourth-order stencil at step 1e-5;
// the outputs compared in the same tangent coordinates (positions and velocities by difference,
// orientations by log(r_+ r_-^-1)). The stencil's error is the re-solved steps' round-off over the
// step (about 1e-8 of a column's largest entry: 1.5e-7 at step 1e-6, 1.5e-9 at 1e-4 where the
// contact case's active set changes). Cases: a growing vine bending out of its plane under
// gravity, and the same vine pressed onto a cylinder with friction (active contact rows, the
// closest point's offset moving with the body).
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/vine3d_swinging.hpp"

#include "tendril/vine3d/step_derivatives3d.hpp"

namespace tendril::vine3d {
namespace {

/// A state after `steps` steps of `model`, with its velocities.
Vine3dState warmed_up(const Vine3dModel& model, int steps) {
  Vine3dStepper stepper(model);
  Vine3dState s = straight_state(model, 0.001);
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(stepper.step(s).ok());
  return s;
}

/// The tangent difference (12 per body) of two states near each other.
VecX difference(const Vine3dState& a, const Vine3dState& b) {
  const int nb = static_cast<int>(a.position.size());
  VecX d(12 * nb);
  for (int i = 0; i < nb; ++i) {
    d.segment<3>(12 * i) = a.position[i] - b.position[i];
    d.segment<3>(12 * i + 3) = rotation_log(a.orientation[i] * b.orientation[i].conjugate());
    d.segment<6>(12 * i + 6) = a.velocity.segment<6>(6 * i) - b.velocity.segment<6>(6 * i);
  }
  return d;
}

Vine3dState stepped(const Vine3dModel& model, Vine3dState s, const VecX& rates) {
  Vine3dStepper stepper(model);
  EXPECT_TRUE(stepper.step(s, rates).ok());
  return s;
}

/// Compares every column of the derivatives with central differences; returns the largest error
/// relative to the largest entry of its column.
double check_columns(const Vine3dModel& model, const Vine3dState& start, int* active = nullptr) {
  Vine3dStepper stepper(model);
  Vine3dState s = start;
  const VecX rates = stepper.joint_growth_rates(start.time);
  EXPECT_TRUE(stepper.step(s, rates).ok());
  const Vine3dStepDerivatives d = step_derivatives(stepper);
  EXPECT_TRUE(d.ok);
  if (active) *active = d.active_inequalities;
  const int nb = model.num_bodies, nk = model.num_bending(), np = model.num_prismatic();
  double worst = 0.0;
  // the fourth-order stencil (8 (f(h) - f(-h)) - (f(2h) - f(-2h))) / (12 h): truncation ~h^4,
  // round-off of the re-solved steps ~1e-16 / h
  const double eps = 1e-5;
  for (int col = 0; col < 12 * nb + 2 * nk + np; ++col) {
    Vine3dState sides[4];
    double h = eps;
    for (int side = 0; side < 4; ++side) {
      const double sign = (side % 2 == 0 ? 1.0 : -1.0) * (side < 2 ? 1.0 : 2.0);
      Vine3dModel m = model;
      Vine3dState x = start;
      VecX u = rates;
      if (col < 12 * nb) {
        const int body = col / 12, part = (col % 12) / 3, axis = col % 3;
        const Vec3 delta = sign * eps * Vec3::Unit(axis);
        if (part == 0) x.position[body] += delta;
        if (part == 1) x.orientation[body] = rotation_exp(delta) * x.orientation[body];
        if (part >= 2) x.velocity(6 * body + 3 * (part - 2) + axis) += sign * eps;
      } else if (col < 12 * nb + nk) {
        if (model.bending_law != BendingLaw::linear) break;  // the law sets the moment: no K
        h = eps * m.stiffness[col - 12 * nb];
        m.stiffness[col - 12 * nb] += sign * h;
      } else if (col < 12 * nb + 2 * nk) {
        h = eps * m.damping[col - 12 * nb - nk];
        m.damping[col - 12 * nb - nk] += sign * h;
      } else {
        h = eps * 0.05;
        u(col - 12 * nb - 2 * nk) += sign * h;
      }
      sides[side] = stepped(m, x, u);
    }
    if (sides[3].position.empty()) continue;
    const VecX fd =
        (8.0 * difference(sides[0], sides[1]) - difference(sides[2], sides[3])) / (12.0 * h);
    VecX analytic;
    if (col < 12 * nb)
      analytic = d.dx_dx.col(col);
    else if (col < 12 * nb + nk)
      analytic = d.dx_dK.col(col - 12 * nb);
    else if (col < 12 * nb + 2 * nk)
      analytic = d.dx_dC.col(col - 12 * nb - nk);
    else
      analytic = d.dx_du.col(col - 12 * nb - 2 * nk);
    const double scale = std::max(fd.cwiseAbs().maxCoeff(), 1e-12);
    const double error = (fd - analytic).cwiseAbs().maxCoeff() / scale;
    EXPECT_LT(error, 1e-6) << "column " << col;
    worst = std::max(worst, error);
  }
  return worst;
}

TEST(Vine3dStepDerivatives, MatchCentralDifferencesOfTheStep) {
  const Vine3dModel m = testing::swinging_vine3d(0.02, 1e-4);
  const double worst = check_columns(m, warmed_up(m, 40));
  std::printf("largest relative error of a column: %.3g\n", worst);
}

TEST(Vine3dStepDerivatives, MatchCentralDifferencesWithEversion) {
  // the tip body's mass grows with the prismatic joints' extension and the growth rates
  Vine3dModel m = testing::swinging_vine3d(0.02, 1e-4);
  m.everted_density = 0.02;
  const double worst = check_columns(m, warmed_up(m, 40));
  std::printf("largest relative error of a column: %.3g\n", worst);
}

TEST(Vine3dStepDerivatives, MatchCentralDifferencesWithTheInflatedBeamLaw) {
  // explicit springs of the wrinkling tube's moment law, joints past the wrinkling angle 0.04 rad
  Vine3dModel m = testing::swinging_vine3d(0.0, 1e-4);
  m.springs = SpringIntegration::explicit_forces;
  m.bending_law = BendingLaw::inflated_beam;
  m.inflated_beam = {500.0, 0.01, 0.01, 0.04};  // p [Pa], r [m], eps_w, l [m]
  const double worst = check_columns(m, warmed_up(m, 40));
  std::printf("largest relative error of a column: %.3g\n", worst);
}

TEST(Vine3dStepDerivatives, MatchCentralDifferencesWithActiveContactAndFriction) {
  Vine3dModel m = testing::swinging_vine3d(0.02, 1e-4);
  m.friction = 0.3;
  m.gravity = Vec3(0.0, 0.0, -9.81);
  // a cylinder across the vine under its middle, touching the straight vine's capsules
  m.obstacles = {make_cylinder(Vec3(0.1, 0.0, -0.01 - 0.02), Vec3::UnitY(), 0.02, 0.1)};
  const Vine3dState start = warmed_up(m, 60);
  int active = 0;
  const double worst = check_columns(m, start, &active);
  std::printf("%d active contact rows; largest relative error of a column: %.3g\n", active, worst);
  EXPECT_GT(active, 0);
}

}  // namespace
}  // namespace tendril::vine3d
