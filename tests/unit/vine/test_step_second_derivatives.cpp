// Second derivatives of the step map contracted with a weight (vine/step_second_derivatives.hpp;
// derivation in docs/physics/vine.md#second-derivatives, from the KKT conditions of eq. 15):
// against central differences of the contracted first derivatives (vine/step_derivatives.hpp) on
// random states of the six-body swinging vine (growth rows) and of the runtime scene pressing on a
// circle (active contact rows, with friction, implicit springs, and a held contact).
#include <random>

#include <gtest/gtest.h>

#include "support/pressing_vine.hpp"
#include "support/swinging_vine_model.hpp"
#include "tendril/vine/step_derivatives.hpp"
#include "tendril/vine/step_second_derivatives.hpp"

namespace tendril::vine {
namespace {

/// One step from (q, v) at the growth rates `rates` with the held contacts `held`.
struct StepAt {
  VineModel model;
  std::vector<BilateralContact> held;
  VecX rates;

  /// d s / dtheta, s = w_q . q_{k+1} + w_v . v_{k+1} + w_h . held impulses, theta = (q, v, K, C).
  VecX gradient(const VecX& q, const VecX& v, const VineModel& m, const VecX& w_q, const VecX& w_v,
                const VecX& w_h) const {
    VineStepper stepper(m);
    if (!held.empty()) stepper.set_bilateral_contacts(held);
    VineState s{0.0, q, v};
    EXPECT_TRUE(stepper.step(s, rates).ok());
    const StepDerivatives d = step_derivatives(stepper);
    EXPECT_TRUE(d.ok);
    const int n = m.num_dofs(), pins = m.num_pins();
    VecX g(2 * n + 2 * pins);
    g << d.dq_dq.transpose() * w_q + d.dv_dq.transpose() * w_v,
        d.dq_dv.transpose() * w_q + d.dv_dv.transpose() * w_v,
        d.dq_dK.transpose() * w_q + d.dv_dK.transpose() * w_v,
        d.dq_dC.transpose() * w_q + d.dv_dC.transpose() * w_v;
    if (w_h.size() > 0) {
      g.head(n) += d.dheld_dq.transpose() * w_h;
      g.segment(n, n) += d.dheld_dv.transpose() * w_h;
      g.segment(2 * n, pins) += d.dheld_dK.transpose() * w_h;
      g.tail(pins) += d.dheld_dC.transpose() * w_h;
    }
    return g;
  }

  /// The analytic Hessian against central differences (step h_i = h |theta_i| or h) of the
  /// gradient; returns the worst column error relative to max(|column|_inf, 1e-3 |H|_max).
  double check(const VecX& q, const VecX& v, const VecX& w_q, const VecX& w_v, const VecX& w_h,
               int expect_active) const {
    VineStepper stepper(model);
    if (!held.empty()) stepper.set_bilateral_contacts(held);
    VineState s{0.0, q, v};
    EXPECT_TRUE(stepper.step(s, rates).ok());
    const StepSecondDerivatives d2 = step_second_derivatives(stepper, w_q, w_v, w_h);
    EXPECT_TRUE(d2.ok);
    if (expect_active > 0) {
      EXPECT_GE(step_derivatives(stepper).active_inequalities, expect_active);
    }
    const MatX& h = d2.hessian;
    const int n = model.num_dofs(), pins = model.num_pins();
    EXPECT_EQ(h.rows(), 2 * n + 2 * pins);
    EXPECT_LT((h - h.transpose()).lpNorm<Eigen::Infinity>(), 1e-10 * h.lpNorm<Eigen::Infinity>())
        << "symmetric";
    double worst = 0.0;
    for (int col = 0; col < h.cols(); ++col) {
      VecX qp = q, qm = q, vp = v, vm = v;
      VineModel mp = model, mm = model;
      double step = 0.0;
      if (col < n) {
        step = 1e-6;
        qp(col) += step;
        qm(col) -= step;
      } else if (col < 2 * n) {
        step = 1e-6;
        vp(col - n) += step;
        vm(col - n) -= step;
      } else if (col < 2 * n + pins) {
        const int j = col - 2 * n;
        step = 1e-4 * model.stiffness[j];
        mp.stiffness[j] += step;
        mm.stiffness[j] -= step;
      } else {
        const int j = col - 2 * n - pins;
        step = 1e-4 * model.damping[j];
        mp.damping[j] += step;
        mm.damping[j] -= step;
      }
      const VecX fd =
          (gradient(qp, vp, mp, w_q, w_v, w_h) - gradient(qm, vm, mm, w_q, w_v, w_h)) / (2 * step);
      const double scale =
          std::max(h.col(col).lpNorm<Eigen::Infinity>(), 1e-3 * h.lpNorm<Eigen::Infinity>());
      worst = std::max(worst, (fd - h.col(col)).lpNorm<Eigen::Infinity>() / scale);
    }
    return worst;
  }
};

VecX random_vector(int size, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x(size);
  for (int i = 0; i < size; ++i) x(i) = u(rng);
  return x;
}

TEST(StepSecondDerivatives, MatchCentralDifferencesOfTheFirstOnRandomStatesOfTheSwingingVine) {
  VineModel m = testing::swinging_vine();
  m.stiffness = {0.05, 0.04, 0.06};  // distinct per pin
  m.damping = {5e-4, 1e-3, 2e-4};
  ASSERT_EQ(m.num_pins(), 3);
  std::mt19937 rng(7);
  VineStepper sim(m);
  VineState s = testing::swinging_start(m);
  for (int trial = 0; trial < 3; ++trial) {
    for (int k = 0; k < 5; ++k) ASSERT_TRUE(sim.step(s).ok());
    const int n = m.num_dofs();
    // a random state near the trajectory (joints violated by up to 1e-4 m, velocities off by 0.05)
    const VecX q = s.q + 1e-4 * random_vector(n, rng), v = s.v + 5e-2 * random_vector(n, rng);
    const StepAt at{m, {}, sim.joint_growth_rates(s.time)};
    const double error = at.check(q, v, random_vector(n, rng), random_vector(n, rng), {}, 0);
    std::printf("swinging vine, trial %d: worst relative column error %.2e\n", trial, error);
    EXPECT_LT(error, 1e-5);
  }
}

TEST(StepSecondDerivatives, MatchCentralDifferencesOfTheFirstInContact) {
  std::mt19937 rng(3);
  for (const auto& [mu, springs, hold] :
       {std::tuple{0.0, SpringIntegration::explicit_forces, false},
        std::tuple{0.4, SpringIntegration::explicit_forces, false},
        std::tuple{0.0, SpringIntegration::implicit, false},
        std::tuple{0.0, SpringIntegration::explicit_forces, true}}) {
    VineModel m = testing::runtime_scene_before_a_circle();
    m.springs = springs;
    m.friction = mu;
    m.gravity = Vec2(0.0, -9.81);
    VineStepper stepper(m);
    VineState s = straight_state(m, 0.0);
    const int pressing = testing::grow_until_pressing(stepper, s);
    ASSERT_GE(pressing, 0) << "no contact reached";
    const int n = m.num_dofs();
    StepAt at{m, {}, stepper.joint_growth_rates(s.time)};
    VecX w_h;
    if (hold) {
      at.held = {{pressing, 0}};
      w_h = VecX::Constant(1, random_vector(1, rng)(0) / stepper.mass_scale());
    }
    // a small random perturbation keeps the contact pressing (its row active)
    const VecX q = s.q + 1e-7 * random_vector(n, rng), v = s.v + 1e-4 * random_vector(n, rng);
    const double error =
        at.check(q, v, random_vector(n, rng), random_vector(n, rng), w_h, hold ? 0 : 1);
    std::printf(
        "runtime scene on a circle, mu %.1f, %s springs%s: worst relative column error %.2e\n", mu,
        springs == SpringIntegration::implicit ? "implicit" : "explicit",
        hold ? ", held contact" : "", error);
    EXPECT_LT(error, 1e-5);
  }
}

}  // namespace
}  // namespace tendril::vine
