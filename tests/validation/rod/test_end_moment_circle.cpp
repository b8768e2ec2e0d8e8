// A follower end moment M = 2 pi EI / L rolls a straight clamped rod into a full circle of radius
// R = EI / M = L / (2 pi) (Euler's elastica with a pure end moment: uniform curvature M / EI;
// Timoshenko & Gere, Theory of Elastic Stability, sec. 2.7). Static solve with load stepping.
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "support/conformance.hpp"
#include "tendril/core/term.hpp"
#include "tendril/integrate/static_solver.hpp"

namespace tendril {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// Potential of a follower moment M [N m] about +z applied at the free end of a rod lying in the
/// x-y plane whose first edge is clamped: E = -M * (turning angle of the last edge relative to the
/// first), summed as the signed turning angles phi_k between consecutive edges so it never wraps.
class PlanarEndMoment final : public Energy {
 public:
  explicit PlanarEndMoment(double moment) : moment_(moment) {}
  std::string_view name() const override { return "end_moment"; }
  bool is_external_load() const override { return true; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override {
    for (int k = 1; k < model.dofs.num_nodes - 1; ++k) pattern.add_stencil(stencil(k));
  }
  void accumulate(const EvalInput& in, EnergyOutput& out) const override {
    const int n = in.model.dofs.num_nodes;
    for (int k = 1; k < n - 1; ++k) {
      const Vec2 a = in.q.segment<2>(3 * k) - in.q.segment<2>(3 * (k - 1));
      const Vec2 b = in.q.segment<2>(3 * (k + 1)) - in.q.segment<2>(3 * k);
      const double phi = std::atan2(a.x() * b.y() - a.y() * b.x(), a.dot(b));
      out.energy -= moment_ * phi;
      const Vec2 ga = angle_gradient(a), gb = angle_gradient(b);
      if (out.gradient) {
        // phi = angle(b) - angle(a), a = x_k - x_{k-1}, b = x_{k+1} - x_k
        const std::array<int, 6> dofs = stencil(k);
        const Eigen::Matrix<double, 6, 1> g = (Eigen::Matrix<double, 6, 1>() << ga, -ga - gb, gb).finished();
        for (int i = 0; i < 6; ++i) (*out.gradient)[dofs[i]] -= moment_ * g[i];
      }
      if (out.hessian) {
        const Eigen::Matrix2d ha = angle_hessian(a), hb = angle_hessian(b);
        MatN<6> h = MatN<6>::Zero();
        h.block<2, 2>(0, 0) -= ha;
        h.block<2, 2>(0, 2) += ha;
        h.block<2, 2>(2, 0) += ha;
        h.block<2, 2>(2, 2) += hb - ha;
        h.block<2, 2>(2, 4) -= hb;
        h.block<2, 2>(4, 2) -= hb;
        h.block<2, 2>(4, 4) += hb;
        out.hessian->add(stencil(k), h, -moment_);
      }
    }
  }

 private:
  static std::array<int, 6> stencil(int k) {
    return {3 * (k - 1), 3 * (k - 1) + 1, 3 * k, 3 * k + 1, 3 * (k + 1), 3 * (k + 1) + 1};
  }
  /// d angle(v) / dv = J v / |v|^2 with J the rotation by +90 degrees.
  static Vec2 angle_gradient(const Vec2& v) { return Vec2(-v.y(), v.x()) / v.squaredNorm(); }
  static Eigen::Matrix2d angle_hessian(const Vec2& v) {
    const Vec2 jv(-v.y(), v.x());
    Eigen::Matrix2d j;
    j << 0, -1, 1, 0;
    return j / v.squaredNorm() - 2.0 * jv * v.transpose() / (v.squaredNorm() * v.squaredNorm());
  }
  double moment_;  ///< M [N m]
};

struct CircleResult {
  double tip_distance = 0.0;      ///< |x_tip - clamp point| [m]
  double max_radius_error = 0.0;  ///< max over free nodes of | |x - c| - R | [m]
};

CircleResult roll_into_circle(int edges) {
  const double length = 1.0, radius = 5e-3, youngs = 1e7;
  testing::ClampedRod rod = testing::make_clamped_rod(edges, length, testing::circular_material(youngs, 0.5, 1000, radius));
  // planar problem: no out-of-plane motion (rollers on z)
  for (int i = 0; i < rod.model.dofs.num_nodes; ++i) rod.model.fixed[3 * i + 2] = 1;
  const double ei = youngs * kPi * std::pow(radius, 4) / 4;
  rod.model.energies.push_back(std::make_shared<PlanarEndMoment>(2 * kPi * ei / length));
  StaticSolver solver(rod.model, StaticOptions{}, rod.state.q);
  const StaticReport report = solver.solve(rod.state);
  EXPECT_EQ(report.status, StepStatus::converged) << report.message;
  CircleResult result;
  const double big_r = length / (2 * kPi);
  const Vec3 centre(0, big_r, 0);
  result.tip_distance = testing::node_position(rod, rod.tip_node).norm();
  for (int i = 1; i <= rod.tip_node; ++i)
    result.max_radius_error =
        std::max(result.max_radius_error, std::abs((testing::node_position(rod, i) - centre).norm() - big_r));
  return result;
}

TEST(EndMomentCircle, TestEnergyConforms) {
  testing::ClampedRod rod = testing::make_clamped_rod(6, 1.0, testing::circular_material(1e7, 0.5, 1000, 5e-3));
  const PlanarEndMoment moment(0.3);
  const VecX q = conformance::perturbed(rod.model, rod.state.q, 0.05, 0.1, 3);
  conformance::expect_energy_conforms(moment, rod.model, rod.state.frames, q);
}

TEST(EndMomentCircle, RodRollsIntoAFullCircle) {
  const CircleResult r = roll_into_circle(80);
  // the free end returns to the clamp point and every node lies on the circle of radius
  // L / (2 pi) = 0.159 m, up to the discretisation error (measured 2.08e-3 m and 6.2e-4 m at 80 edges;
  // DER's integrated curvature 2 tan(phi / 2) overshoots the turning angle phi at second order)
  EXPECT_LT(r.tip_distance, 2.5e-3);
  EXPECT_LT(r.max_radius_error, 1e-3);
}

TEST(EndMomentCircle, TipClosesAtSecondOrder) {
  const CircleResult coarse = roll_into_circle(20);
  const CircleResult fine = roll_into_circle(40);
  EXPECT_GT(std::log2(coarse.tip_distance / fine.tip_distance), 1.8)
      << coarse.tip_distance << " -> " << fine.tip_distance;
}

}  // namespace
}  // namespace tendril
