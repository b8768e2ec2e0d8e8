// CustomForce: a user callback F(q, u, t) with an optional Jacobian on declared stencils
// (mat_dismech 5.5).
#include <gtest/gtest.h>

#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/custom_force.hpp"

namespace tendril {
namespace {

using namespace conformance;

/// A nonlinear spring pulling node 1 toward node 0 plus linear drag on node 1:
///   F_1 = -k |d|^2 d - c u_1,  F_0 = +k |d|^2 d,   d = x_1 - x_0.
constexpr double k = 3.0, c = 0.7;

void spring_force(const VecX& q, const VecX& u, double, VecX& force) {
  const Vec3 d = q.segment<3>(3) - q.segment<3>(0);
  const Vec3 f = -k * d.squaredNorm() * d;
  force.segment<3>(3) += f - c * u.segment<3>(3);
  force.segment<3>(0) -= f;
}

void spring_jacobian(const VecX& q, const VecX&, double, JacobianSink& sink) {
  const Vec3 d = q.segment<3>(3) - q.segment<3>(0);
  const Mat3 dfdd = -k * (d.squaredNorm() * Mat3::Identity() + 2.0 * d * d.transpose());
  MatX dF_dq(6, 6), dF_du = MatX::Zero(6, 6);
  dF_dq << dfdd, -dfdd, -dfdd, dfdd;  // rows/cols: node 0, node 1
  dF_du.block<3, 3>(3, 3) = -c * Mat3::Identity();
  const int dofs[6] = {0, 1, 2, 3, 4, 5};
  sink.add(dofs, dF_dq, dF_du);
}

TEST(CustomForce, JacobianMatchesFiniteDifferences) {
  auto rod = testing::make_small_rod(3, 4);
  const CustomForce force("spring", spring_force, {{0, 1, 2, 3, 4, 5}}, spring_jacobian);
  const VecX u = perturbed(rod.model, VecX::Zero(rod.q.size()), 0.3, 0.1, 5);
  for (unsigned seed : {1u, 2u})
    expect_force_conforms(force, rod.model, rod.frames,
                          perturbed(rod.model, rod.q, 0.05, 0.2, seed), u, 0.0);
}

TEST(CustomForce, ScalesReachTheSystemMatrix) {
  auto rod = testing::make_small_rod(3, 4);
  const CustomForce force("spring", spring_force, {{0, 1, 2, 3, 4, 5}}, spring_jacobian);
  const VecX u = VecX::Zero(rod.q.size());
  // the integrator asks for -(dF/dq + dF/du / dt): the drag block must read +c / dt on the diagonal
  const ForceEval f =
      evaluate_force(force, rod.model, rod.frames, rod.q, u, 0.0, -1.0, -1.0 / 0.01);
  const ForceEval dq = evaluate_force(force, rod.model, rod.frames, rod.q, u, 0.0, 1.0, 0.0);
  EXPECT_NEAR(f.jacobian(3, 3), -dq.jacobian(3, 3) + c / 0.01, 1e-12);
}

TEST(CustomForce, WithoutJacobianContributesNoMatrix) {
  auto rod = testing::make_small_rod(3, 4);
  const CustomForce force("spring", spring_force);
  const VecX u = VecX::Ones(rod.q.size());
  const ForceEval f = evaluate_force(force, rod.model, rod.frames, rod.q, u, 0.0);
  EXPECT_GT(f.force.norm(), 0.0);
  EXPECT_EQ(f.jacobian.norm(), 0.0);
}

TEST(CustomForce, BadInputNamesTheKey) {
  EXPECT_THROW(CustomForce("f", nullptr), InputError);
  try {
    CustomForce("f", spring_force, {}, spring_jacobian);
    FAIL() << "Jacobian without stencils accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key_path(), "custom_force.f.jacobian_stencils");
  }
  auto rod = testing::make_small_rod(3, 4);
  SparsityBuilder pattern(rod.model.dofs.size());
  const CustomForce force("f", spring_force, {{0, 99}}, spring_jacobian);
  EXPECT_THROW(force.declare_sparsity(rod.model, pattern), InputError);
}

}  // namespace
}  // namespace tendril
