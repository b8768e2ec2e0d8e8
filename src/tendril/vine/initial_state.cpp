#include "tendril/vine/initial_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/qp/qp_solver.hpp"
#include "tendril/vine/constraint_rows.hpp"

namespace tendril::vine {

namespace {

/// Adds row `spec` evaluated at q (rhs with dt = 1: -c or -Phi) as row `row` of `triplets`.
double add_row(const VineModel& m, const RowSpec& spec, const VecX& q, int row,
               std::vector<Eigen::Triplet<double, int>>& triplets, double* phi = nullptr) {
  RowContext ctx;
  ctx.base = m.base;
  ctx.dt = 1.0;
  ctx.contact_radius = m.contact_radius;
  ctx.obstacle = spec.obstacle >= 0 ? &m.obstacles[spec.obstacle] : nullptr;
  VecN<6> ql = VecN<6>::Zero(), vl = VecN<6>::Zero(), al;
  if (spec.body_a >= 0) ql.head<3>() = q.segment<3>(3 * spec.body_a);
  ql.tail<3>() = q.segment<3>(3 * spec.body_b);
  double rhs = 0.0;
  evaluate_row<double>(spec, ctx, ql, vl, al, rhs, phi);
  for (int l = 0; l < 6; ++l) {
    const int body = l < 3 ? spec.body_a : spec.body_b;
    if (body >= 0 && row_entry_used(spec.kind, l))
      triplets.emplace_back(row, 3 * body + l % 3, al(l));
  }
  return rhs;
}

/// W = diag(1, 1, d_i^2): body displacements in metres.
SparseMatrix metric(const VineModel& m) {
  SparseMatrix w(m.num_dofs(), m.num_dofs());
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < m.num_bodies; ++i) {
    entries.emplace_back(3 * i, 3 * i, 1.0);
    entries.emplace_back(3 * i + 1, 3 * i + 1, 1.0);
    entries.emplace_back(3 * i + 2, 3 * i + 2, m.half_length[i] * m.half_length[i]);
  }
  w.setFromTriplets(entries.begin(), entries.end());
  return w;
}

/// The constraint error the projection accepts [m]: the QP solver's tolerance, to which it solves
/// every linearised step (a smaller violation gives no active row and no move), scaled like the
/// solver's residuals, by max(1, largest coordinate [m]) (round-off of the distances grows with
/// it).
double accepted_error(const VineModel& m, const VecX& q, double qp_tolerance) {
  double extent = std::max({1.0, std::abs(m.base.x()), std::abs(m.base.y())});
  for (int i = 0; i < m.num_bodies; ++i)
    extent = std::max(extent, q.segment<2>(3 * i).lpNorm<Eigen::Infinity>());
  return qp_tolerance * extent;
}

}  // namespace

ProjectionReport project_state(const VineModel& m, VineState& state, double tolerance,
                               const std::string& key) {
  const int n = m.num_dofs();
  const std::vector<RowSpec> joints = joint_row_specs(m.half_length);
  const int nj = static_cast<int>(joints.size());
  qp::QpSolver solver;
  const double target = accepted_error(m, state.q, solver.options().tolerance);
  qp::QpProblem qp;
  qp.P = metric(m);
  const VecX q0 = state.q;
  ProjectionReport report;
  std::vector<Eigen::Triplet<double, int>> eq, in;
  for (report.iterations = 0; report.iterations < 50; ++report.iterations) {
    eq.clear();
    in.clear();
    qp.b_eq.resize(nj);
    for (int r = 0; r < nj; ++r) qp.b_eq(r) = add_row(m, joints[r], state.q, r, eq);
    std::vector<double> b_in;
    report.min_distance = std::numeric_limits<double>::infinity();
    for (int e = 0; e < m.num_contact_elements(); ++e)
      for (int o = 0; o < static_cast<int>(m.obstacles.size()); ++o) {
        RowSpec r;
        r.kind = RowKind::contact;
        r.body_b = element_body(m, e);
        r.obstacle = o;
        const double phi = element_distance(m, state.q, e, o, r.d_b);
        report.min_distance = std::min(report.min_distance, phi);
        if (phi > std::max(tolerance, 1e-3))
          continue;  // far: cannot be reached by an accepted move
        b_in.push_back(add_row(m, r, state.q, static_cast<int>(b_in.size()), in));
      }
    report.joint_error = qp.b_eq.lpNorm<Eigen::Infinity>();
    if (report.joint_error <= target && report.min_distance >= -target) break;
    qp.A_eq.resize(nj, n);
    qp.A_eq.setFromTriplets(eq.begin(), eq.end());
    qp.A_in.resize(static_cast<int>(b_in.size()), n);
    qp.A_in.setFromTriplets(in.begin(), in.end());
    qp.b_in = Eigen::Map<const VecX>(b_in.data(), static_cast<int>(b_in.size()));
    qp.c.setZero(n);
    solver.reset_warm_start();
    const qp::QpSolution sol = solver.solve(qp);
    if (sol.status != qp::QpStatus::solved)
      throw InputError(
          key,
          fmt::format("a state the joint and contact constraints cannot be met from (QP {})",
                      to_string(sol.status)),
          "a state near one that meets the joints and keeps the bodies out of the obstacles");
    state.q += sol.x;
  }
  if (report.joint_error > target || report.min_distance < -target)
    throw InputError(
        key,
        fmt::format("a state whose projection stalls at joint error {:.3g} m, distance {:.3g} m",
                    report.joint_error, report.min_distance),
        "a state near one that meets the joints and keeps the bodies out of the obstacles");
  for (int i = 0; i < m.num_bodies; ++i) {
    const double move = (state.q.segment<2>(3 * i) - q0.segment<2>(3 * i)).norm() +
                        m.half_length[i] * std::abs(state.q(3 * i + 2) - q0(3 * i + 2));
    if (move > report.max_move) {
      report.max_move = move;
      report.moved_body = i;
    }
  }
  if (report.max_move > tolerance)
    throw InputError(
        key,
        fmt::format("a state {:.3g} m (body {}) from the nearest one meeting the joint and contact "
                    "constraints",
                    report.max_move, report.moved_body),
        fmt::format("a state within vine.initial_state.tolerance = {:.3g} m of it", tolerance));
  // velocities: the nearest v with J v = 0, unless J v is already within the solver's tolerance
  eq.clear();
  for (int r = 0; r < nj; ++r) add_row(m, joints[r], state.q, r, eq);
  qp.A_eq.resize(nj, n);
  qp.A_eq.setFromTriplets(eq.begin(), eq.end());
  const double v_scale = std::max(1.0, state.v.lpNorm<Eigen::Infinity>());
  if ((qp.A_eq * state.v).lpNorm<Eigen::Infinity>() > solver.options().tolerance * v_scale) {
    qp.b_eq.setZero(nj);
    qp.A_in.resize(0, n);
    qp.b_in.resize(0);
    qp.c = -(qp.P * state.v);
    const qp::QpSolution sol = solver.solve(qp);
    if (sol.status == qp::QpStatus::solved) state.v = sol.x;
  }
  return report;
}

VineState state_from_centerline(const VineModel& m, const std::vector<Vec2>& points,
                                double tolerance, const std::string& key,
                                ProjectionReport* report) {
  if (points.size() < 2)
    throw InputError(key, fmt::format("{} points", points.size()), "at least 2 points, base first");
  std::vector<double> arc(points.size(), 0.0);
  for (std::size_t i = 1; i < points.size(); ++i)
    arc[i] = arc[i - 1] + (points[i] - points[i - 1]).norm();
  double bodies = 0.0;
  for (double d : m.half_length) bodies += 2.0 * d;
  const double extension = m.num_prismatic() > 0 ? (arc.back() - bodies) / m.num_prismatic() : 0.0;
  if (extension < 0.0 || (m.num_prismatic() == 0 && std::abs(arc.back() - bodies) > tolerance))
    throw InputError(
        key, fmt::format("a centre-line {:.6g} m long", arc.back()),
        fmt::format("a centre-line at least as long as the bodies ({:.6g} m)", bodies));
  const auto at = [&](double s) {  // point at arc length s
    std::size_t i = 1;
    while (i + 1 < points.size() && arc[i] < s) ++i;
    const double span = arc[i] - arc[i - 1];
    const double t = span > 0.0 ? std::clamp((s - arc[i - 1]) / span, 0.0, 1.0) : 0.0;
    return Vec2(points[i - 1] + t * (points[i] - points[i - 1]));
  };
  VineState state;
  state.q.setZero(m.num_dofs());
  state.v.setZero(m.num_dofs());
  double s = 0.0;
  for (int i = 0; i < m.num_bodies; ++i) {
    if (i % 2 == 1) s += extension;
    const Vec2 a = at(s), b = at(s + 2.0 * m.half_length[i]);
    const Vec2 e = (b - a).norm() > 0.0 ? Vec2((b - a).normalized()) : Vec2(Vec2::UnitX());
    state.q.segment<2>(3 * i) = a + m.half_length[i] * e;
    // angles continuous along the vine (and from the base pin's rest angle), not wrapped to (-pi,
    // pi]
    const double previous =
        i > 0 ? state.q(3 * (i - 1) + 2) : (m.rest_angle.empty() ? 0.0 : m.rest_angle[0]);
    const double turn = std::atan2(e.y(), e.x()) - previous;
    state.q(3 * i + 2) = previous + std::remainder(turn, 2.0 * M_PI);
    s += 2.0 * m.half_length[i];
  }
  const ProjectionReport r = project_state(m, state, tolerance, key);
  if (report) *report = r;
  return state;
}

}  // namespace tendril::vine
