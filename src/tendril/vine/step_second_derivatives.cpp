#include "tendril/vine/step_second_derivatives.hpp"

#include <unsupported/Eigen/AutoDiff>

#include "tendril/core/error.hpp"
#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/step_kkt.hpp"

namespace tendril::vine {
namespace {
using Inner = Eigen::AutoDiffScalar<VecN<12>>;                     // first derivatives
using Outer = Eigen::AutoDiffScalar<Eigen::Matrix<Inner, 12, 1>>;  // and their derivatives
}  // namespace
}  // namespace tendril::vine

// the row templates scale vectors of the nested scalar by doubles
namespace Eigen {
template <class BinaryOp>
struct ScalarBinaryOpTraits<double, tendril::vine::Outer, BinaryOp> {
  using ReturnType = tendril::vine::Outer;
};
template <class BinaryOp>
struct ScalarBinaryOpTraits<tendril::vine::Outer, double, BinaryOp> {
  using ReturnType = tendril::vine::Outer;
};
}  // namespace Eigen

namespace tendril::vine {

namespace {

void read(const Outer& f, double& value, VecN<12>& gradient, MatN<12>& hessian) {
  value = f.value().value();
  gradient = f.value().derivatives();
  for (int k = 0; k < 12; ++k) hessian.row(k) = f.derivatives()(k).derivatives().transpose();
}

}  // namespace

RowSecondDerivatives row_second_derivatives(const RowSpec& row, const RowContext& context,
                                            const VecN<6>& q_local, const VecN<6>& v_local) {
  Eigen::Matrix<Outer, 6, 1> ql, vl, al;
  for (int l = 0; l < 6; ++l) {
    ql(l) = Outer(Inner(q_local(l), VecN<12>::Unit(l)), Eigen::Matrix<Inner, 12, 1>::Unit(l));
    vl(l) =
        Outer(Inner(v_local(l), VecN<12>::Unit(6 + l)), Eigen::Matrix<Inner, 12, 1>::Unit(6 + l));
  }
  Outer rhs, phi(0.0);
  evaluate_row<Outer>(row, context, ql, vl, al, rhs, &phi);
  RowSecondDerivatives out;
  for (int l = 0; l < 6; ++l) {
    VecN<12> gradient;
    read(al(l), out.a(l), gradient, out.d2a[l]);
    out.da.row(l) = gradient.transpose();
  }
  read(rhs, out.rhs, out.drhs, out.d2rhs);
  if (row.kind == RowKind::contact) read(phi, out.phi, out.dphi, out.d2phi);
  return out;
}

StepSecondDerivatives step_second_derivatives(const VineStepper& stepper, const VecX& w_q,
                                              const VecX& w_v, const VecX& w_held,
                                              double active_threshold) {
  StepSecondDerivatives out;
  const VineModel& m = stepper.model();
  TENDRIL_ASSERT(w_q.size() == m.num_dofs() && w_v.size() == m.num_dofs() &&
                     (w_held.size() == 0 || w_held.size() == stepper.num_bilateral_contacts()),
                 "weights: n on q, n on v, none or one per held contact");
  StepKkt kkt;
  if (!linearise_step(stepper, active_threshold, kkt)) return out;
  const int n = kkt.n, pins = kkt.pins, m_act = static_cast<int>(kkt.rows.size());
  const int col_v = kkt.col_v, col_k = kkt.col_k, col_c = kkt.col_c, nt = 2 * n + 2 * pins;
  const double dt = m.dt;
  const double m_ref = stepper.mass_scale();
  const VecX& v_next = stepper.last_solution().x;

  // adjoint: (dF/dx)^T mu = ds/dx = (omega, m_ref w_held at the held rows). With dF/dx = [P -A^T; A
  // 0] and mu' = (mu_v, -mu_lambda) this is (dF/dx) mu' = (omega, -m_ref w_held): the same
  // factorisation.
  VecX rhs = VecX::Zero(n + m_act);
  rhs.head(n) = w_v + dt * w_q;
  const int first_held =
      n + 2 * m.num_bodies;  // the bilateral contacts' rows follow the joint rows
  for (int h = 0; h < static_cast<int>(w_held.size()); ++h)
    rhs(first_held + h) = -m_ref * w_held(h);
  VecX mu = kkt.lu->solve(rhs);
  if (kkt.lu->info() != Eigen::Success || !mu.allFinite()) return out;
  mu.tail(m_act) *= -1.0;
  const auto mu_v = mu.head(n);

  MatX ltt = MatX::Zero(nt, nt);         // d2 L / dtheta2
  MatX lxt = MatX::Zero(n + m_act, nt);  // d2 L / dx dtheta
  // springs and dampers: dr1/dq = dt/m_ref K_j e_j e_j^T, dr1/dK_j = dt/m_ref dev_j(q) e_j (dev
  // linear in q); explicit dampers likewise in (v, C_j); implicit ones and springs through P(K, C)
  // v_{k+1}
  const bool implicit = m.springs == SpringIntegration::implicit;
  VecX e_j(n);
  for (int j = 0; j < pins; ++j) {
    e_j.setZero();
    add_pin_torque(m, j, 1.0, e_j);
    const VecX t = dt / m_ref * mu_v.dot(e_j) * e_j;
    ltt.block(0, col_k + j, n, 1) += t;
    ltt.block(col_k + j, 0, 1, n) += t.transpose();
    if (implicit) {
      lxt.block(0, col_k + j, n, 1) += dt * t;
      lxt.block(0, col_c + j, n, 1) += t;
    } else {
      ltt.block(col_v, col_c + j, n, 1) += t;
      ltt.block(col_c + j, col_v, 1, n) += t.transpose();
    }
  }
  // rows: L = ... - lambda_r mu_v . a_r(theta) + mu_lambda_r (a_r(theta) . v_{k+1} - b_r(theta))
  VecN<6> qd, vd;
  for (int r = 0; r < m_act; ++r) {
    const RowSpec& row = *kkt.rows[r];
    stepper.gather_local(row, stepper.last_q(), stepper.last_v(), qd, vd);
    const RowSecondDerivatives d = row_second_derivatives(row, stepper.row_context(row), qd, vd);
    const double mu_r = mu(n + r), lambda_r = kkt.lambda[r];
    int theta[12];  // theta column of each local input, -1 for the world
    for (int k = 0; k < 12; ++k) {
      const int g = row_global_dof(row, k % 6);
      theta[k] = g < 0 ? -1 : (k < 6 ? g : col_v + g);
    }
    MatN<12> local = -mu_r * d.d2rhs;
    VecN<12> dlambda = VecN<12>::Zero();  // d2L / dlambda_r dtheta_local
    for (int l = 0; l < 6; ++l) {
      const int g = row_global_dof(row, l);
      if (g < 0) continue;
      local += (mu_r * v_next(g) - lambda_r * mu_v(g)) * d.d2a[l];
      dlambda -= mu_v(g) * d.da.row(l).transpose();
      for (int k = 0; k < 12; ++k)
        if (theta[k] >= 0) lxt(g, theta[k]) += mu_r * d.da(l, k);
    }
    for (int a = 0; a < 12; ++a) {
      if (theta[a] < 0) continue;
      lxt(n + r, theta[a]) += dlambda(a);
      for (int b = 0; b < 12; ++b)
        if (theta[b] >= 0) ltt(theta[a], theta[b]) += local(a, b);
    }
  }
  const MatX x_theta = kkt.dx.leftCols(nt);
  const MatX cross = x_theta.transpose() * lxt;
  out.hessian = -(ltt + cross + cross.transpose());
  out.ok = out.hessian.allFinite();
  return out;
}

}  // namespace tendril::vine
