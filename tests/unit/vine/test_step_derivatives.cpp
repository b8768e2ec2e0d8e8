// Derivative of the step map (q_k, v_k; K, C, u, rest angles, contact radius, the inflated-beam
// law's M_c and theta_w) -> (q_{k+1}, v_{k+1}) by implicit differentiation of the KKT system,
// against central differences of whole steps, in contact.
#include <gtest/gtest.h>

#include "support/pressing_vine.hpp"
#include "support/vine_paper_scenes.hpp"
#include "tendril/core/error.hpp"
#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/step_derivatives.hpp"

namespace tendril::vine {
namespace {

struct Next {
  VecX q, v;
};

Next step_from(const VineModel& m, const VecX& q, const VecX& v, const VecX& rates) {
  VineStepper stepper(m);
  VineState s;
  s.q = q;
  s.v = v;
  EXPECT_EQ(stepper.step(s, rates).status, QpStatus::solved);
  return {s.q, s.v};
}

/// Compares an analytic Jacobian column block with central differences of `perturbed(i, h)`.
template <class F>
void expect_matches_fd(const MatX& dq, const MatX& dv, int columns, double h, F perturbed,
                       const char* what) {
  for (int i = 0; i < columns; ++i) {
    const Next p = perturbed(i, h), mi = perturbed(i, -h);
    const VecX fd_q = (p.q - mi.q) / (2 * h), fd_v = (p.v - mi.v) / (2 * h);
    const double scale_v = std::max(1.0, dv.col(i).lpNorm<Eigen::Infinity>());
    const double scale_q = std::max(1.0, dq.col(i).lpNorm<Eigen::Infinity>());
    EXPECT_LT((fd_v - dv.col(i)).lpNorm<Eigen::Infinity>(), 2e-5 * scale_v)
        << what << " column " << i;
    EXPECT_LT((fd_q - dq.col(i)).lpNorm<Eigen::Infinity>(), 2e-5 * scale_q)
        << what << " column " << i;
  }
}

/// The d/dq_k and d/dv_k blocks against central differences of whole steps.
void expect_state_derivatives_match_fd(const StepDerivatives& d, const VineModel& m, const VecX& q,
                                       const VecX& v, const VecX& rates) {
  expect_matches_fd(
      d.dq_dq, d.dv_dq, m.num_dofs(), 1e-7,
      [&](int i, double h) {
        VecX qp = q;
        qp(i) += h;
        return step_from(m, qp, v, rates);
      },
      "d/dq");
  expect_matches_fd(
      d.dq_dv, d.dv_dv, m.num_dofs(), 1e-6,
      [&](int i, double h) {
        VecX vp = v;
        vp(i) += h;
        return step_from(m, q, vp, rates);
      },
      "d/dv");
}

/// A per-pin parameter's block (`member` of the model: K_j, C_j or theta_bar_j) against central
/// differences of whole steps.
void expect_pin_parameter_matches_fd(const MatX& dq, const MatX& dv, const VineModel& m,
                                     const VecX& q, const VecX& v, const VecX& rates,
                                     std::vector<double> VineModel::*member, double h,
                                     const char* what) {
  expect_matches_fd(
      dq, dv, m.num_pins(), h,
      [&](int j, double step) {
        VineModel mp = m;
        (mp.*member)[j] += step;
        return step_from(mp, q, v, rates);
      },
      what);
}

TEST(StepDerivatives, MatchFiniteDifferencesInContact) {
  for (const auto& [mu, springs] : {std::pair{0.0, SpringIntegration::explicit_forces},
                                    std::pair{0.4, SpringIntegration::explicit_forces},
                                    std::pair{0.0, SpringIntegration::implicit}}) {
    VineModel m = testing::runtime_scene_model(8);
    m.springs = springs;
    m.obstacles = {make_circle(Vec2(0.14, 0.02), 0.02),
                   make_half_plane(Vec2(0.0, -0.3), Vec2(0.0, 1.0))};
    m.friction = mu;
    m.stiffness = {0.5, 0.4, 0.3, 0.2};
    m.damping = {1e-3, 2e-3, 3e-3, 4e-3};
    m.gravity = Vec2(0.0, -9.81);
    VineStepper stepper(m);
    VineState s = straight_state(m, 0.0);
    // grow into the circle until the tip presses on it
    int k = 0;
    for (; k < 200; ++k) {
      const VineStepReport rep = stepper.step(s);
      ASSERT_EQ(rep.status, QpStatus::solved);
      if (rep.active_contacts > 0 && k > 30) break;
    }
    ASSERT_LT(k, 200) << "no contact reached";
    const VecX q = s.q, v = s.v, rates = stepper.joint_growth_rates(s.time);
    ASSERT_EQ(stepper.step(s, rates).status, QpStatus::solved);
    const StepDerivatives d = step_derivatives(stepper);
    ASSERT_TRUE(d.ok);
    EXPECT_GT(d.active_inequalities, 0);
    expect_state_derivatives_match_fd(d, m, q, v, rates);
    expect_pin_parameter_matches_fd(d.dq_dK, d.dv_dK, m, q, v, rates, &VineModel::stiffness, 1e-5,
                                    "d/dK");
    expect_pin_parameter_matches_fd(d.dq_dC, d.dv_dC, m, q, v, rates, &VineModel::damping, 1e-6,
                                    "d/dC");
    expect_matches_fd(
        d.dq_du, d.dv_du, m.num_prismatic(), 1e-6,
        [&](int j, double h) {
          VecX up = rates;
          up(j) += h;
          return step_from(m, q, v, up);
        },
        "d/du");
    expect_pin_parameter_matches_fd(d.dq_drest, d.dv_drest, m, q, v, rates, &VineModel::rest_angle,
                                    1e-6, "d/drest");
    EXPECT_GT(d.dv_dradius.norm(), 1e-3);  // an active contact row moves with r_c
    expect_matches_fd(
        d.dq_dradius, d.dv_dradius, 1, 1e-8,
        [&](int, double h) {
          VineModel mp = m;
          mp.contact_radius += h;
          return step_from(mp, q, v, rates);
        },
        "d/dradius");
  }
}

// The inflated-beam law's tangent dM/dtheta enters d/dq: joints bent past wrinkling (rest angles
// far from the straight state), under gravity; with implicit springs its second derivative too
// (P holds the tangent at q_k). The law's parameters M_c, theta_w and the rest angles likewise.
TEST(StepDerivatives, MatchFiniteDifferencesWithInflatedBeamJoints) {
  for (const SpringIntegration springs :
       {SpringIntegration::explicit_forces, SpringIntegration::implicit}) {
    VineModel m = testing::runtime_scene_model(8);
    m.bending_law = BendingLaw::inflated_beam;
    m.inflated_beam = {2000.0, 0.012, 0.02, 0.02};  // p, r, eps_w, l: wrinkles beyond 0.033 rad
    m.stiffness.assign(m.num_pins(), 0.0);
    m.damping = {1e-3, 2e-3, 3e-3, 4e-3};
    m.rest_angle = {0.3, 0.5, -0.6, 0.7};
    m.gravity = Vec2(0.0, -9.81);
    m.springs = springs;
    m.validate();
    VineStepper stepper(m);
    VineState s = straight_state(m, 0.0);
    for (int k = 0; k < 5; ++k) ASSERT_EQ(stepper.step(s).status, QpStatus::solved);
    const VecX q = s.q, v = s.v, rates = stepper.joint_growth_rates(s.time);
    ASSERT_EQ(stepper.step(s, rates).status, QpStatus::solved);
    const StepDerivatives d = step_derivatives(stepper);
    ASSERT_TRUE(d.ok);
    const double angle_w = m.inflated_beam.wrinkling_angle();
    for (int j = 0; j < m.num_pins(); ++j)
      EXPECT_GT(std::abs(pin_angle_deviation(m, q, j)), angle_w);  // every joint wrinkled
    expect_state_derivatives_match_fd(d, m, q, v, rates);
    const double law[2] = {m.inflated_beam.collapse_moment(), angle_w};
    expect_matches_fd(
        d.dq_dlaw, d.dv_dlaw, 2, 1e-7,
        [&](int p, double h) {
          VineModel mp = m;
          if (p == 0)
            mp.inflated_beam.set_collapse_moment(law[0] * (1.0 + h));
          else
            mp.inflated_beam.set_wrinkling_angle(law[1] * (1.0 + h));
          Next next = step_from(mp, q, v, rates);
          next.q /= law[p];  // a relative step h: the difference is law[p] times d/dlaw
          next.v /= law[p];
          return next;
        },
        "d/d(M_c, theta_w)");
    EXPECT_GT(d.dv_dlaw.col(1).norm(), 1e-3);
    expect_pin_parameter_matches_fd(d.dq_drest, d.dv_drest, m, q, v, rates, &VineModel::rest_angle,
                                    1e-6, "d/drest");
  }
}

}  // namespace
}  // namespace tendril::vine

namespace tendril::vine {
namespace {

// A contact point pressing on an obstacle, held by an equality row instead (set_bilateral_contacts,
// used by the joint estimation): while the unilateral impulse is positive the QP of eq. 15 has the
// same solution with the row as an equality (the KKT conditions are the same), so the step and the
// impulse must agree; and the impulse's derivative in q, v, K, C must match central differences.
TEST(StepDerivatives,
     BilateralContactRepeatsAPushingStepAndItsImpulseDerivativeMatchesDifferences) {
  const VineModel m = testing::runtime_scene_before_a_circle();
  VineStepper stepper(m);
  VineState s = straight_state(m, 0.0);
  const int pressing = testing::grow_until_pressing(stepper, s);
  ASSERT_GE(pressing, 0) << "no contact reached";
  const VecX q = s.q, v = s.v, rates = stepper.joint_growth_rates(s.time);
  VineState unilateral = s;
  ASSERT_TRUE(stepper.step(unilateral, rates).ok());
  double pushing = 0.0;
  for (const ContactInfo& c : stepper.contacts())
    if (c.point == pressing) pushing = c.normal_impulse;

  ASSERT_GT(pushing, 0.0);
  VineStepper held(m);
  held.set_bilateral_contacts({{pressing, 0}});
  const auto impulse_after = [&](const VineModel& model, const VecX& qk, const VecX& vk) {
    VineStepper h(model);
    h.set_bilateral_contacts({{pressing, 0}});
    VineState st{0.0, qk, vk};
    EXPECT_TRUE(h.step(st, rates).ok());
    return h.bilateral_impulses()(0);
  };
  VineState bilateral = s;
  ASSERT_TRUE(held.step(bilateral, rates).ok());
  EXPECT_LT((bilateral.v - unilateral.v).lpNorm<Eigen::Infinity>(),
            1e-8 * std::max(1.0, unilateral.v.lpNorm<Eigen::Infinity>()));
  EXPECT_NEAR(held.bilateral_impulses()(0), pushing, 1e-6 * pushing);
  // no inequality row for the held pair
  for (const ContactInfo& c : held.contacts()) EXPECT_FALSE(c.point == pressing && c.obstacle == 0);

  const StepDerivatives d = step_derivatives(held);
  ASSERT_TRUE(d.ok);
  const int n = m.num_dofs();
  const double scale = std::max(std::abs(pushing), d.dheld_dq.lpNorm<Eigen::Infinity>());
  for (int i = 0; i < n; ++i) {
    VecX qp = q, qm = q, vp = v, vm = v;
    qp(i) += 1e-7;
    qm(i) -= 1e-7;
    vp(i) += 1e-6;
    vm(i) -= 1e-6;
    EXPECT_NEAR((impulse_after(m, qp, v) - impulse_after(m, qm, v)) / 2e-7, d.dheld_dq(0, i),
                2e-5 * scale)
        << "q " << i;
    EXPECT_NEAR((impulse_after(m, q, vp) - impulse_after(m, q, vm)) / 2e-6, d.dheld_dv(0, i),
                2e-5 * std::max(scale, d.dheld_dv.lpNorm<Eigen::Infinity>()))
        << "v " << i;
  }
  for (int j = 0; j < m.num_pins(); ++j) {
    VineModel kp = m, km = m, cp = m, cm = m;
    kp.stiffness[j] += 1e-5;
    km.stiffness[j] -= 1e-5;
    cp.damping[j] += 1e-6;
    cm.damping[j] -= 1e-6;
    EXPECT_NEAR((impulse_after(kp, q, v) - impulse_after(km, q, v)) / 2e-5, d.dheld_dK(0, j),
                2e-5 * std::max(1e-3, d.dheld_dK.lpNorm<Eigen::Infinity>()))
        << "K " << j;
    EXPECT_NEAR((impulse_after(cp, q, v) - impulse_after(cm, q, v)) / 2e-6, d.dheld_dC(0, j),
                2e-5 * std::max(1e-3, d.dheld_dC.lpNorm<Eigen::Infinity>()))
        << "C " << j;
  }
  // bad input names the key and the allowed range
  EXPECT_THROW(held.set_bilateral_contacts({{99, 0}}), InputError);
  EXPECT_THROW(held.set_bilateral_contacts({{pressing, 3}}), InputError);
}

}  // namespace
}  // namespace tendril::vine
