#include "tendril/vine3d/step_derivatives3d.hpp"

#include <Eigen/SparseLU>

namespace tendril::vine3d {

namespace {

/// The KKT residuals (r1; r2) of the stepper's current QP data at the fixed solution (x, lambda),
/// with the inequality rows `active` among the constraints.
VecX kkt_residual(const qp::QpProblem& problem, const qp::QpSolution& solution,
                  const std::vector<int>& active) {
  const int n = static_cast<int>(solution.x.size());
  const int m_eq = static_cast<int>(problem.b_eq.size());
  VecX r(n + m_eq + static_cast<int>(active.size()));
  r.head(n) = problem.P * solution.x + problem.c - problem.A_eq.transpose() * solution.y_eq;
  r.segment(n, m_eq) = problem.A_eq * solution.x - problem.b_eq;
  for (std::size_t a = 0; a < active.size(); ++a) {
    const int row = active[a];
    r.head(n) -= problem.A_in.row(row).transpose() * solution.z_in(row);
    r(n + m_eq + static_cast<int>(a)) = problem.A_in.row(row).dot(solution.x) - problem.b_in(row);
  }
  return r;
}

/// The state moved along tangent direction `k` (12 per body: p, theta, v, omega) by h.
Vine3dState moved(const Vine3dState& s, int k, double h) {
  Vine3dState out = s;
  const int body = k / 12, part = (k % 12) / 3, axis = k % 3;
  const Vec3 delta = h * Vec3::Unit(axis);
  if (part == 0) out.position[body] += delta;
  if (part == 1) out.orientation[body] = rotation_exp(delta) * s.orientation[body];
  if (part >= 2) out.velocity(6 * body + 3 * (part - 2) + axis) += h;
  return out;
}

/// The left Jacobian of SO(3), J_l(phi) = J_r(phi)^T = (J_r^-1(phi)^T)^-1.
Mat3 left_jacobian(const Vec3& phi) {
  return right_jacobian_inverse(phi).transpose().inverse();
}

}  // namespace

Vine3dStepDerivatives step_derivatives(Vine3dStepper& stepper, double active_threshold) {
  Vine3dStepDerivatives out;
  const qp::QpSolution solution = stepper.last_solution();
  if (solution.status != qp::QpStatus::solved) return out;
  const Vine3dModel& model = stepper.model();
  const std::vector<double> stiffness = model.stiffness, damping = model.damping;
  const Vine3dState start = stepper.last_start();
  const VecX rates = stepper.last_joint_rates();
  const int nb = model.num_bodies, nv = 6 * nb, nx = 12 * nb;
  const int nk = model.num_bending(), np = model.num_prismatic();
  std::vector<int> active;
  for (int r = 0; r < static_cast<int>(solution.z_in.size()); ++r)
    if (solution.z_in(r) > active_threshold) active.push_back(r);
  out.active_inequalities = static_cast<int>(active.size());

  // the KKT matrix [P -A^T; A 0] at the step's data
  stepper.assemble_at(start, rates, stiffness, damping);
  const qp::QpProblem& problem = stepper.last_problem();
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
  Eigen::SparseLU<SparseMatrix> lu(kkt);
  if (lu.info() != Eigen::Success) {
    stepper.assemble_at(start, rates, stiffness, damping);
    return out;
  }

  // dr/dtheta by central differences of the assembly, one column per state tangent and parameter
  const int columns = nx + 2 * nk + np;
  MatX dr(size, columns);
  const double h = 1e-6;
  for (int col = 0; col < columns; ++col) {
    VecX plus, minus;
    for (const double sign : {1.0, -1.0}) {
      Vine3dState state = start;
      VecX u = rates;
      std::vector<double> k = stiffness, c = damping;
      double step = h;
      if (col < nx) {
        state = moved(start, col, sign * h);
      } else if (col < nx + nk) {
        step = h * std::max(stiffness[col - nx], 1e-3);
        k[col - nx] += sign * step;
      } else if (col < nx + 2 * nk) {
        step = h * std::max(damping[col - nx - nk], 1e-5);
        c[col - nx - nk] += sign * step;
      } else {
        step = h * std::max(std::abs(rates(col - nx - 2 * nk)), 1e-3);
        u(col - nx - 2 * nk) += sign * step;
      }
      stepper.assemble_at(state, u, k, c);
      (sign > 0 ? plus : minus) = kkt_residual(stepper.last_problem(), solution, active);
      if (sign < 0) dr.col(col) = (plus - minus) / (2.0 * step);
    }
  }
  stepper.assemble_at(start, rates, stiffness, damping);
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
