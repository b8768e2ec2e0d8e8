// Static solve of a linear spring chain equals its closed form: springs i = 0..N-1 in series from a
// fixed anchor, node i hanging under its weight m_i g plus a tip load P on the last node. Spring i
// carries the load below it, N_i = P + g sum_{j>=i} m_j, so node i moves by
//   u_i = sum_{j<=i} N_j / k_j     (series springs; any statics text, e.g. Gere & Goodno ch. 2).
#include <gtest/gtest.h>

#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "unit/integrate/springs.hpp"

namespace tendril {
namespace {

TEST(StaticSprings, SeriesChainMatchesClosedForm) {
  const int n = 8;
  const Vec3 g(0.0, 0.0, -9.81), P(0.5, 0.0, -2.0);
  VecX x(3 * n);
  std::vector<testing::LinearSpring> springs;
  std::vector<double> k(n);
  for (int i = 0; i < n; ++i) {
    x.segment<3>(3 * i) = Vec3(0.0, 0.0, -0.1 * (i + 1));
    k[i] = 50.0 + 10.0 * i;
    springs.push_back({i, i - 1, k[i], Vec3(0.0, 0.0, -0.1)});
  }
  Model model = testing::make_particles(x, 0.0);
  for (int i = 0; i < n; ++i) model.mass.segment<3>(3 * i).setConstant(0.01 * (1 + i % 3));
  model.energies.push_back(std::make_shared<testing::LinearSprings>(springs));
  model.energies.push_back(std::make_shared<GravityEnergy>(g));
  model.forces.push_back(std::make_shared<PointLoad>(n - 1, P));
  for (auto kind : {LinearSolverKind::banded_ldlt, LinearSolverKind::sparse_ldlt}) {
    State state = testing::make_state(model, x, VecX::Zero(3 * n));
    StaticOptions options;
    options.newton.linear_solver = kind;
    StaticSolver solver(model, options, state.q);
    const StaticReport report = solver.solve(state);
    ASSERT_TRUE(report.ok()) << report.message;
    EXPECT_LE(report.iterations, 1);
    Vec3 displacement = Vec3::Zero();
    for (int i = 0; i < n; ++i) {
      Vec3 carried = P;
      for (int j = i; j < n; ++j) carried += model.mass[3 * j] * g;
      displacement += carried / k[i];
      EXPECT_NEAR((state.q.segment<3>(3 * i) - x.segment<3>(3 * i) - displacement).norm(), 0.0,
                  1e-12)
          << "node " << i << " with " << to_string(kind);
    }
  }
}

}  // namespace
}  // namespace tendril
