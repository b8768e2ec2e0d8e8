#include "tendril/vine/step_kkt.hpp"

#include <vector>

#include <unsupported/Eigen/AutoDiff>

#include "tendril/vine/applied_forces.hpp"

namespace tendril::vine {

namespace {

using Derivative = Eigen::Matrix<double, 12, 1>;  // d/d(q_local (6), v_local (6))
using AD = Eigen::AutoDiffScalar<Derivative>;

using Triplets = std::vector<Eigen::Triplet<double, int>>;

/// The active rows: every equality, the inequalities with z_i > threshold, and their multipliers.
void select_active_rows(const VineStepper& stepper, double active_threshold, StepKkt& out) {
  const QpSolution& sol = stepper.last_solution();
  out.rows.clear();
  out.lambda.clear();
  out.active_inequalities = 0;
  for (int r = 0; r < static_cast<int>(stepper.equality_rows().size()); ++r) {
    out.rows.push_back(&stepper.equality_rows()[r]);
    out.lambda.push_back(sol.y_eq(r));
  }
  for (int r = 0; r < static_cast<int>(stepper.inequality_rows().size()); ++r)
    if (sol.z_in(r) > active_threshold) {
      out.rows.push_back(&stepper.inequality_rows()[r]);
      out.lambda.push_back(sol.z_in(r));
      ++out.active_inequalities;
    }
}

/// The objective's part: P into the KKT matrix and -dr1/dtheta of c = -(M v_k + Delta t F) / m_ref
/// (eq. 7, 8) into `rhs`; implicit springs: F without dampers and P = (M + dt^2 R K R^T + dt R C
/// R^T) / m_ref, so dP/dK_j v and dP/dC_j v enter r1 too.
void objective_derivatives(const VineStepper& stepper, const StepKkt& out, MatX& rhs,
                           Triplets& kkt) {
  const VineModel& m = stepper.model();
  const int n = out.n;
  const double dt = m.dt;
  const double m_ref = stepper.mass_scale();
  const VecX& q = stepper.last_q();
  const VecX& v = stepper.last_v();
  const VecX& v_next = stepper.last_solution().x;
  const SparseMatrix& p_matrix = stepper.last_problem().P;
  for (int col = 0; col < n; ++col)
    for (SparseMatrix::InnerIterator it(p_matrix, col); it; ++it)
      kkt.emplace_back(it.row(), col, it.value());

  const bool implicit = m.springs == SpringIntegration::implicit;
  VecX mass(n);
  for (int i = 0; i < m.num_bodies; ++i)
    mass.segment<3>(3 * i) << m.mass[i], m.mass[i], m.inertia[i];
  for (int i = 0; i < n; ++i) rhs(i, out.col_v + i) += mass(i) / m_ref;
  VecX e_j(n);
  for (int j = 0; j < out.pins; ++j) {
    e_j.setZero();
    add_pin_torque(m, j, 1.0, e_j);
    // c holds -dt/m_ref tau_j e_j with tau_j = -M(dev_j) - C_j thetadot_j (explicit), so
    // -dc/dp = -dt/m_ref dM/dp e_j for a parameter p of the moment: dM/ddev = M' for q_k (and
    // -M' for the rest angle), dev_j for K_j (linear law), the law's sensitivities for M_c, theta_w
    const double dev = pin_angle_deviation(m, q, j);
    const BendingMoment law = pin_moment(m, j, dev);
    rhs.block(0, 0, n, n) -= dt / m_ref * law.stiffness * e_j * e_j.transpose();
    rhs.col(out.col_rest + j).head(n) += dt / m_ref * law.stiffness * e_j;
    InflatedBeamSensitivity beam;
    if (m.bending_law == BendingLaw::linear) {
      rhs.col(out.col_k + j).head(n) -= dt / m_ref * dev * e_j;
    } else {
      beam = inflated_beam_sensitivity(m.inflated_beam, dev, law);
      rhs.col(out.col_law).head(n) -= dt / m_ref * beam.moment_collapse * e_j;
      rhs.col(out.col_law + 1).head(n) -= dt / m_ref * beam.moment_angle * e_j;
    }
    if (implicit) {
      // P v_{k+1} holds dt^2/m_ref K_t(dev_j) thetadot_{k+1} e_j: K_t = K_j (linear) or M'(dev_j)
      const double rate_next = e_j.dot(v_next);
      const double p_scale = dt * dt / m_ref * rate_next;
      if (m.bending_law == BendingLaw::linear) {
        rhs.col(out.col_k + j).head(n) -= p_scale * e_j;
      } else {
        rhs.block(0, 0, n, n) -= p_scale * law.second_derivative * e_j * e_j.transpose();
        rhs.col(out.col_rest + j).head(n) += p_scale * law.second_derivative * e_j;
        rhs.col(out.col_law).head(n) -= p_scale * beam.stiffness_collapse * e_j;
        rhs.col(out.col_law + 1).head(n) -= p_scale * beam.stiffness_angle * e_j;
      }
      rhs.col(out.col_c + j).head(n) -= dt / m_ref * rate_next * e_j;
    } else {
      // explicit dampers: dc/dv adds dt/m_ref C_j e_j e_j^T; dc/dC_j = dt/m_ref thetadot_j e_j
      rhs.block(0, out.col_v, n, n) -= dt / m_ref * m.damping[j] * e_j * e_j.transpose();
      rhs.col(out.col_c + j).head(n) -= dt / m_ref * pin_angle_rate(m, v, j) * e_j;
    }
  }
}

/// The constraint rows' part: A into the KKT matrix, -(dA/dtheta)^T lambda into r1 and
/// (dA/dtheta) v_{k+1} - db/dtheta into r2 (rows differentiated with AutoDiff).
void row_derivatives(const VineStepper& stepper, const StepKkt& out, MatX& rhs, Triplets& kkt) {
  const int n = out.n;
  const int m_eq = static_cast<int>(stepper.equality_rows().size());
  const VecX& v_next = stepper.last_solution().x;
  Eigen::Matrix<AD, 6, 1> ql, vl, al;
  AD rhs_ad;
  VecN<6> qd, vd;
  for (int r = 0; r < static_cast<int>(out.rows.size()); ++r) {
    const RowSpec& row = *out.rows[r];
    stepper.gather_local(row, stepper.last_q(), stepper.last_v(), qd, vd);
    for (int l = 0; l < 6; ++l) {
      ql(l) = AD(qd(l), Derivative::Unit(l));
      vl(l) = AD(vd(l), Derivative::Unit(6 + l));
    }
    evaluate_row<AD>(row, stepper.row_context(row), ql, vl, al, rhs_ad);
    Derivative dr2 = -rhs_ad.derivatives();
    for (int l = 0; l < 6; ++l) {
      const int g = row_global_dof(row, l);
      if (g < 0) continue;
      const double a_value = al(l).value();
      if (a_value != 0.0 || row_entry_used(row.kind, l)) {
        kkt.emplace_back(n + r, g, a_value);
        kkt.emplace_back(g, n + r, -a_value);
      }
      dr2 += v_next(g) * al(l).derivatives();
      for (int k = 0; k < 12; ++k) {
        const int gk = row_global_dof(row, k % 6);
        if (gk < 0) continue;
        const int col = k < 6 ? gk : out.col_v + gk;
        rhs(g, col) += out.lambda[r] * al(l).derivatives()(k);
      }
    }
    for (int k = 0; k < 12; ++k) {
      const int gk = row_global_dof(row, k % 6);
      if (gk < 0) continue;
      rhs(n + r, k < 6 ? gk : out.col_v + gk) -= dr2(k);
    }
    if (row.kind == RowKind::growth) {
      const int j = r - (m_eq - out.prismatic);  // growth rows are the last equality rows
      rhs(n + r, out.col_u + j) += 1.0;
    }
    // contact rows' right-hand side -(sd - r_c) / dt
    if (row.kind == RowKind::contact) rhs(n + r, out.col_radius) += 1.0 / stepper.model().dt;
  }
}

}  // namespace

bool linearise_step(const VineStepper& stepper, double active_threshold, StepKkt& out) {
  const VineModel& m = stepper.model();
  // force-limited growth (growth caps among the inequalities, actuator force in c) is not
  // differentiated
  if (stepper.last_solution().status != QpStatus::solved ||
      m.growth_control == GrowthControl::force_limited)
    return false;
  const int n = m.num_dofs();
  out.n = n;
  out.pins = m.num_pins();
  out.prismatic = m.num_prismatic();
  select_active_rows(stepper, active_threshold, out);
  const int m_act = static_cast<int>(out.rows.size());

  // parameter columns: q (n) | v (n) | K (#pins) | C (#pins) | u (#prismatic) | theta_bar (#pins)
  // | r_c | M_c, theta_w
  out.col_v = n;
  out.col_k = 2 * n;
  out.col_c = 2 * n + out.pins;
  out.col_u = 2 * n + 2 * out.pins;
  out.col_rest = out.col_u + out.prismatic;
  out.col_radius = out.col_rest + out.pins;
  out.col_law = out.col_radius + 1;
  out.num_params = out.col_law + 2;
  MatX rhs = MatX::Zero(n + m_act, out.num_params);  // -[dr1/dtheta; dr2/dtheta]
  Triplets kkt;
  objective_derivatives(stepper, out, rhs, kkt);
  row_derivatives(stepper, out, rhs, kkt);

  out.matrix.resize(n + m_act, n + m_act);
  out.matrix.setFromTriplets(kkt.begin(), kkt.end());
  out.matrix.makeCompressed();
  out.lu = std::make_unique<Eigen::SparseLU<SparseMatrix>>();
  out.lu->compute(out.matrix);
  if (out.lu->info() != Eigen::Success) return false;
  out.dx = out.lu->solve(rhs);
  return out.lu->info() == Eigen::Success && out.dx.allFinite();
}

}  // namespace tendril::vine
