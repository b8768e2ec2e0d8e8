// PointMoment: a concentrated moment M(t) [N m] on one edge, fixed in space: a couple of forces on
// the edge's nodes plus a twisting moment (docs/physics/rods.md#point-moments).
#include <cmath>

#include <gtest/gtest.h>

#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/point_moment.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(PointMoment, ResultantIsTheMomentWithoutNetForce) {
  // statics of the couple: zero net force; the forces' moment about the edge's midpoint plus the
  // twisting moment along t (reported as the generalised force on theta) give back M
  auto rod = testing::make_small_rod(5, 2);
  const VecX q = perturbed(rod.model, rod.q, 0.05, 0.2, 4);
  const Vec3 m(0.3, -1.2, 0.7);
  const PointMoment moment(2, m);
  const VecX u = VecX::Zero(q.size());
  const ForceEval f = evaluate_force(moment, rod.model, rod.frames, q, u, 0.0);
  const Vec3 x0 = q.segment<3>(6), x1 = q.segment<3>(9), mid = 0.5 * (x0 + x1);
  const Vec3 f0 = f.force.segment<3>(6), f1 = f.force.segment<3>(9);
  const Vec3 t = (x1 - x0).normalized();
  EXPECT_LE((f0 + f1).norm(), 1e-14);
  const Vec3 resultant =
      (x0 - mid).cross(f0) + (x1 - mid).cross(f1) + f.force[rod.model.dofs.twist(2)] * t;
  EXPECT_LE((resultant - m).norm(), 1e-12 * m.norm());
  // nothing on other DOFs
  VecX rest = f.force;
  rest.segment<6>(6).setZero();
  rest[rod.model.dofs.twist(2)] = 0.0;
  EXPECT_EQ(rest.norm(), 0.0);
}

TEST(PointMoment, JacobianMatchesFiniteDifferences) {
  auto rod = testing::make_small_rod(4, 5);
  const PointMoment moment(1, [](double t) { return Vec3(0.4, 0.9 * t, -0.5); });
  EXPECT_FALSE(moment.has_symmetric_jacobian());
  const VecX u = VecX::Zero(rod.q.size());
  expect_force_conforms(moment, rod.model, rod.frames, perturbed(rod.model, rod.q, 0.05, 0.2, 11),
                        u, 1.3);
}

TEST(PointMoment, BadInputNamesTheKey) {
  auto rod = testing::make_small_rod(3, 1);
  SparsityBuilder pattern(rod.model.dofs.size());
  try {
    PointMoment(2, Vec3(0, 0, 1)).declare_sparsity(rod.model, pattern);
    FAIL() << "edge out of range accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "point_moment.edge");
    EXPECT_EQ(e.value(), "2");
  }
  EXPECT_THROW(PointMoment(0, Vec3(std::nan(""), 0, 0)), InputError);
}

}  // namespace
}  // namespace tendril
