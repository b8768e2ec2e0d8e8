// StaticSolver: rigid-body modes reported, indefinite Jacobians (snap-through) handled by shifting,
// load stepping when the full load does not converge, State unchanged on failure, and the homotopy
// that also carries the rest shape (natural curvature / twist) and prescribed motions.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "springs.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "unit/rod/rod_shapes.hpp"

namespace tendril {
namespace {

using testing::ElasticSpring;
using testing::ElasticSprings;

TEST(StaticSolver, FreeFloatingStructureIsReportedSingular) {
  VecX x(9);
  x << 0, 0, 0, 0.1, 0, 0, 0.2, 0, 0;
  Model model = testing::make_particles(x, 0.1);
  model.energies.push_back(std::make_shared<ElasticSprings>(std::vector<ElasticSpring>{
      {1, 0, 100.0, 0.1, Vec3::Zero()}, {2, 1, 100.0, 0.1, Vec3::Zero()}}));
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0, 0, -9.81)));
  State state = testing::make_state(model, x, VecX::Zero(9));
  StaticSolver solver(model, StaticOptions{}, state.q);
  EXPECT_EQ(solver.candidate_translations().size(), 3u);
  const State before = state;
  const StaticReport report = solver.solve(state);
  EXPECT_EQ(report.status, StepStatus::singular_system);
  EXPECT_NE(report.message.find("rigid-body"), std::string::npos) << report.message;
  EXPECT_EQ(state.q, before.q);
  EXPECT_TRUE(state.q.allFinite());
}

TEST(StaticSolver, WeakAnchorBesideAStiffPartIsNotAFreeTranslation) {
  // particles 0-1 (k = 10 N/m between them) hang from the origin by a 1 N/m spring: not free. A
  // separate, clamped pair 2-3 joined by a 1e12 N/m spring must not make the anchor look like a
  // null mode (the test used to compare |J t| with 1e-10 of the largest diagonal of J: 200 N/m
  // here). Closed form (linear springs): z_0 = -2 m g / k_a, z_1 = z_0 - m g / k.
  VecX x(12);
  x << 0, 0, 0, 0.1, 0, 0, 1, 0, 0, 1.1, 0, 0;
  Model model = testing::make_particles(x, 0.1);
  for (int d = 6; d < 9; ++d) model.fixed[static_cast<std::size_t>(d)] = 1;
  model.energies.push_back(std::make_shared<testing::LinearSprings>(
      std::vector<testing::LinearSpring>{{0, -1, 1.0, Vec3::Zero()},
                                         {1, 0, 10.0, Vec3(0.1, 0, 0)},
                                         {3, 2, 1e12, Vec3(0.1, 0, 0)}}));
  model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0, 0, -9.81)));
  State state = testing::make_state(model, x, VecX::Zero(12));
  StaticSolver solver(model, StaticOptions{}, state.q);
  ASSERT_EQ(solver.candidate_translations().size(), 3u);  // the part {0, 1} has no fixed DOF
  const StaticReport report = solver.solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  const double weight = 0.1 * 9.81;
  EXPECT_NEAR(state.q[2], -2.0 * weight / 1.0, 1e-9);
  EXPECT_NEAR(state.q[5], -2.0 * weight / 1.0 - weight / 10.0, 1e-9);
}

TEST(StaticSolver, UnloadedFreeStructureIsAlreadyInEquilibrium) {
  VecX x(6);
  x << 0, 0, 0, 0.1, 0, 0;
  Model model = testing::make_particles(x, 0.1);
  model.energies.push_back(std::make_shared<ElasticSprings>(
      std::vector<ElasticSpring>{{1, 0, 100.0, 0.1, Vec3::Zero()}}));
  State state = testing::make_state(model, x, VecX::Zero(6));
  StaticSolver solver(model, StaticOptions{}, state.q);
  const StaticReport report = solver.solve(state);
  EXPECT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(report.iterations, 0);
}

/// The von Mises truss: a node at (0, h) held by two springs from (-1, 0) and (1, 0), loaded by a
/// downward force P beyond its snap-through load. Equilibrium below the supports at y < 0 solves
///   P = 2 k |y| (1 - L / sqrt(1 + y^2)),  L = sqrt(1 + h^2).
struct Truss {
  double k = 100.0, h = 0.5, P = 10.0;
  Model model;
  State state;
  Truss() {
    const double L = std::sqrt(1.0 + h * h);
    model = testing::make_particles(Vec3(0.0, h, 0.0), 1.0);
    model.energies.push_back(std::make_shared<ElasticSprings>(std::vector<ElasticSpring>{
        {0, -1, k, L, Vec3(-1.0, 0.0, 0.0)}, {0, -1, k, L, Vec3(1.0, 0.0, 0.0)}}));
    model.forces.push_back(std::make_shared<PointLoad>(0, Vec3(0.0, -P, 0.0)));
    model.fixed[2] = 1;  // planar
    state = testing::make_state(model, Vec3(0.0, h, 0.0), VecX::Zero(3));
  }
  explicit Truss(double load) : Truss() {
    P = load;
    model.forces.back() = std::make_shared<PointLoad>(0, Vec3(0.0, -P, 0.0));
  }
  /// |y| of the equilibrium beyond the supports' rest span (|y| > h), by bisection on the balance;
  /// y = -|y| for a downward load (snapped), +|y| for an upward one (stretched).
  double equilibrium_y() const {
    const double L = std::sqrt(1.0 + h * h);
    auto balance = [&](double a) {
      return 2.0 * k * a * (1.0 - L / std::sqrt(1.0 + a * a)) - std::abs(P);
    };
    double lo = h, hi = 100.0;
    for (int i = 0; i < 200; ++i) (balance(0.5 * (lo + hi)) > 0.0 ? hi : lo) = 0.5 * (lo + hi);
    return P > 0.0 ? -0.5 * (lo + hi) : 0.5 * (lo + hi);
  }
  /// y of the equilibrium on the upper branch for 0 < P below the snap-through load (~4.3 N):
  /// P = 2 k y (L / sqrt(1 + y^2) - 1), bracketed in [0.3, h] (P decreases there from 4.25 N to 0).
  double upper_branch_y() const {
    const double L = std::sqrt(1.0 + h * h);
    auto balance = [&](double a) { return 2.0 * k * a * (L / std::sqrt(1.0 + a * a) - 1.0) - P; };
    double lo = 0.3, hi = h;
    for (int i = 0; i < 200; ++i) (balance(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
    return 0.5 * (lo + hi);
  }
};

TEST(StaticSolver, SnapThroughPassesIndefiniteJacobiansByShifting) {
  Truss truss;
  StaticSolver solver(truss.model, StaticOptions{}, truss.state.q);
  // x and y are unrestrained by fixed DOFs, but the anchored springs are not translation invariant
  EXPECT_EQ(solver.candidate_translations().size(), 2u);
  const StaticReport report = solver.solve(truss.state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GT(report.regularized_iterations, 0) << "the path crosses the unstable branch";
  EXPECT_NEAR(truss.state.q[1], truss.equilibrium_y(), 1e-8);
  EXPECT_NEAR(truss.state.q[0], 0.0, 1e-10);
  EXPECT_EQ(truss.state.u.norm(), 0.0);
}

TEST(StaticSolver, LoadSteppingWhenTheFullLoadFails) {
  Truss truss(3.0);  // below the snap-through load: stays on the upper branch
  StaticOptions options;
  options.newton.max_iterations = 3;
  {
    StaticOptions no_stepping = options;
    no_stepping.max_load_steps = 1;
    State copy = truss.state;
    StaticSolver direct(truss.model, no_stepping, truss.state.q);
    const StaticReport failed = direct.solve(copy);
    ASSERT_FALSE(failed.ok()) << "the test needs a load that fails in one increment";
    EXPECT_NE(failed.message.find("load factor"), std::string::npos) << failed.message;
    EXPECT_EQ(copy.q, truss.state.q) << "state must be unchanged on failure";
  }
  StaticSolver solver(truss.model, options, truss.state.q);
  const StaticReport report = solver.solve(truss.state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GT(report.load_stages, 1);
  EXPECT_EQ(report.load_factor, 1.0);
  EXPECT_NEAR(truss.state.q[1], truss.upper_branch_y(), 1e-8);
}

/// A slender clamped rod (L 1 m, r 5 mm, E 1e7 Pa, 21 nodes; nodes 0, 1 and twist 0 fixed),
/// straight along x: EA l^2 / EI = 400, so Newton from a far-off shape meets the stiff axial modes.
test::BuiltRod slender_clamped_rod() {
  return test::clamped_benchmark_rod(21);
}

/// Elastic energy of the model's terms at `state` [J].
double elastic_energy(const Model& model, const State& state) {
  Kinematics kin;
  compute_kinematics(model, state.frames, state.q, kin);
  const EvalInput in{model, state.q, state.u, state.time, kin};
  EnergyOutput out;
  for (const auto& e : model.energies) e->accumulate(in, out);
  return out.energy;
}

TEST(StaticSolver, NaturalCurvatureFarFromTheInitialShapeConverges) {
  test::BuiltRod rod = slender_clamped_rod();
  // built before the actuation: a solver sees rest-shape changes made between solves
  StaticSolver solver(rod.model, StaticOptions{}, rod.q);
  // three quarters of a circle, plus natural twist: the unloaded equilibrium is a stress-free helix
  const double turning = 1.5 * std::numbers::pi / 19.0;  // per interior node [rad]
  for (BendTwistSpring& s : rod.model.rods.springs) {
    s.natural_curvature = Vec2(0.6, 0.8) * 2.0 * std::tan(0.5 * turning);
    s.natural_twist = 0.05;
  }
  const Model original = rod.model;
  State state = test::rest_state(rod);
  const double start_energy = elastic_energy(rod.model, state);
  {
    StaticOptions direct;
    direct.max_load_steps = 1;
    State copy = state;
    const StaticReport failed = StaticSolver(rod.model, direct, rod.q).solve(copy);
    EXPECT_FALSE(failed.ok()) << "the test needs a rest shape Newton does not reach in one go";
  }
  const StaticReport report = solver.solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(report.load_factor, 1.0);
  EXPECT_GT(report.load_stages, 1);
  // the equilibrium is stress free: every spring at its natural curvature and twist
  EXPECT_LT(elastic_energy(rod.model, state), 1e-14 * start_energy);
  Kinematics kin;
  compute_kinematics(rod.model, state.frames, state.q, kin);
  for (std::size_t k = 0; k < rod.model.rods.springs.size(); ++k) {
    const BendTwistStencil stencil = oriented_stencil(rod.model, kin, state.q, k);
    EXPECT_LT((material_curvature(stencil) - rod.model.rods.springs[k].natural_curvature).norm(),
              1e-9);
    EXPECT_NEAR(spring_twist(stencil), rod.model.rods.springs[k].natural_twist, 1e-9);
  }
  // the caller's Model is untouched
  for (std::size_t k = 0; k < rod.model.rods.springs.size(); ++k) {
    EXPECT_EQ(rod.model.rods.springs[k].natural_curvature,
              original.rods.springs[k].natural_curvature);
    EXPECT_EQ(rod.model.rods.springs[k].natural_twist, original.rods.springs[k].natural_twist);
  }
  EXPECT_EQ(rod.model.rods.rest_length, original.rods.rest_length);
}

TEST(StaticSolver, ClampRotatedByNinetyDegreesFollowsThePath) {
  test::BuiltRod rod = slender_clamped_rod();
  rod.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  // the clamp (nodes 0, 1) turns about z through its first node at 1 rad/s: 90 degrees at t = pi/2
  // s
  PrescribedMotion motion;
  motion.dofs = {0, 1, 2, 3, 4, 5};
  motion.apply = [](double t, const VecX& q0, VecX& q) {
    const Mat3 rotation = Eigen::AngleAxisd(t, Vec3::UnitZ()).toRotationMatrix();
    for (int n = 0; n < 2; ++n) q.segment<3>(3 * n) = rotation * q0.segment<3>(3 * n);
  };
  rod.model.prescribed.push_back(motion);

  // reference: the same rod clamped along y from the start (the rotated problem, solved directly)
  test::BuiltRod turned = slender_clamped_rod();
  turned.model.energies = rod.model.energies;
  const Mat3 quarter = Eigen::AngleAxisd(0.5 * std::numbers::pi, Vec3::UnitZ()).toRotationMatrix();
  for (int i = 0; i < turned.model.dofs.num_nodes; ++i)
    turned.q.segment<3>(3 * i) = quarter * rod.q.segment<3>(3 * i);
  initialize_frames(turned.model, turned.q, turned.frames);
  State expected = test::rest_state(turned);
  ASSERT_TRUE(StaticSolver(turned.model, StaticOptions{}, turned.q).solve(expected).ok());

  State state = test::rest_state(rod);
  state.time = 0.5 * std::numbers::pi;
  // eight increments at first: the intermediate stages see the clamp part-way (linear in lambda)
  StaticOptions staged;
  staged.initial_load_steps = 8;
  const StaticReport report = StaticSolver(rod.model, staged, rod.q).solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GT(report.load_stages, 1);
  // the clamp is at its target and the rod sags like the one clamped along y
  EXPECT_LT((state.q.segment<3>(3) - Vec3(0.0, 0.05, 0.0)).norm(), 1e-15);
  const int positions = 3 * rod.model.dofs.num_nodes;
  EXPECT_LT((state.q.head(positions) - expected.q.head(positions)).cwiseAbs().maxCoeff(), 1e-7);
  EXPECT_GT((expected.q - turned.q).norm(), 1e-3) << "gravity bends the rod";
}

TEST(StaticSolver, ClampTwistedByHalfATurnFlipsTheCurledRod) {
  test::BuiltRod rod = slender_clamped_rod();
  const double turning = std::numbers::pi / 19.0;  // half a circle
  for (BendTwistSpring& s : rod.model.rods.springs)
    s.natural_curvature = Vec2(2.0 * std::tan(0.5 * turning), 0.0);
  // the clamp turns about its own axis x at 1 rad/s: twist 0 is driven, nodes 0 and 1 stay
  PrescribedMotion motion;
  motion.dofs = {rod.model.dofs.twist(0)};
  motion.apply = [twist = rod.model.dofs.twist(0)](double t, const VecX& q0, VecX& q) {
    q[twist] = q0[twist] + t;
  };
  rod.model.prescribed.push_back(motion);
  StaticSolver solver(rod.model, StaticOptions{}, rod.q);
  State curled = test::rest_state(rod);
  ASSERT_TRUE(solver.solve(curled).ok());

  // no load: the equilibrium at 180 degrees is the curled shape turned by 180 degrees about x
  State state = curled;
  state.time = std::numbers::pi;
  {
    StaticOptions direct;
    direct.max_load_steps = 1;
    State copy = state;
    EXPECT_FALSE(StaticSolver(rod.model, direct, rod.q).solve(copy).ok())
        << "the test needs a rotation Newton does not reach in one go";
  }
  const StaticReport report = solver.solve(state);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_GT(report.load_stages, 1);
  const Mat3 half = Eigen::AngleAxisd(std::numbers::pi, Vec3::UnitX()).toRotationMatrix();
  double largest = 0.0;
  for (int i = 0; i < rod.model.dofs.num_nodes; ++i)
    largest =
        std::max(largest, (state.q.segment<3>(3 * i) - half * curled.q.segment<3>(3 * i)).norm());
  EXPECT_LT(largest, 1e-7);
  EXPECT_GT((curled.q - rod.q).norm(), 0.5) << "the rod is curled";
}

}  // namespace
}  // namespace tendril
