// The start projection (initial_state.hpp, docs/physics/vine.md#starting-states-from-measurements)
// leaves a state that meets the constraints to the QP solver's tolerance unchanged bit for bit,
// accepts round-off penetrations instead of stalling on them, and is switched off by
// vine.initial_state.project: false.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/example_path.hpp"
#include "tendril/core/error.hpp"
#include "tendril/vine/initial_state.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {
namespace {

namespace fs = std::filesystem;

fs::path cluttered_scene() {
  return testing::example_path("vine_cluttered.yaml");
}

/// The cluttered example after `steps` steps: the tip is on the first box from about step 180.
VineState stepped_state(const VineModel& model, int steps) {
  VineStepper stepper(model);
  VineState state = straight_state(model, model.rest_angle[0]);
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(stepper.step(state).ok()) << "step " << k;
  return state;
}

TEST(InitialState, StateMeetingTheConstraintsToTheSolverToleranceIsNotMoved) {
  // a bent, growing vine projected onto its joints, then body 7 moved 5e-11 m sideways: the joint
  // error is above round-off and within the QP solver's tolerance 1e-10 m
  const VineModel m = load_vine_scene_file(cluttered_scene()).model;
  VineState s = stepped_state(m, 185);
  project_state(m, s, 1e-3, "vine.initial_state");
  s.q(3 * 7 + 1) += 5e-11;
  VineStepper check(m);
  const double joint_error = check.joint_errors_at(s.q).lpNorm<Eigen::Infinity>();
  ASSERT_GT(joint_error, 4e-11);
  ASSERT_LE(joint_error, 1e-10);
  ASSERT_GE(check.contact_distances_at(s.q).minCoeff(), -1e-10);
  // at rest: unchanged bit for bit
  VineState rest{s.time, s.q, VecX::Zero(s.v.size())};
  ProjectionReport report = project_state(m, rest, 1e-3, "vine.initial_state");
  EXPECT_EQ(report.iterations, 0);
  EXPECT_EQ(report.max_move, 0.0);
  EXPECT_TRUE(rest.q == s.q);
  EXPECT_TRUE(rest.v.isZero(0.0));
  // moving with a velocity that meets the joints (the projection's own): q and v unchanged bit for
  // bit
  VineState moving = stepped_state(m, 185);
  project_state(m, moving, 1e-3, "vine.initial_state");
  moving.q = s.q;
  const VineState given = moving;
  report = project_state(m, moving, 1e-3, "vine.initial_state");
  EXPECT_EQ(report.max_move, 0.0);
  EXPECT_TRUE(moving.q == given.q);
  EXPECT_TRUE(moving.v == given.v);
  EXPECT_GT(given.v.lpNorm<Eigen::Infinity>(), 0.1);
}

TEST(InitialState, RoundOffPenetrationIsAcceptedUnchanged) {
  // a straight vine whose tip capsule is 1e-11 m into a wall (the exact distance, computed here):
  // a violation below the QP's tolerance gives the QP no active row, so it cannot be removed;
  // it is accepted as it is
  VineModel m =
      load_vine_scene_file(cluttered_scene(), {"vine.contact.model=body", "vine.bodies=6"}).model;
  m.obstacles.clear();
  VineState s = straight_state(m, 0.0);
  const double tip = centerline_points(m, s.q).back().x();
  for (double depth : {1e-11, 1.9e-11, 5e-11}) {
    SCOPED_TRACE(depth);
    m.obstacles = {make_half_plane(Vec2(tip + m.contact_radius - depth, 0.0), Vec2(-1.0, 0.0))};
    VineStepper check(m);
    const double distance = check.contact_distances_at(s.q).minCoeff();
    ASSERT_LT(distance, -0.5 * depth);
    VineState projected = s;
    ProjectionReport report;
    EXPECT_NO_THROW(report = project_state(m, projected, 1e-3, "vine.initial_state"));
    EXPECT_EQ(report.max_move, 0.0);
    EXPECT_TRUE(projected.q == s.q);
  }
  // a penetration of 1 um is still projected out
  m.obstacles = {make_half_plane(Vec2(tip + m.contact_radius - 1e-6, 0.0), Vec2(-1.0, 0.0))};
  VineState deep = s;
  const ProjectionReport report = project_state(m, deep, 1e-3, "vine.initial_state");
  EXPECT_GT(report.max_move, 0.5e-6);
  EXPECT_GE(VineStepper(m).contact_distances_at(deep.q).minCoeff(), -1e-10);
}

TEST(InitialState, ProjectFalseUsesTheGivenState) {
  // four bodies, body 1 lifted 1 um off its joints: projected by default, kept with project: false
  const VineModel m = load_vine_scene_file(cluttered_scene(), {"vine.bodies=4"}).model;
  VineState s = straight_state(m, m.rest_angle[0]);
  s.q(3 * 1 + 1) += 1e-6;
  std::string q = "vine.initial_state.q=[";
  for (int i = 0; i < s.q.size(); ++i) q += fmt::format("{}{:.17g}", i ? ", " : "", s.q(i));
  q += "]";
  const VineScene projected = load_vine_scene_file(cluttered_scene(), {"vine.bodies=4", q});
  EXPECT_GT(projected.projection.max_move, 0.5e-6);
  EXPECT_FALSE(projected.initial.q == s.q);
  const VineScene given = load_vine_scene_file(
      cluttered_scene(), {"vine.bodies=4", q, "vine.initial_state.project=false"});
  EXPECT_TRUE(given.initial.q == s.q);
  EXPECT_EQ(given.projection.max_move, 0.0);
}

}  // namespace
}  // namespace tendril::vine
