#include "tendril/vine3d/step_derivatives3d.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include <Eigen/SparseLU>
#include <unsupported/Eigen/AutoDiff>

#include "tendril/vine3d/bending_joints.hpp"
#include "tendril/vine3d/contact_rows.hpp"

namespace tendril::vine3d {

namespace {

/// Seeds of one term: body a's (dp, dtheta, dv, domega) at 0..11, body b's at 12..23, two
/// scalars at 24, 25.
using Derivative = Eigen::Matrix<double, 26, 1>;
using AD = Eigen::AutoDiffScalar<Derivative>;
using V3 = Vec3T<AD>;
constexpr int kScalar0 = 24;

/// A scalar seed's columns of dr: (global column, weight) pairs.
using SeedColumns = std::vector<std::pair<int, double>>;

/// What a term's derivatives are scattered to.
struct Scatter {
  MatX& dr;              ///< d(r1; r2)/dtheta
  int body_a = -1;       ///< the body of seeds 0..11 (-1: none)
  int body_b = -1;       ///< the body of seeds 12..23 (-1: none)
  SeedColumns extra[2];  ///< the columns of seeds 24, 25

  void add(int row, const AD& value) const {
    const Derivative& d = value.derivatives();
    for (int l = 0; l < 24; ++l) {
      const int body = l < 12 ? body_a : body_b;
      if (body >= 0 && d(l) != 0.0) dr(row, 12 * body + l % 12) += d(l);
    }
    for (int k = 0; k < 2; ++k)
      for (const auto& [column, weight] : extra[k]) dr(row, column) += weight * d(kScalar0 + k);
  }
  /// Rows first .. first + 2 get v.
  void add(int first, const V3& v) const {
    for (int k = 0; k < 3; ++k) add(first + k, v(k));
  }
};

/// A body's pose and velocities with their seeds from `first` (0 or 12): r = exp(dtheta) r_k to
/// first order, the quaternion (1, dtheta / 2) r_k.
struct SeededBody {
  V3 p, v, omega;
  QuatT<AD> r;
};

SeededBody seeded(const Vine3dState& s, int body, int first) {
  SeededBody out;
  V3 delta;
  for (int k = 0; k < 3; ++k) {
    out.p(k) = AD(s.position[body](k), Derivative::Unit(first + k));
    delta(k) = AD(0.0, Derivative::Unit(first + 3 + k));
    out.v(k) = AD(s.velocity(6 * body + k), Derivative::Unit(first + 6 + k));
    out.omega(k) = AD(s.velocity(6 * body + 3 + k), Derivative::Unit(first + 9 + k));
  }
  out.r = QuatT<AD>(AD(1.0), 0.5 * delta.x(), 0.5 * delta.y(), 0.5 * delta.z()) *
          s.orientation[body].cast<AD>();
  return out;
}

V3 constant(const Vec3& v) {
  return v.cast<AD>();
}

/// The data every term reads.
struct Linearisation {
  const Vine3dStepper& stepper;
  const Vine3dModel& model;
  const Vine3dState& start;
  const VecX& next;  ///< V_{k+1}
  double dt, m_ref;
  int nx, nk, np;
  int col_k() const { return nx; }
  int col_c() const { return nx + nk; }
  int col_u() const { return nx + 2 * nk; }
};

/// Body i's part of r1: P V_{k+1} + c of the mass block, gravity and gyroscopic torque,
///   (m'_i v' - m_i v - Delta t m_i g) / m_ref,
///   (m'_i / m0_i R D R^T omega' - m_i / m0_i (R D R^T omega - Delta t omega x R D R^T omega)) /
///   m_ref,
/// with m_i = body_mass (seed 24: the tip's everted mass a function of the prismatic joints) and
/// m'_i its mass after the step (seed 25).
void body_terms(const Linearisation& x, int i, MatX& dr) {
  const Vine3dModel& m = x.model;
  Scatter out{dr, i, -1, {}};
  const double mass_value = body_mass(m, x.start, i);
  double gained = 0.0;
  if (i == m.num_bodies - 1 && m.everted_density > 0.0) {
    // m_i = m0_i + lambda max(0, grown length), m'_i = m_i + max(0, lambda Delta t sum_j u_j)
    if (grown_length(m, x.start) > 0.0)
      for (int j = 0; j < m.num_prismatic(); ++j) {
        const int b = m.prismatic_body(j);
        const Vec3 h = x.start.position[b] - x.start.position[b - 1];
        const Vec3 hhat = h / h.norm();
        for (int k = 0; k < 3; ++k) {
          out.extra[0].emplace_back(12 * b + k, m.everted_density * hhat(k));
          out.extra[0].emplace_back(12 * (b - 1) + k, -m.everted_density * hhat(k));
        }
      }
    out.extra[1] = out.extra[0];
    gained = m.everted_density * m.dt * x.stepper.last_joint_rates().sum();
    if (gained > 0.0)
      for (int j = 0; j < m.num_prismatic(); ++j)
        out.extra[1].emplace_back(x.col_u() + j, m.everted_density * m.dt);
  }
  const AD mass(mass_value, Derivative::Unit(kScalar0));
  const AD mass_next(mass_value + std::max(0.0, gained), Derivative::Unit(kScalar0 + 1));
  const SeededBody b = seeded(x.start, i, 0);
  const Mat3T<AD> r = b.r.toRotationMatrix();
  const Vec3 diag(m.axial_inertia[i], m.transverse_inertia[i], m.transverse_inertia[i]);
  const Mat3T<AD> inertia = r * diag.cast<AD>().asDiagonal() * r.transpose();
  const V3 v_next = constant(x.next.segment<3>(6 * i));
  const V3 omega_next = constant(x.next.segment<3>(6 * i + 3));
  const V3 spin = inertia * b.omega;
  out.add(6 * i,
          V3((mass_next * v_next - mass * b.v - (x.dt * mass) * m.gravity.cast<AD>()) / x.m_ref));
  out.add(6 * i + 3,
          V3((mass_next * (inertia * omega_next) - mass * (spin - x.dt * b.omega.cross(spin))) /
             (m.mass[i] * x.m_ref)));
}

/// Bending joint j's part of r1 on its bodies' rotations: -Delta t tau / m_ref on the distal body
/// and + on the parent, tau at (q_k, V_k) (explicit springs) or the spring at q_k and
/// (Delta t^2 K + Delta t C) B^T B (omega'_b - omega'_a) / m_ref in P (implicit springs).
/// Seeds: the parent 0..11, the body 12..23, K_j 24, C_j 25.
void bending_terms(const Linearisation& x, int j, MatX& dr) {
  const Vine3dModel& m = x.model;
  const int b = m.bending_body(j);
  Scatter out{dr, b > 0 ? b - 1 : -1, b, {{{x.col_k() + j, 1.0}}, {{x.col_c() + j, 1.0}}}};
  const SeededBody body = seeded(x.start, b, 12);
  SeededBody parent;
  if (b > 0) {
    parent = seeded(x.start, b - 1, 0);
  } else {
    parent.r = m.base_frame.cast<AD>();
    parent.omega.setZero();
  }
  const AD stiffness(m.stiffness[j], Derivative::Unit(kScalar0));
  const AD damping(m.damping[j], Derivative::Unit(kScalar0 + 1));
  const bool implicit = m.springs == SpringIntegration::implicit;
  const V3 torque = bend_torque(m, j, parent.r, body.r, V3(body.omega - parent.omega), stiffness,
                                damping, !implicit);
  V3 term = -x.dt / x.m_ref * torque;
  if (implicit) {
    V3 phi;
    const Eigen::Matrix<AD, 2, 3> rate_map = bend_rate_map(parent.r, body.r, phi);
    V3 relative_next = constant(x.next.segment<3>(6 * b + 3));
    if (b > 0) relative_next -= constant(x.next.segment<3>(6 * (b - 1) + 3));
    term += (x.dt * x.dt * stiffness + x.dt * damping) / x.m_ref *
            (rate_map.transpose() * (rate_map * relative_next));
  }
  out.add(6 * b + 3, term);
  if (b > 0) out.add(6 * (b - 1) + 3, V3(-term));
}

/// Equality row r's part: -a^T y on r1 and a . V_{k+1} - rhs on r2 (row `kkt_row`); growth rows'
/// rhs + u_j.
void equality_terms(const Linearisation& x, int r, int kkt_row, double y, MatX& dr) {
  const Vine3dModel& m = x.model;
  const JointRow& row = x.stepper.rows()[r];
  Scatter out{dr, row.body_a, row.body_b, {}};
  RowBodiesT<AD> bodies;
  if (row.body_a >= 0) {
    const SeededBody a = seeded(x.start, row.body_a, 0);
    bodies.p_a = a.p;
    bodies.r_a = a.r;
    bodies.velocity.head<3>() = a.v;
    bodies.velocity.segment<3>(3) = a.omega;
  } else {
    bodies.p_a = constant(m.base);
    bodies.r_a = m.base_frame.cast<AD>();
  }
  const SeededBody b = seeded(x.start, row.body_b, 12);
  bodies.p_b = b.p;
  bodies.r_b = b.r;
  bodies.velocity.segment<3>(6) = b.v;
  bodies.velocity.segment<3>(9) = b.omega;
  Eigen::Matrix<AD, 12, 1> a;
  AD rhs;
  evaluate_row(row, bodies, m.dt, m.growth_lookahead, a, rhs);
  AD r2 = -rhs;
  for (int l = 0; l < 12; ++l) {
    const int body = l < 6 ? row.body_a : row.body_b;
    if (body < 0) continue;
    out.add(6 * body + l % 6, AD(-y * a(l)));
    r2 += a(l) * x.next(6 * body + l % 6);
  }
  out.add(kkt_row, r2);
  const int first_growth = static_cast<int>(x.stepper.rows().size()) - m.num_prismatic();
  if (r >= first_growth) dr(kkt_row, x.col_u() + r - first_growth) -= 1.0;
}

/// The offset s of a contact point as a function of the body's pose: the closest point's interior
/// offset moves with q as d/ds sd(p + s e) = n(p + s e) . e = 0 holds (implicit function; seed
/// 24 is s), an end's offset is fixed.
AD moving_offset(const Obstacle3& obstacle, const SeededBody& body, const V3& axis, double s,
                 bool interior) {
  if (!interior) return AD(s);
  const AD s_seed(s, Derivative::Unit(kScalar0));
  V3 n;
  signed_distance(obstacle, V3(body.p + s_seed * axis), n);
  const Derivative g = n.dot(axis).derivatives();
  if (g(kScalar0) == 0.0) return AD(s);  // sd flat along the axis: s undetermined, held
  Derivative ds = -g / g(kScalar0);
  ds(kScalar0) = 0.0;
  return AD(s, ds);
}

/// Contact point `point` (A_in's rows point * rows_per_point ..) as functions of its body's pose
/// (seeds 0..11): the arm from the body's centre, the pyramid's directions and the gap Phi.
struct ContactPoint {
  int point = -1;
  int body = -1;
  V3 arm;
  std::array<V3, 4> directions;
  int count = 0;
  AD phi;
};

ContactPoint contact_point(const Linearisation& x, int point) {
  const Vine3dModel& m = x.model;
  const Vine3dStepper::Pair pair = x.stepper.contact_pairs()[point / 3];
  const Obstacle3& obstacle = m.obstacles[pair.obstacle];
  const int i = pair.body, along = point % 3;
  const double d = m.half_length[i];
  const double s = along == 0 ? pair.offset : along == 1 ? -d : d;
  ContactPoint c{point, i};
  const SeededBody body = seeded(x.start, i, 0);
  const V3 axis = body.r.toRotationMatrix().col(0);
  c.arm = moving_offset(obstacle, body, axis, s, along == 0 && std::abs(s) < d) * axis;
  c.phi = contact_directions(obstacle, V3(body.p + c.arm), m.contact_radius, m.friction,
                             m.contact_gap, c.directions, c.count);
  return c;
}

/// Active contact row `edge` of point c (`kkt_row` in the KKT system) with multiplier z: -a^T z on
/// the body's r1 and a . V_{k+1} - rhs on r2, a = (d, arm x d), rhs = -Phi / Delta t.
void contact_terms(const Linearisation& x, const ContactPoint& c, int edge, int kkt_row, double z,
                   MatX& dr) {
  if (edge >= c.count) return;  // a row 0 >= -1 that never binds
  const int i = c.body;
  Scatter out{dr, i, -1, {}};
  const V3& dir = c.directions[edge];
  const V3 moment = c.arm.cross(dir);
  AD r2 = c.phi / x.model.dt;
  for (int k = 0; k < 3; ++k) {
    out.add(6 * i + k, AD(-z * dir(k)));
    out.add(6 * i + 3 + k, AD(-z * moment(k)));
    r2 += dir(k) * x.next(6 * i + k) + moment(k) * x.next(6 * i + 3 + k);
  }
  out.add(kkt_row, r2);
}

/// The left Jacobian of SO(3), J_l(phi) = J_r(phi)^T = (J_r^-1(phi)^T)^-1.
Mat3 left_jacobian(const Vec3& phi) {
  return right_jacobian_inverse(phi).transpose().inverse();
}

/// The KKT matrix [P -A^T; A 0] of the step's data with the inequality rows `active`.
SparseMatrix kkt_matrix(const qp::QpProblem& problem, const std::vector<int>& active) {
  const int nv = static_cast<int>(problem.c.size());
  const int m_eq = static_cast<int>(problem.b_eq.size());
  const int size = nv + m_eq + static_cast<int>(active.size());
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int k = 0; k < problem.P.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(problem.P, k); it; ++it)
      entries.emplace_back(it.row(), it.col(), it.value());
  const auto add_rows = [&](const SparseMatrix& a, int row, int first) {
    for (int k = 0; k < a.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(a, k); it; ++it)
        if (it.row() == row) {
          entries.emplace_back(first, it.col(), it.value());
          entries.emplace_back(it.col(), first, -it.value());
        }
  };
  for (int r = 0; r < m_eq; ++r) add_rows(problem.A_eq, r, nv + r);
  for (std::size_t a = 0; a < active.size(); ++a)
    add_rows(problem.A_in, active[a], nv + m_eq + static_cast<int>(a));
  SparseMatrix kkt(size, size);
  kkt.setFromTriplets(entries.begin(), entries.end());
  return kkt;
}

}  // namespace

Vine3dStepDerivatives step_derivatives(const Vine3dStepper& stepper, double active_threshold) {
  Vine3dStepDerivatives out;
  const qp::QpSolution& solution = stepper.last_solution();
  if (solution.status != qp::QpStatus::solved) return out;
  const Vine3dModel& model = stepper.model();
  const int nb = model.num_bodies, nv = 6 * nb, nx = 12 * nb;
  const int nk = model.num_bending(), np = model.num_prismatic();
  std::vector<int> active;
  for (int r = 0; r < static_cast<int>(solution.z_in.size()); ++r)
    if (solution.z_in(r) > active_threshold) active.push_back(r);
  out.active_inequalities = static_cast<int>(active.size());

  const qp::QpProblem& problem = stepper.last_problem();
  const int m_eq = static_cast<int>(problem.b_eq.size());
  Eigen::SparseLU<SparseMatrix> lu(kkt_matrix(problem, active));
  if (lu.info() != Eigen::Success) return out;

  // dr/dtheta at the fixed solution (V, lambda), term by term with AutoDiff
  const Linearisation x{
      stepper, model, stepper.last_start(), solution.x, model.dt, stepper.mass_scale(), nx, nk, np};
  const int columns = nx + 2 * nk + np;
  MatX dr = MatX::Zero(nv + m_eq + static_cast<int>(active.size()), columns);
  for (int i = 0; i < nb; ++i) body_terms(x, i, dr);
  for (int j = 0; j < nk; ++j) bending_terms(x, j, dr);
  for (int r = 0; r < m_eq; ++r) equality_terms(x, r, nv + r, solution.y_eq(r), dr);
  // a point's rows are consecutive in A_in: its geometry once for all of them
  const int per_point = stepper.rows_per_point();
  ContactPoint point;
  for (std::size_t a = 0; a < active.size(); ++a) {
    const int r = active[a];
    if (point.point != r / per_point) point = contact_point(x, r / per_point);
    contact_terms(x, point, r % per_point, nv + m_eq + static_cast<int>(a), solution.z_in(r), dr);
  }
  const MatX dz = lu.solve(MatX(-dr));
  if (!dz.allFinite()) return out;

  // through the update: x_{k+1} = (p + dt v', exp(dt omega') r, v', omega')
  const double dt = model.dt;
  MatX dx = MatX::Zero(nx, columns);
  for (int i = 0; i < nb; ++i) {
    const Vec3 phi = dt * solution.x.segment<3>(6 * i + 3);
    const Mat3 rotation = rotation_exp(phi).toRotationMatrix();
    const Mat3 jacobian = dt * left_jacobian(phi);
    const auto dv = dz.middleRows(6 * i, 3), domega = dz.middleRows(6 * i + 3, 3);
    dx.middleRows(12 * i, 3) = dt * dv;
    dx.middleRows(12 * i + 3, 3) = jacobian * domega;
    dx.middleRows(12 * i + 6, 3) = dv;
    dx.middleRows(12 * i + 9, 3) = domega;
    // the state's own part: p and theta carried over
    dx.block<3, 3>(12 * i, 12 * i) += Mat3::Identity();
    dx.block<3, 3>(12 * i + 3, 12 * i + 3) += rotation;
  }
  out.dx_dx = dx.leftCols(nx);
  out.dx_dK = dx.middleCols(nx, nk);
  out.dx_dC = dx.middleCols(nx + nk, nk);
  out.dx_du = dx.rightCols(np);
  out.ok = true;
  return out;
}

}  // namespace tendril::vine3d
