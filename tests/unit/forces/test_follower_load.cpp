// FollowerLoad: a force P(t) [N] along the current tangent of an edge, at its end node
// (docs/physics/rods.md#follower-loads).
#include <gtest/gtest.h>

#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/follower_load.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(FollowerLoad, ForceFollowsTheEdgeTangent) {
  auto rod = testing::make_small_rod(5, 2);
  const VecX q = perturbed(rod.model, rod.q, 0.05, 0.2, 4);
  const FollowerLoad load(2, [](double t) { return -0.7 + t; });
  const ForceEval f = evaluate_force(load, rod.model, rod.frames, q, VecX::Zero(q.size()), 0.2);
  const Vec3 t = (q.segment<3>(9) - q.segment<3>(6)).normalized();  // edge 2: nodes 2 -> 3
  EXPECT_LE((f.force.segment<3>(9) - (-0.5) * t).norm(), 1e-15);
  VecX rest = f.force;
  rest.segment<3>(9).setZero();
  EXPECT_EQ(rest.norm(), 0.0);
}

TEST(FollowerLoad, JacobianMatchesFiniteDifferences) {
  auto rod = testing::make_small_rod(4, 5);
  const FollowerLoad load(1, [](double t) { return 0.8 - 2.0 * t; });
  EXPECT_FALSE(load.has_symmetric_jacobian());
  expect_force_conforms(load, rod.model, rod.frames, perturbed(rod.model, rod.q, 0.05, 0.2, 11),
                        VecX::Zero(rod.q.size()), 0.3);
}

TEST(FollowerLoad, BadInputNamesTheKey) {
  auto rod = testing::make_small_rod(3, 1);
  SparsityBuilder pattern(rod.model.dofs.size());
  try {
    FollowerLoad(5, [](double) { return 1.0; }).declare_sparsity(rod.model, pattern);
    FAIL() << "edge out of range accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "follower_load.edge");
    EXPECT_EQ(e.value(), "5");
  }
}

}  // namespace
}  // namespace tendril
