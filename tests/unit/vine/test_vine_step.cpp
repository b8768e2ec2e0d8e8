// Properties of the step QP (vine paper eq. 12-15): linearised constraints met to 1e-9, joint
// errors at the O(dt^2) linearisation level without drift, no penetration beyond that level,
// complementary non-negative contact impulses, the commanded growth rate, bad input.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "support/vine_paper_scenes.hpp"
#include "tendril/core/error.hpp"
#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

/// The paper's runtime scene (30 bodies): the tip meets the circle at once and slides around it.
VineModel contact_scene(double friction = 0.0) {
  VineModel m = testing::runtime_scene_model(30);
  m.friction = friction;
  return m;
}

/// Rigorous bound of the second-order remainder of c(q_k + dt v) - (c(q_k) + J dt v) per joint
/// (Taylor with |d^2 e / d theta^2| = 1): pin 1/2 dt^2 (d_a w_a^2 + d_b w_b^2), prismatic
/// dt^2 (1/2 w^2 |h| + |w| |hdot|) [m].
double joint_linearisation_bound(const VineModel& m, const VecX& q, const VecX& v) {
  double bound = 0.0;
  const double dt2 = m.dt * m.dt;
  for (int b = 0; b < m.num_bodies; ++b) {
    const double wb = v(3 * b + 2);
    if (b % 2 == 0) {
      const double wa = b > 0 ? v(3 * (b - 1) + 2) : 0.0;
      const double da = b > 0 ? m.half_length[b - 1] : 0.0;
      bound = std::max(bound, 0.5 * dt2 * (da * wa * wa + m.half_length[b] * wb * wb));
    } else {
      const double h = (q.segment<2>(3 * b) - q.segment<2>(3 * (b - 1))).norm();
      const double hdot = (v.segment<2>(3 * b) - v.segment<2>(3 * (b - 1))).norm();
      for (double w : {v(3 * (b - 1) + 2), wb})
        bound = std::max(bound, dt2 * (0.5 * w * w * h + std::abs(w) * hdot));
    }
  }
  return bound;
}

/// Sum of the prismatic joint lengths |h_j| [m].
double prismatic_length(const VineModel& m, const VecX& q) {
  double total = 0.0;
  for (int j = 0; j < m.num_prismatic(); ++j) {
    const int b = m.prismatic_body(j);
    total += (q.segment<2>(3 * b) - q.segment<2>(3 * (b - 1))).norm();
  }
  return total;
}

/// Runs 150 steps of the runtime scene with friction `mu` and checks every step.
void check_linearised_constraints(double mu) {
  {
    VineStepper stepper(contact_scene(mu));
    const VineModel& m = stepper.model();
    VineState s = straight_state(m, 0.0);
    int contact_steps = 0;
    double max_joint_error = 0.0;
    for (int k = 0; k < 150; ++k) {
      const VineStepReport rep = stepper.step(s);
      ASSERT_EQ(rep.status, QpStatus::solved) << "step " << k;
      const QpProblem& qp = stepper.last_problem();
      const VecX& v = s.v;
      // eq. 15 in the paper's units: c + J v dt = 0, G_bar v = u, Phi + L v dt >= 0
      const VecX eq = qp.A_eq * v - qp.b_eq;
      const int nj = 2 * m.num_bodies;
      EXPECT_LT((eq.head(nj) * m.dt).lpNorm<Eigen::Infinity>(), 1e-9);
      EXPECT_LT(eq.tail(m.num_prismatic()).lpNorm<Eigen::Infinity>(), 1e-9);
      const VecX gap = (qp.A_in * v - qp.b_in) * m.dt;  // Phi + L v dt per row
      if (gap.size() > 0) {
        EXPECT_GT(gap.minCoeff(), -1e-9);
      }
      const VecX& z = stepper.last_solution().z_in;
      for (int r = 0; r < gap.size(); ++r) {
        EXPECT_GE(z(r), -1e-12);
        if (gap(r) > 1e-7) {
          EXPECT_LT(z(r) * stepper.mass_scale(), 1e-12) << "impulse on a separated row";
        }
      }
      for (const ContactInfo& c : stepper.contacts()) {
        EXPECT_LE(std::abs(c.tangent_impulse), mu * c.normal_impulse + 1e-15);
      }
      if (rep.active_contacts > 0) ++contact_steps;
      // nonlinear joint error at q_{k+1}: the Taylor remainder of the linearisation, nothing more
      const VecX c_next = stepper.joint_errors_at(s.q);
      const double bound = joint_linearisation_bound(m, stepper.last_q(), s.v);
      EXPECT_LE(c_next.lpNorm<Eigen::Infinity>(), bound + 1e-10) << "step " << k;
      max_joint_error = std::max(max_joint_error, c_next.lpNorm<Eigen::Infinity>());
      // penetration: Phi is convex for these shapes, so only the rotation of the offset point,
      // 1/2 dt^2 s w^2, can take a contact point inside
      for (const ContactInfo& c : stepper.contacts()) {
        const int body = element_body(m, c.point);
        const double th = s.q(3 * body + 2);
        Vec2 n;
        const double phi_next =
            signed_distance<double>(
                m.obstacles[c.obstacle],
                Vec2(s.q.segment<2>(3 * body) + c.offset * Vec2(std::cos(th), std::sin(th))), n) -
            m.contact_radius;
        const double w = s.v(3 * body + 2);
        EXPECT_GE(phi_next, -0.5 * m.dt * m.dt * std::abs(c.offset) * w * w - 1e-10)
            << "step " << k;
      }
    }
    EXPECT_GT(contact_steps, 50) << "the tip should press on the circle";
    EXPECT_GT(max_joint_error, 0.0);
  }
}

TEST(VineStep, LinearisedConstraintsHoldAndImpulsesAreComplementary) {
  check_linearised_constraints(0.0);
}

// friction rows exist only in contact: at mu = 0.3 the tip's first frictional contact (20 deg off
// the normal, cone half-angle 16.7 deg) throws it off the circle under the hard growth constraint
// (17 contact steps of 150); at mu = 0.05 it keeps sliding on it (71)
TEST(VineStep, LinearisedConstraintsHoldWithFriction) {
  check_linearised_constraints(0.05);
}

TEST(VineStep, FrictionJamIsReportedNotStepped) {
  // the tip meets the circle 20 deg off its normal; with mu = 0.5 (cone half-angle 26.6 deg) it
  // cannot slide, and the hard growth constraint can be met only with enormous contact impulses.
  // The QP of the failing step (step 8) is feasible: dumped and checked with SciPy (2026-11-24),
  // HiGHS finds a point with every inequality slack = 1, P is positive definite (eigenvalues
  // 0.2..1), and cvxopt's QP stops with status 'unknown' at multipliers up to 1.2e7. Tendril's
  // interior-point method solves it (KKT residual 1.8e-12, multipliers 1.15e7; the GMRES rescue of
  // its KKT solves, docs/physics/qp_solver.md); the solution would set the vine flying, so the step
  // is refused as an energy blow-up (the run's message says it is a jam and names
  // vine.growth.control: force_limited), and the state must be unchanged.
  VineStepper stepper(contact_scene(0.5));
  VineState s = straight_state(stepper.model(), 0.0);
  VineStepReport report;
  for (int k = 0; k < 20; ++k) {
    const VineState before = s;
    report = stepper.step(s);
    if (report.status != QpStatus::solved || report.failure != VineFailure::none) {
      EXPECT_EQ(s.q, before.q);
      EXPECT_EQ(s.v, before.v);
      EXPECT_EQ(s.time, before.time);
      break;
    }
  }
  EXPECT_EQ(report.status, QpStatus::solved) << "KKT residual " << report.kkt_residual;
  EXPECT_EQ(report.failure, VineFailure::energy_blowup) << "a jammed step was not refused";
  EXPECT_GT(stepper.last_solution().z_in.maxCoeff(), 1e6);
}

TEST(VineStep, FrictionOpposesSliding) {
  // the tip slides along the circle; friction impulses oppose the tangential velocity
  VineStepper stepper(contact_scene(0.3));
  VineState s = straight_state(stepper.model(), 0.0);
  int sliding = 0;
  for (int k = 0; k < 150; ++k) {
    ASSERT_EQ(stepper.step(s).status, QpStatus::solved);
    for (const ContactInfo& c : stepper.contacts()) {
      if (c.normal_impulse <= 0.0 || std::abs(c.tangent_impulse) < 1e-9) continue;
      const ContactPoint cp{element_body(stepper.model(), c.point), c.offset};
      // velocity of the point through dp/dq at q_k, as in the contact rows
      const double th_k = stepper.last_q()(3 * cp.body + 2);
      const Vec2 vel = s.v.segment<2>(3 * cp.body) +
                       cp.offset * s.v(3 * cp.body + 2) * Vec2(-std::sin(th_k), std::cos(th_k));
      const Vec2 p = stepper.last_q().segment<2>(3 * cp.body) +
                     cp.offset * Vec2(std::cos(th_k), std::sin(th_k));
      Vec2 n;
      signed_distance<double>(stepper.model().obstacles[c.obstacle], p, n);
      const Vec2 t(-n.y(), n.x());
      EXPECT_LE(c.tangent_impulse * t.dot(vel), 1e-12);
      ++sliding;
    }
  }
  EXPECT_GT(sliding, 0);
}

/// Grows a 10-body vine released `swing` [rad] off its rest heading for 0.6 s at a piecewise
/// rate; returns |grown length - integral of u| / integral of u and the largest |g(q_{k+1},
/// v_{k+1}) - u_j|.
std::pair<double, double> growth_errors(GrowthMode mode, double lookahead, double swing, double dt,
                                        std::vector<double>* lengths = nullptr) {
  VineModel m = testing::runtime_scene_model(10);
  m.obstacles.clear();
  m.growth_mode = mode;
  m.growth_lookahead = lookahead;
  m.dt = dt;
  m.growth = GrowthSchedule::piecewise({0.0, 0.3}, {0.04, 0.01}, "growth");
  VineStepper stepper(m);
  const VineState s0 = straight_state(m, swing);
  VineState s = s0;
  double expected = 0.0, max_rate_error = 0.0;
  const int steps = static_cast<int>(std::lround(0.6 / dt));
  for (int k = 0; k < steps; ++k) {
    expected += m.growth.rate(s.time) * m.dt;
    const VecX rates = stepper.joint_growth_rates(s.time);
    EXPECT_EQ(stepper.step(s).status, QpStatus::solved);
    for (int j = 0; j < m.num_prismatic(); ++j) {
      const int b = m.prismatic_body(j);
      const Vec2 h = s.q.segment<2>(3 * b) - s.q.segment<2>(3 * (b - 1));
      const Vec2 hdot = s.v.segment<2>(3 * b) - s.v.segment<2>(3 * (b - 1));
      max_rate_error = std::max(max_rate_error, std::abs(h.normalized().dot(hdot) - rates(j)));
    }
  }
  EXPECT_NEAR(expected, 0.3 * 0.04 + 0.3 * 0.01, 1e-12);
  if (lengths) {
    for (int j = 0; j < m.num_prismatic(); ++j) {
      const int b = m.prismatic_body(j);
      lengths->push_back((s.q.segment<2>(3 * b) - s.q.segment<2>(3 * (b - 1))).norm() -
                         (s0.q.segment<2>(3 * b) - s0.q.segment<2>(3 * (b - 1))).norm());
    }
  }
  const double grown = prismatic_length(m, s.q) - prismatic_length(m, s0.q);
  return {std::abs(grown - expected) / expected, max_rate_error};
}

TEST(VineStep, CommandedGrowthRateIsAchieved) {
  for (GrowthMode mode : {GrowthMode::uniform, GrowthMode::tip})
    for (double lookahead : {1.0, 0.5}) {
      // at rest on its heading the vine grows exactly by the integral of u (eq. 6)
      std::vector<double> grown;
      const auto [length_error, rate_error] = growth_errors(mode, lookahead, 0.0, 0.01, &grown);
      EXPECT_LT(length_error, 1e-9);
      EXPECT_LT(rate_error, 1e-9);
      for (std::size_t j = 0; j < grown.size(); ++j) {
        const double expected = mode == GrowthMode::uniform ? 0.015 / grown.size()
                                                            : (j + 1 == grown.size() ? 0.015 : 0.0);
        EXPECT_NEAR(grown[j], expected, 1e-9) << "prismatic joint " << j;
      }
    }
  // swinging: the linearisation errors are O(dt) per unit time and shrink when dt is halved
  for (double lookahead : {1.0, 0.5}) {
    const auto coarse = growth_errors(GrowthMode::uniform, lookahead, 0.05, 0.01);
    const auto fine = growth_errors(GrowthMode::uniform, lookahead, 0.05, 0.005);
    const double coarse_error = lookahead == 1.0 ? coarse.second : coarse.first;
    const double fine_error = lookahead == 1.0 ? fine.second : fine.first;
    EXPECT_GT(coarse_error, 0.0);
    EXPECT_LT(fine_error, 0.6 * coarse_error) << "lookahead " << lookahead;
  }
}

TEST(VineStep, JointErrorDoesNotDriftOver1e5Steps) {
  // 4 bodies, undamped, spinning at the base, growing then not, under gravity: c(q) is
  // re-linearised every step (rhs -c(q_k) / dt), so its error is the one-step Taylor remainder
  // and does not accumulate
  UniformVineParameters p;
  p.bodies = 4;
  p.half_length = 0.02;
  p.stiffness = 0.05;
  p.damping = 0.0;
  p.inertia = 1e-5;
  p.dt = 0.005;
  VineModel m = uniform_vine(p);
  m.gravity = Vec2(0.0, -9.81);
  m.growth = GrowthSchedule::piecewise({0.0, 0.5}, {0.02, 0.0}, "growth");
  VineStepper stepper(m);
  VineState s = straight_state(m, 0.0);
  s.v(3 * 0 + 2) = 3.0;
  double early = 0.0, late = 0.0;
  const int steps = 100000;
  int over_bound = 0;
  for (int k = 0; k < steps; ++k) {
    const VineStepReport rep = stepper.step(s);
    ASSERT_EQ(rep.status, QpStatus::solved) << "step " << k;
    const double error = stepper.joint_errors_at(s.q).lpNorm<Eigen::Infinity>();
    if (error > joint_linearisation_bound(m, stepper.last_q(), s.v) + 1e-10) ++over_bound;
    if (k < 20000) early = std::max(early, error);
    if (k >= steps - 20000) late = std::max(late, error);
  }
  std::printf("max |c(q)| [m]: steps 0-2e4 %.3g, steps 8e4-1e5 %.3g\n", early, late);
  EXPECT_EQ(over_bound, 0);
  EXPECT_GT(early, 0.0);
  EXPECT_LT(late, 2.0 * early) << "early " << early << " late " << late;
}

TEST(VineStep, ImplicitSpringsAreStableBeyondTheExplicitLimit) {
  // stiff joints, light bodies: omega_max dt ~ 2 sqrt(K / I_pair) dt ~ 28 >> 2, so explicit
  // springs (the paper's) blow up while implicit ones (P = M + dt^2 R K R^T + dt R C R^T) decay
  UniformVineParameters p;
  p.bodies = 10;
  p.half_length = 0.01;
  p.inertia = 1e-6;
  p.stiffness = 1.0;
  p.damping = 0.0;
  p.dt = 0.01;
  for (SpringIntegration springs :
       {SpringIntegration::explicit_forces, SpringIntegration::implicit}) {
    VineModel m = uniform_vine(p);
    m.springs = springs;
    VineStepper stepper(m);
    VineState s = straight_state(m, 0.0);
    s.v(3 * 9 + 2) = 0.5;  // kick the tip body
    s.v(3 * 8 + 2) = 0.5;
    double max_energy = 0.0, first_energy = -1.0;
    VineFailure failure = VineFailure::none;
    for (int k = 0; k < 100; ++k) {
      const VineStepReport rep = stepper.step(s);
      failure = rep.failure;
      if (!rep.ok()) break;
      const double energy = spring_energy(m, s.q);
      if (first_energy < 0.0) first_energy = energy;
      max_energy = std::max(max_energy, energy);
    }
    if (springs == SpringIntegration::implicit) {
      EXPECT_EQ(failure, VineFailure::none);
      EXPECT_LE(max_energy, 1.0001 * first_energy + 1e-15);
      EXPECT_LT(spring_energy(m, s.q), 0.5 * first_energy);
    } else {
      // the blow-up is stopped and reported (joint drift beyond 1 mm or kinetic energy beyond
      // 1/2 (sum m) (10 m/s)^2), not stepped on
      EXPECT_NE(failure, VineFailure::none);
      EXPECT_GT(max_energy, 100.0 * first_energy);
    }
  }
}

TEST(VineStep, BadInputIsReported) {
  VineModel m = testing::runtime_scene_model(4);
  m.half_length[2] = -0.01;
  EXPECT_THROW(VineStepper{m}, InputError);
  m = testing::runtime_scene_model(4);
  m.mass[1] = std::nan("");
  try {
    VineStepper stepper(m);
    FAIL() << "NaN mass accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "vine.mass[1]");
  }
  m = testing::runtime_scene_model(4);
  m.contact_points.push_back({7, 0.0});
  EXPECT_THROW(VineStepper{m}, InputError);
  // a body inside an obstacle at the start
  m = testing::runtime_scene_model(4);
  m.obstacles = {make_circle(Vec2(0.03, 0.0), 0.01)};
  const VineState s = straight_state(m, 0.0);
  EXPECT_THROW(check_no_penetration(m, s.q, "vine.initial_state"), InputError);
  // wrong state size
  VineStepper stepper(testing::runtime_scene_model(4));
  VineState wrong;
  wrong.q.setZero(5);
  wrong.v.setZero(5);
  EXPECT_THROW(stepper.step(wrong), InputError);
  // a zero-length prismatic joint (bodies 0 and 1 with the same centre)
  VineState zero = straight_state(stepper.model(), 0.0);
  zero.q.segment<2>(3) = zero.q.segment<2>(0);
  EXPECT_THROW(check_prismatic_lengths(stepper.model(), zero.q, "vine.initial_state"), InputError);
  VineState nan_state = straight_state(stepper.model(), 0.0);
  nan_state.v(4) = std::nan("");
  EXPECT_THROW(stepper.step(nan_state), InputError);
}

}  // namespace
}  // namespace tendril::vine
