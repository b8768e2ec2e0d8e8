#include "tendril/adjoint/robot_objective.hpp"

#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include <Eigen/Geometry>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::adjoint {
namespace {

void check_head(const Model& model, int head_edge, const Vec3& axis) {
  const int edges = static_cast<int>(model.rods.edges.size());
  if (head_edge < 0 || head_edge >= edges)
    throw InputError("head_edge", std::to_string(head_edge),
                     "a rod edge index in [0, " + std::to_string(edges) + ")");
  if (!(std::abs(axis.norm() - 1.0) < 1e-12))
    throw InputError("axis", number_text(axis.norm()) + " long", "a unit vector");
}

/// The spin angle of the head's material director about the axis, and its derivatives.
struct Spin {
  double angle = 0.0;             ///< atan2(m1 . e2, m1 . e1) [rad], not unwrapped
  double d_twist = 0.0;           ///< d angle / d theta = d angle / d phi
  Vec3 d_tangent = Vec3::Zero();  ///< d angle / d t (acting on dt normal to t)
};

/// m1 = cos(theta) a1 + sin(theta) a2 (a2 = t x a1); a perturbation (dq, phi) of the state carries
/// a1 to the new tangent by parallel transport (da1 = -(a1 . dt) t) and turns it by phi, so
/// dm1 = (dtheta + phi) m2 - cos(theta) (a1 . dt) t + sin(theta) dt x a1, and d angle = axis . (m1
/// x dm1) / rho^2, rho^2 = 1 - (m1 . axis)^2.
Spin spin(const Vec3& t, const Vec3& a1, double theta, const Vec3& axis, const Vec3& e1,
          const Vec3& e2) {
  const double c = std::cos(theta), s = std::sin(theta);
  const Vec3 m1 = c * a1 + s * t.cross(a1);
  const double rho2 = 1.0 - m1.dot(axis) * m1.dot(axis);
  Spin out;
  out.angle = std::atan2(m1.dot(e2), m1.dot(e1));
  out.d_twist = axis.dot(t) / rho2;
  out.d_tangent = (-c * axis.dot(m1.cross(t)) * a1 + s * a1.cross(axis.cross(m1))) / rho2;
  return out;
}

}  // namespace

std::vector<double> SlopeWindow::weights() const {
  if (!(dt > 0.0)) throw InputError("dt", number_text(dt), "a time step > 0 [s]");
  if (steps < 1) throw InputError("steps", std::to_string(steps), "an integer >= 1");
  std::vector<double> t(static_cast<std::size_t>(steps) + 1);
  t[0] = start;
  for (std::size_t k = 1; k < t.size(); ++k) t[k] = t[k - 1] + dt;
  double n = 0.0, sum = 0.0;
  for (double tk : t)
    if (tk >= steady_start) n += 1.0, sum += tk;
  if (n < 2.0)
    throw InputError("steady_start", number_text(steady_start) + " s",
                     "a time with at least two of the run's states at or after it");
  const double mean = sum / n;
  double stt = 0.0;
  for (double tk : t)
    if (tk >= steady_start) stt += (tk - mean) * (tk - mean);
  std::vector<double> w(t.size(), 0.0);
  for (std::size_t k = 0; k < t.size(); ++k)
    if (t[k] >= steady_start) w[k] = (t[k] - mean) / stt;
  return w;
}

Objective robot_speed(const Model& model, int head_edge, const Vec3& axis,
                      const SlopeWindow& window) {
  check_head(model, head_edge, axis);
  const auto& nodes = model.rods.edges[static_cast<std::size_t>(head_edge)];
  const int a = model.dofs.node(nodes[0]), b = model.dofs.node(nodes[1]);
  return {[a, b, axis, w = window.weights()](int step, const State& s, VecX& dq, VecX&) {
            const double wk = w[static_cast<std::size_t>(step)];
            if (wk == 0.0) return 0.0;
            dq.segment<3>(a) += 0.5 * wk * axis;
            dq.segment<3>(b) += 0.5 * wk * axis;
            return wk * 0.5 * (s.q.segment<3>(a) + s.q.segment<3>(b)).dot(axis);
          },
          {}};
}

Objective robot_head_rotation(const Model& model, int head_edge, const Vec3& axis,
                              const SlopeWindow& window) {
  check_head(model, head_edge, axis);
  const auto e = static_cast<std::size_t>(head_edge);
  const int a = model.dofs.node(model.rods.edges[e][0]),
            b = model.dofs.node(model.rods.edges[e][1]);
  const int twist = model.dofs.twist(head_edge);
  // the axis-normal basis of RobotObservables
  const Vec3 other = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 e1 = (other - other.dot(axis) * axis).normalized(), e2 = axis.cross(e1);
  const auto w = std::make_shared<const std::vector<double>>(window.weights());
  const auto previous = std::make_shared<double>(0.0);  // the last angle, for unwrapping
  const auto at = [=](const State& s) {
    return spin(s.frames.tangent[e], s.frames.reference_director[e], s.q[twist], axis, e1, e2);
  };
  Objective o;
  o.at_state = [=](int step, const State& s, VecX& dq, VecX&) {
    const Spin sp = at(s);
    double angle = sp.angle;
    const double two_pi = 2.0 * std::numbers::pi;
    if (step > 0) angle += two_pi * std::round((*previous - angle) / two_pi);
    *previous = angle;
    const double wk = (*w)[static_cast<std::size_t>(step)];
    if (wk == 0.0) return 0.0;
    // dt = (I - t t^T) (dx_b - dx_a) / |e|
    const Vec3& t = s.frames.tangent[e];
    const double length = (s.q.segment<3>(b) - s.q.segment<3>(a)).norm();
    const Vec3 dx = wk * (sp.d_tangent - t * t.dot(sp.d_tangent)) / length;
    dq.segment<3>(b) += dx;
    dq.segment<3>(a) -= dx;
    dq[twist] += wk * sp.d_twist;
    return wk * angle;
  };
  o.frame_angle_gradient = [=](int step, const State& s, VecX& dphi) {
    const double wk = (*w)[static_cast<std::size_t>(step)];
    if (wk != 0.0) dphi[static_cast<Eigen::Index>(e)] += wk * at(s).d_twist;
  };
  return o;
}

}  // namespace tendril::adjoint
