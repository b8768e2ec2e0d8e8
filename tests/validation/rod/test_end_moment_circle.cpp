// A follower end moment M = 2 pi EI / L rolls a straight clamped rod into a full circle of radius
// R = EI / M = L / (2 pi) (Euler's elastica with a pure end moment: uniform curvature M / EI;
// Timoshenko & Gere, Theory of Elastic Stability, sec. 2.7). Static solve with load stepping.
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "rod/cantilever.hpp"
#include "support/conformance.hpp"
#include "tendril/core/term.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/sim/simulation.hpp"

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
        const Vec2 gm = -ga - gb;
        const Eigen::Matrix<double, 6, 1> g =
            (Eigen::Matrix<double, 6, 1>() << ga.x(), ga.y(), gm.x(), gm.y(), gb.x(), gb.y())
                .finished();
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
  testing::ClampedRod rod = testing::make_clamped_rod(
      edges, length, testing::circular_material(youngs, 0.5, 1000, radius));
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
        std::max(result.max_radius_error,
                 std::abs((testing::node_position(rod, i) - centre).norm() - big_r));
  return result;
}

TEST(EndMomentCircle, TestEnergyConforms) {
  testing::ClampedRod rod =
      testing::make_clamped_rod(6, 1.0, testing::circular_material(1e7, 0.5, 1000, 5e-3));
  const PlanarEndMoment moment(0.3);
  const VecX q = conformance::perturbed(rod.model, rod.state.q, 0.05, 0.1, 3);
  conformance::expect_energy_conforms(moment, rod.model, rod.state.frames, q);
}

TEST(EndMomentCircle, RodRollsIntoAFullCircle) {
  const CircleResult r = roll_into_circle(80);
  // the free end returns to the clamp point and every node lies on the circle of radius
  // L / (2 pi) = 0.159 m, up to the discretisation error (measured 2.08e-3 m and 6.2e-4 m at 80
  // edges; DER's integrated curvature 2 tan(phi / 2) overshoots the turning angle phi at second
  // order)
  EXPECT_LT(r.tip_distance, 2.5e-3);
  EXPECT_LT(r.max_radius_error, 1e-3);
}

TEST(EndMomentCircle, TipClosesAtSecondOrder) {
  const CircleResult coarse = roll_into_circle(20);
  const CircleResult fine = roll_into_circle(40);
  EXPECT_GT(std::log2(coarse.tip_distance / fine.tip_distance), 1.8)
      << coarse.tip_distance << " -> " << fine.tip_distance;
}

TEST(EndMomentCircle, ScenePointMomentBendsIntoAnArc) {
  // Euler's elastica under a pure end moment M: uniform curvature M / EI, a circular arc of radius
  // R = EI / M (Timoshenko & Gere, Theory of Elastic Stability, sec. 2.7), here with the scene key
  // forces.point_moments (a dead moment M = -M y on the last edge; M L / EI = 1.5 rad). The
  // discrete rod is in equilibrium when every spring carries M: dE_k / dphi = (EI / l) 2 tan(phi /
  // 2) / cos^2(phi / 2) = M, a polygon of equal turning angles phi; the arc is its limit at second
  // order in l.
  const double radius = 5e-3, youngs = 1e7, length = 1.0, ratio = 1.5;
  const int num_nodes = 41;
  const double ei = youngs * kPi * std::pow(radius, 4) / 4.0, moment = ratio * ei / length;
  const double dl = length / (num_nodes - 1.5);
  char text[1024];
  std::snprintf(
      text, sizeof text,
      "duration: 0\nrods:\n  - geometry: {type: straight, direction: [1, 0, 0], length: 1.0, "
      "num_nodes: %d}\n"
      "    clamp: start\n    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
      "forces:\n  point_moments: [{edge: -1, moment: [0, %.17g, 0]}]\nintegrator: {type: static}\n",
      num_nodes, -moment);
  sim::Simulation simulation(sim::load_rod_scene_text(text));
  const StepReport report = simulation.step();
  ASSERT_TRUE(report.ok()) << report.message;
  // phi by bisection on the spring's moment, then the polygon's tip (clamp point at the origin)
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double phi = 0.5 * (lo + hi);
    (ei / dl * 2.0 * std::tan(phi / 2) / std::pow(std::cos(phi / 2), 2) > moment ? hi : lo) = phi;
  }
  Vec3 polygon(0.5 * dl, 0.0, 0.0);
  for (int j = 1; j < num_nodes - 1; ++j)
    polygon += dl * Vec3(std::cos(j * lo), 0.0, std::sin(j * lo));
  const double r = ei / moment;
  const Vec3 arc(r * std::sin(length / r), 0.0, r * (1.0 - std::cos(length / r)));
  const Vec3 tip = simulation.state().q.segment<3>(3 * (num_nodes - 1));
  std::printf("tip %.6f %.6f %.6f, polygon %.6f %.6f, arc %.6f %.6f\n", tip.x(), tip.y(), tip.z(),
              polygon.x(), polygon.z(), arc.x(), arc.z());
  EXPECT_LE((tip - polygon).norm(), 1e-6);
  EXPECT_LE((tip - arc).norm(),
            dl * dl);  // second order: measured 4.2e-4 m with dl^2 = 6.4e-4 m^2 / L
}

}  // namespace
}  // namespace tendril
