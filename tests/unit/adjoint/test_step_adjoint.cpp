// The pull-back of one step (StepAdjoint: implicit Euler, implicit midpoint and the generalised
// midpoint rule) against central differences of the step: the adjoint of the start state's frame
// angles (a reference director turned about its tangent), positions (frames carried by parallel
// transport: the state's coordinates) and velocities, on a 3D rod whose frames turn out of plane,
// in a viscous medium.
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/geometry/parallel_transport.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/adjoint/curled_rod.hpp"

namespace tendril {
namespace {

/// l(q) = 1/2 |x_10|^2 + theta_7 + x_5 . (1, 2, 3), of the state after one step from `start`.
double objective(const test::CurledRod& c, const State& start) {
  State s = start;
  TimeStepper stepper(c.model, c.options, c.initial.q);
  EXPECT_TRUE(stepper.step(s).ok());
  return 0.5 * s.q.segment<3>(c.model.dofs.node(10)).squaredNorm() + s.q[c.model.dofs.twist(7)] +
         s.q.segment<3>(c.model.dofs.node(5)).dot(Vec3(1, 2, 3));
}

/// Moves DOF d of `s` by h, carrying each reference director to its new tangent.
void move_position(const Model& model, State& s, int d, double h) {
  s.q[d] += h;
  for (std::size_t e = 0; e < model.rods.edges.size(); ++e) {
    const auto& nodes = model.rods.edges[e];
    const Vec3 t =
        (s.q.segment<3>(model.dofs.node(nodes[1])) - s.q.segment<3>(model.dofs.node(nodes[0])))
            .normalized();
    s.frames.reference_director[e] =
        parallel_transport_normal(s.frames.reference_director[e], s.frames.tangent[e], t);
    s.frames.tangent[e] = t;
  }
}

/// Turns edge e's reference director by `angle` about its tangent.
void turn_frame(State& s, std::size_t e, double angle) {
  Vec3& a = s.frames.reference_director[e];
  a = std::cos(angle) * a + std::sin(angle) * s.frames.tangent[e].cross(a);
}

/// The pull-back of step 21 of c's run against central differences of that step.
void expect_pull_back_matches_differences(const test::CurledRod& c) {
  const auto [start, end] = test::step_of_run(c, 20);

  const int n = c.model.dofs.size();
  adjoint::StateAdjoint adj{VecX::Zero(n), VecX::Zero(n), VecX::Zero(10)};
  adj.q.segment<3>(c.model.dofs.node(10)) = end.q.segment<3>(c.model.dofs.node(10));
  adj.q[c.model.dofs.twist(7)] = 1.0;
  adj.q.segment<3>(c.model.dofs.node(5)) = Vec3(1, 2, 3);
  adjoint::StepAdjoint step(c.model, c.options, {});
  VecX no_parameters(0);
  ASSERT_EQ(step.pull_back(start, end, c.options.dt, adj, no_parameters), "");

  // central differences, converged in h: the test passes with h = 4e-6 too (at 2.5e-7 round-off
  // reaches 2e-10)
  const double h = 1e-6;
  const auto expect_near = [](double adjoint_value, double difference, const char* what, int i) {
    EXPECT_NEAR(adjoint_value, difference, 1e-7 * std::abs(difference) + 1e-10) << what << i;
  };
  for (std::size_t e = 2; e < 10; e += 3) {
    State a = start, b = start;
    turn_frame(a, e, h);
    turn_frame(b, e, -h);
    expect_near(adj.frame_angle[static_cast<Eigen::Index>(e)],
                (objective(c, a) - objective(c, b)) / (2 * h), "frame angle ", static_cast<int>(e));
  }
  for (int d : {15, 16, 17, 24, 25, 26, c.model.dofs.twist(4)}) {
    State a = start, b = start;
    move_position(c.model, a, d, h);
    move_position(c.model, b, d, -h);
    expect_near(adj.q[d], (objective(c, a) - objective(c, b)) / (2 * h), "q ", d);
    a = start;
    b = start;
    a.u[d] += h;
    b.u[d] -= h;
    expect_near(adj.u[d], (objective(c, a) - objective(c, b)) / (2 * h), "u ", d);
  }
}

TEST(StepAdjoint, MatchesDifferencesOfOneStep) {
  expect_pull_back_matches_differences(test::curled_rod());
}

/// The midpoint step's residual holds q_k and q_{k+1} through y = q_k + alpha (q_{k+1} - q_k), its
/// forces see the frames transported to y and its end frames those transported to q_{k+1}.
TEST(StepAdjoint, MatchesDifferencesOfOneMidpointStep) {
  for (double alpha : {0.5, 0.7}) {
    SCOPED_TRACE(alpha);
    test::CurledRod c = test::curled_rod();
    c.options.scheme = Scheme::implicit_midpoint;
    c.options.midpoint_alpha = alpha;
    expect_pull_back_matches_differences(c);
  }
}

}  // namespace
}  // namespace tendril
