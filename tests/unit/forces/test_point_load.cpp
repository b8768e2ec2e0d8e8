// PointLoad: a concentrated force F(t) [N] on one node, and the piecewise-linear history helper.
#include <gtest/gtest.h>

#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/point_load.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(PointLoad, ConstantForceOnItsNodeOnly) {
  auto rod = testing::make_small_rod(4, 3);
  const PointLoad load(2, Vec3(1.0, -2.0, 3.0));
  const VecX u = VecX::Zero(rod.q.size());
  const ForceEval f = evaluate_force(load, rod.model, rod.frames, rod.q, u, 0.7);
  VecX expected = VecX::Zero(rod.q.size());
  expected.segment<3>(6) = Vec3(1.0, -2.0, 3.0);
  EXPECT_EQ((f.force - expected).norm(), 0.0);
  expect_force_conforms(load, rod.model, rod.frames, perturbed(rod.model, rod.q, 0.05, 0.2, 9), u,
                        0.7);
}

TEST(PointLoad, TimeDependentForceFollowsItsHistory) {
  auto rod = testing::make_small_rod(3, 1);
  const PointLoad load(1, [](double t) { return Vec3(0.0, 0.0, -2.0 * t); });
  const VecX u = VecX::Zero(rod.q.size());
  EXPECT_DOUBLE_EQ(evaluate_force(load, rod.model, rod.frames, rod.q, u, 0.25).force[5], -0.5);
  EXPECT_DOUBLE_EQ(evaluate_force(load, rod.model, rod.frames, rod.q, u, 1.5).force[5], -3.0);
}

TEST(PointLoad, PiecewiseLinearInterpolatesAndHoldsEnds) {
  const ForceHistory f =
      piecewise_linear({0.0, 1.0, 3.0}, {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(2, 0, -4)});
  EXPECT_DOUBLE_EQ(f(-1.0).x(), 0.0);
  EXPECT_DOUBLE_EQ(f(0.5).x(), 1.0);
  EXPECT_DOUBLE_EQ(f(1.0).x(), 2.0);
  EXPECT_DOUBLE_EQ(f(2.5).z(), -3.0);
  EXPECT_DOUBLE_EQ(f(10.0).z(), -4.0);
}

TEST(PointLoad, BadInputNamesTheKey) {
  try {
    piecewise_linear({0.0, 2.0, 1.0}, {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()});
    FAIL() << "decreasing times accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "times[2]");
  }
  EXPECT_THROW(piecewise_linear({0.0}, {}), InputError);
  auto rod = testing::make_small_rod(3, 1);
  SparsityBuilder pattern(rod.model.dofs.size());
  try {
    PointLoad(7, Vec3::Zero()).declare_sparsity(rod.model, pattern);
    FAIL() << "node out of range accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "point_load.node");
    EXPECT_EQ(e.value(), "7");
  }
}

}  // namespace
}  // namespace tendril
