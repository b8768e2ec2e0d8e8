// TimeStepper: boundary-condition elimination, prescribed motion, failure reports that leave the
// State unchanged, and dt halving.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "springs.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/custom_force.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril {
namespace {

using testing::ElasticSpring;
using testing::ElasticSprings;

/// A chain of 5 masses joined by springs along x, node 0 fixed, under gravity.
struct Chain {
  Model model;
  State state;
  Chain() {
    VecX x(15);
    for (int i = 0; i < 5; ++i) x.segment<3>(3 * i) = Vec3(0.1 * i, 0.0, 0.0);
    model = testing::make_particles(x, 0.05);
    std::vector<ElasticSpring> springs;
    for (int i = 1; i < 5; ++i) springs.push_back({i, i - 1, 200.0, 0.1, Vec3::Zero()});
    model.energies.push_back(std::make_shared<ElasticSprings>(springs));
    model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
    for (int a = 0; a < 3; ++a) model.fixed[a] = 1;
    state = testing::make_state(model, x, VecX::Zero(15));
  }
};

void expect_same_state(const State& a, const State& b) {
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.u, b.u);
  EXPECT_EQ(a.frames.tangent.size(), b.frames.tangent.size());
}

TEST(TimeStepper, FixedDofsStayPutAndFreeOnesMove) {
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    Chain chain;
    chain.model.fixed[3 * 4 + 1] = 1;  // a roller: node 4 cannot move along y
    chain.state.q[3 * 4 + 1] = 0.02;
    DynamicsOptions options;
    options.scheme = scheme;
    options.dt = 1e-3;
    TimeStepper stepper(chain.model, options, chain.state.q);
    const VecX q0 = chain.state.q;
    for (int k = 0; k < 50; ++k) ASSERT_TRUE(stepper.step(chain.state).ok());
    EXPECT_EQ(chain.state.q.head<3>(), q0.head<3>());
    EXPECT_EQ(chain.state.q[13], 0.02);
    EXPECT_EQ(chain.state.u.head<3>().norm(), 0.0);
    EXPECT_LT(chain.state.q[14], -1e-4) << "the tip must fall under gravity";
    EXPECT_NEAR(chain.state.time, 0.05, 1e-15);
  }
}

TEST(TimeStepper, PrescribedMotionFollowsItsLaw) {
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    Chain chain;
    // the clamp moves: x_0(t) = x_0(0) + (0.1 sin(2 pi t), 0, 0.05 t)
    auto law = [](double t) {
      return Vec3(0.1 * std::sin(2.0 * std::numbers::pi * t), 0.0, 0.05 * t);
    };
    chain.model.prescribed.push_back({{0, 1, 2}, [law](double t, const VecX& q0, VecX& q) {
                                        q.head<3>() = q0.head<3>() + law(t);
                                      }});
    DynamicsOptions options;
    options.scheme = scheme;
    options.dt = 2e-3;
    TimeStepper stepper(chain.model, options, chain.state.q);
    for (int k = 0; k < 100; ++k) {
      const Vec3 before = chain.state.q.head<3>();
      ASSERT_TRUE(stepper.step(chain.state).ok());
      const Vec3 expected = law(chain.state.time);
      EXPECT_NEAR((chain.state.q.head<3>() - expected).norm(), 0.0, 1e-15);
      EXPECT_NEAR((chain.state.u.head<3>() - (expected - before) / options.dt).norm(), 0.0, 1e-9);
    }
    EXPECT_GT(std::abs(chain.state.q[12]), 1e-3) << "the chain must follow the clamp";
  }
}

TEST(TimeStepper, PrescribedMotionOfAFreeDofIsRejected) {
  Chain chain;
  chain.model.prescribed.push_back({{4}, [](double, const VecX&, VecX&) {}});
  EXPECT_THROW(TimeStepper(chain.model, DynamicsOptions{}, chain.state.q), InputError);
}

TEST(TimeStepper, UnreachedToleranceFailsAndLeavesStateUnchanged) {
  Chain chain;
  DynamicsOptions options;
  options.newton.force_tolerance = 0.0;
  options.newton.step_tolerance = 0.0;
  options.newton.max_iterations = 1;
  options.max_dt_halvings = 1;
  TimeStepper stepper(chain.model, options, chain.state.q);
  const State before = chain.state;
  const StepReport report = stepper.step(chain.state);
  // a tolerance of zero is met only at the residual's round-off floor (StopCriterion::round_off),
  // which one Newton iteration does not reach on this nonlinear chain
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status, StepStatus::max_iterations);
  EXPECT_EQ(report.criterion, StopCriterion::none);
  EXPECT_EQ(report.dt_halvings, 1);
  EXPECT_EQ(report.iterations, 2) << "full step (1) + first half step (1)";
  EXPECT_NE(report.message.find("did not converge"), std::string::npos) << report.message;
  EXPECT_NE(report.message.find("halvings"), std::string::npos) << report.message;
  expect_same_state(chain.state, before);
}

TEST(TimeStepper, ZeroToleranceEndsAtTheRoundOffFloor) {
  // the same chain with enough iterations: Newton reaches the floor and says so
  Chain chain;
  DynamicsOptions options;
  options.newton.force_tolerance = 0.0;
  TimeStepper stepper(chain.model, options, chain.state.q);
  const StepReport report = stepper.step(chain.state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(report.criterion, StopCriterion::round_off);
  EXPECT_EQ(report.tolerance, 0.0);
  EXPECT_EQ(report.round_off_excess, 0.0);
  EXPECT_LE(report.iterations, 6);
}

TEST(TimeStepper, NaNForceFailsAndLeavesStateUnchanged) {
  Chain chain;
  chain.model.forces.push_back(std::make_shared<CustomForce>(
      "broken", [](const VecX&, const VecX&, double, VecX& f) { f[7] += std::nan(""); }));
  TimeStepper stepper(chain.model, DynamicsOptions{}, chain.state.q);
  const State before = chain.state;
  const StepReport report = stepper.step(chain.state);
  EXPECT_EQ(report.status, StepStatus::non_finite);
  EXPECT_FALSE(report.message.empty());
  expect_same_state(chain.state, before);
}

TEST(TimeStepper, NaNJacobianFailsAndLeavesStateUnchanged) {
  Chain chain;
  chain.model.forces.push_back(std::make_shared<CustomForce>(
      "broken_jacobian", [](const VecX&, const VecX&, double, VecX&) {},
      std::vector<std::vector<int>>{{6}},
      [](const VecX&, const VecX&, double, JacobianSink& sink) {
        const int dof[1] = {6};
        sink.add(dof, MatX::Constant(1, 1, std::nan("")), MatX());
      }));
  TimeStepper stepper(chain.model, DynamicsOptions{}, chain.state.q);
  const State before = chain.state;
  const StepReport report = stepper.step(chain.state);
  EXPECT_EQ(report.status, StepStatus::non_finite);
  EXPECT_NE(report.message.find("non-finite"), std::string::npos) << report.message;
  expect_same_state(chain.state, before);
}

/// A particle in a stiff quartic well, F = -k x^3 per component: a large step needs many Newton
/// iterations from the initial guess q_k, a small one few.
Model quartic_particle(double k) {
  Model model = testing::make_particles(Vec3(1.0, 0.0, 0.0), 1.0);
  const int dofs[3] = {0, 1, 2};
  model.forces.push_back(std::make_shared<CustomForce>(
      "quartic_well",
      [k](const VecX& q, const VecX&, double, VecX& f) {
        f.head<3>() -= k * q.head<3>().array().cube().matrix();
      },
      std::vector<std::vector<int>>{{0, 1, 2}},
      [k, dofs](const VecX& q, const VecX&, double, JacobianSink& sink) {
        const MatX j = (-3.0 * k * q.head<3>().array().square()).matrix().asDiagonal();
        sink.add(dofs, j, MatX());
      }));
  return model;
}

TEST(TimeStepper, HalvingDtRescuesAStepThatFailsWhole) {
  const Model model = quartic_particle(1e4);
  DynamicsOptions options;
  options.dt = 0.5;
  options.newton.max_iterations = 5;
  options.max_dt_halvings = 0;
  State state = testing::make_state(model, Vec3(1.0, 0.0, 0.0), VecX::Zero(3));
  {
    TimeStepper whole(model, options, state.q);
    State copy = state;
    ASSERT_FALSE(whole.step(copy).ok()) << "the test needs a step that fails without halving";
  }
  options.max_dt_halvings = 8;
  TimeStepper halving(model, options, state.q);
  const StepReport report = halving.step(state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GE(report.dt_halvings, 1);
  EXPECT_LT(report.dt, options.dt);
  EXPECT_DOUBLE_EQ(state.time, 0.5);
  // backward Euler dissipates: the mechanical energy cannot have grown
  const double energy = 0.5 * state.u.squaredNorm() + 0.25 * 1e4 * state.q.array().pow(4).sum();
  EXPECT_TRUE(state.q.allFinite());
  EXPECT_LT(energy, 0.25 * 1e4);
}

}  // namespace
}  // namespace tendril
