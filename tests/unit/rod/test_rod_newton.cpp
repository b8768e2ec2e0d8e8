#include <vector>

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include "rod/rod_shapes.hpp"
#include "support/conformance.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(RodNewton, ConvergesQuadraticallyWithFramesFixedAtTheStartOfTheStep) {
  // Newton on E_stretch + E_bend_twist of a helix clamped at both ends (two nodes and one twist
  // each) and with one mid-rod twist held, after its natural curvature and twist were changed
  // (actuation): the equilibrium is stressed and has a twist reaction. The frames accepted at the
  // start stay fixed for all iterations, as within one time step, so every iterate is a trial point
  // with t != t_acc. The textbook derivatives differ from the exact ones by (dE/dtheta_e) h_e,
  // which vanishes only where every twist is free and balanced; here they converge linearly to a
  // wrong point (checked by zeroing h).
  test::BuiltRod rod = test::build(test::helix(20));
  Model& model = rod.model;
  for (BendTwistSpring& spring : model.rods.springs) {
    spring.natural_curvature *= 2.0;
    spring.natural_twist += 0.6;
  }
  const int n_last = model.dofs.num_nodes - 1;
  std::vector<int> free_dofs;
  for (int i = 6; i < 3 * (n_last - 1); ++i) free_dofs.push_back(i);
  for (int e = 1; e + 1 < model.dofs.num_edges; ++e)
    if (e != 10)
      free_dofs.push_back(model.dofs.twist(e));  // theta_10 held: a twist reaction in mid-rod
  VecX q = rod.q;

  std::vector<double> residuals;
  for (int iteration = 0; iteration < 15; ++iteration) {
    VecX gradient = VecX::Zero(q.size());
    MatX hessian = MatX::Zero(q.size(), q.size());
    for (const auto& term : model.energies) {
      const EnergyEval e = evaluate_energy(*term, model, rod.frames, q);
      gradient += e.gradient;
      hessian += e.hessian;
    }
    const auto n = static_cast<Eigen::Index>(free_dofs.size());
    VecX g(n);
    MatX h(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      g[i] = gradient[free_dofs[static_cast<std::size_t>(i)]];
      for (Eigen::Index j = 0; j < n; ++j)
        h(i, j) =
            hessian(free_dofs[static_cast<std::size_t>(i)], free_dofs[static_cast<std::size_t>(j)]);
    }
    residuals.push_back(g.norm());
    if (g.norm() < 1e-13) break;
    const VecX step = h.ldlt().solve(-g);
    for (Eigen::Index i = 0; i < n; ++i) q[free_dofs[static_cast<std::size_t>(i)]] += step[i];
  }
  ASSERT_LT(residuals.back(), 1e-13) << "did not converge";
  // the iterates moved away from the accepted frames
  Kinematics kin;
  compute_kinematics(model, rod.frames, q, kin);
  double largest_turn = 0.0;
  for (std::size_t e = 0; e < kin.tangent.size(); ++e)
    largest_turn = std::max(largest_turn, (kin.tangent[e] - rod.frames.tangent[e]).norm());
  EXPECT_GT(largest_turn, 0.02);
  // quadratic: once the residual is small, r_{k+1} <= C r_k^2
  int quadratic_steps = 0;
  for (std::size_t k = 0; k + 1 < residuals.size(); ++k)
    if (residuals[k] < 1e-2 && residuals[k + 1] > 1e-12) {
      EXPECT_LE(residuals[k + 1], 1e3 * residuals[k] * residuals[k]) << "iteration " << k;
      ++quadratic_steps;
    }
  EXPECT_GE(quadratic_steps, 1);
  // and the limit is a true equilibrium of the energy (central differences of E, not the analytic
  // gradient): with the textbook derivatives (h = 0) Newton converges to a point where this
  // is 1.3e-4
  VecX fd_gradient(static_cast<Eigen::Index>(free_dofs.size()));
  const double step = 1e-6;
  for (std::size_t i = 0; i < free_dofs.size(); ++i) {
    VecX plus = q, minus = q;
    plus[free_dofs[i]] += step;
    minus[free_dofs[i]] -= step;
    double difference = 0.0;
    for (const auto& term : model.energies)
      difference += evaluate_energy(*term, model, rod.frames, plus, false).energy -
                    evaluate_energy(*term, model, rod.frames, minus, false).energy;
    fd_gradient[static_cast<Eigen::Index>(i)] = difference / (2.0 * step);
  }
  EXPECT_LT(fd_gradient.norm(), 1e-7);
}

}  // namespace
}  // namespace tendril
