#include "tendril/vine/vine_stepper.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/vine/applied_forces.hpp"

namespace tendril::vine {

namespace {

/// Builds a compressed (rows x cols) matrix holding the used entries of every row and returns, for
/// each row and local entry, the index of its value (-1 if unused).
SparseMatrix row_pattern(const std::vector<RowSpec>& rows, int cols, std::vector<int>& slots) {
  std::vector<Eigen::Triplet<double, int>> triplets;
  for (int r = 0; r < static_cast<int>(rows.size()); ++r)
    for (int l = 0; l < 6; ++l) {
      const int body = l < 3 ? rows[r].body_a : rows[r].body_b;
      if (body >= 0 && row_entry_used(rows[r].kind, l)) triplets.emplace_back(r, 3 * body + l % 3, 1.0);
    }
  SparseMatrix a(static_cast<int>(rows.size()), cols);
  a.setFromTriplets(triplets.begin(), triplets.end());
  a.makeCompressed();
  slots.assign(6 * rows.size(), -1);
  for (int r = 0; r < static_cast<int>(rows.size()); ++r)
    for (int l = 0; l < 6; ++l) {
      const int body = l < 3 ? rows[r].body_a : rows[r].body_b;
      if (body < 0 || !row_entry_used(rows[r].kind, l)) continue;
      const int col = 3 * body + l % 3;
      slots[6 * r + l] = value_index(a, r, col);
    }
  return a;
}

}  // namespace

VineStepper::VineStepper(VineModel model, QpOptions options) : model_(std::move(model)), solver_(options) {
  model_.validate();
  build_pattern();
}

void VineStepper::build_pattern() {
  const VineModel& m = model_;
  const int n = m.num_dofs();
  // joint rows (eq. 2, 3), two per joint, then one growth row per prismatic joint (eq. 6)
  eq_rows_.clear();
  for (int k = 0; k < m.num_bodies; ++k) {
    RowSpec r;
    r.body_a = k - 1;
    r.body_b = k;
    r.d_a = k > 0 ? m.half_length[k - 1] : 0.0;
    r.d_b = m.half_length[k];
    const bool pin = k % 2 == 0;
    r.kind = pin ? RowKind::pin_x : RowKind::prismatic_a;
    eq_rows_.push_back(r);
    r.kind = pin ? RowKind::pin_y : RowKind::prismatic_b;
    eq_rows_.push_back(r);
  }
  for (int j = 0; j < m.num_prismatic(); ++j) {
    RowSpec r;
    r.kind = RowKind::growth;
    r.body_a = m.prismatic_body(j) - 1;
    r.body_b = m.prismatic_body(j);
    eq_rows_.push_back(r);
  }
  // contact rows (eq. 5, 13): every point against every obstacle, two cone edges with friction
  in_rows_.clear();
  const std::vector<int> sigmas = m.friction > 0.0 ? std::vector<int>{+1, -1} : std::vector<int>{0};
  for (const ContactPoint& cp : m.contact_points)
    for (int o = 0; o < static_cast<int>(m.obstacles.size()); ++o)
      for (int s : sigmas) {
        RowSpec r;
        r.kind = RowKind::contact;
        r.body_b = cp.body;
        r.d_b = cp.offset;
        r.obstacle = o;
        r.sigma = s;
        in_rows_.push_back(r);
      }

  problem_.A_eq = row_pattern(eq_rows_, n, eq_slots_);
  problem_.A_in = row_pattern(in_rows_, n, in_slots_);
  problem_.b_eq.setZero(static_cast<int>(eq_rows_.size()));
  problem_.b_in.setZero(static_cast<int>(in_rows_.size()));
  phi_.setZero(static_cast<int>(in_rows_.size()));

  // mass matrix of the bodies, scaled by the mean body mass
  mass_diag_.resize(n);
  for (int i = 0; i < m.num_bodies; ++i) mass_diag_.segment<3>(3 * i) << m.mass[i], m.mass[i], m.inertia[i];
  double total = 0.0;
  for (double mi : m.mass) total += mi;
  mass_scale_ = total / m.num_bodies;
  // P = M (explicit springs) or M + dt^2 R K R^T + dt R C R^T (implicit springs), over m_ref
  problem_.P.resize(n, n);
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, mass_diag_(i) / mass_scale_);
  if (m.springs == SpringIntegration::implicit)
    for (int j = 0; j < m.num_pins(); ++j) {
      const double w = (m.dt * m.dt * m.stiffness[j] + m.dt * m.damping[j]) / mass_scale_;
      const int b = 3 * m.pin_body(j) + 2, a = b - 3;
      entries.emplace_back(b, b, w);
      if (a >= 0) {
        entries.emplace_back(a, a, w);
        entries.emplace_back(a, b, -w);
        entries.emplace_back(b, a, -w);
      }
    }
  problem_.P.setFromTriplets(entries.begin(), entries.end());
  problem_.P.makeCompressed();
  zero_v_.setZero(n);
  problem_.c.setZero(n);
  force_.setZero(n);
  q_k_.setZero(n);
  v_k_.setZero(n);
  u_k_.setZero(m.num_prismatic());
}

RowContext VineStepper::row_context(const RowSpec& row) const {
  RowContext ctx;
  ctx.base = model_.base;
  ctx.dt = model_.dt;
  ctx.contact_radius = model_.contact_radius;
  ctx.friction = model_.friction;
  ctx.growth_lookahead = model_.growth_lookahead;
  ctx.obstacle = row.obstacle >= 0 ? &model_.obstacles[row.obstacle] : nullptr;
  return ctx;
}

void VineStepper::gather_local(const RowSpec& row, const VecX& q, const VecX& v, VecN<6>& q_local,
                               VecN<6>& v_local) const {
  if (row.body_a >= 0) {
    q_local.head<3>() = q.segment<3>(3 * row.body_a);
    v_local.head<3>() = v.segment<3>(3 * row.body_a);
  } else {
    q_local.head<3>().setZero();
    v_local.head<3>().setZero();
  }
  q_local.tail<3>() = q.segment<3>(3 * row.body_b);
  v_local.tail<3>() = v.segment<3>(3 * row.body_b);
}

void VineStepper::fill_rows(const std::vector<RowSpec>& rows, const std::vector<int>& slots, SparseMatrix& a,
                            VecX& rhs, bool contact) {
  double* values = a.valuePtr();
  VecN<6> ql, vl, al;
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    gather_local(rows[r], q_k_, v_k_, ql, vl);
    double* phi = contact ? &phi_(r) : nullptr;
    evaluate_row<double>(rows[r], row_context(rows[r]), ql, vl, al, rhs(r), phi);
    for (int l = 0; l < 6; ++l)
      if (slots[6 * r + l] >= 0) values[slots[6 * r + l]] = al(l);
  }
}

void VineStepper::fill_growth_rates(double time, VecX& rates) const {
  const int np = model_.num_prismatic();
  rates.setZero(np);
  if (np == 0) return;
  const double u = model_.growth.rate(time);
  if (model_.growth_mode == GrowthMode::uniform)
    rates.setConstant(u / np);
  else
    rates(np - 1) = u;
}

VecX VineStepper::joint_growth_rates(double time) const {
  VecX rates;
  fill_growth_rates(time, rates);
  return rates;
}

VineStepReport VineStepper::step(VineState& state) {
  fill_growth_rates(state.time, rates_);
  return step(state, rates_);
}

VineStepReport VineStepper::step(VineState& state, const VecX& joint_rates) {
  const VineModel& m = model_;
  const int n = m.num_dofs();
  if (state.q.size() != n || state.v.size() != n)
    throw InputError("state", fmt::format("q of size {}, v of size {}", state.q.size(), state.v.size()),
                     fmt::format("q and v of size {} (3 per body)", n));
  if (!state.q.allFinite() || !state.v.allFinite())
    throw InputError("state", "a non-finite q or v", "finite positions, angles and velocities");
  if (joint_rates.size() != m.num_prismatic() || !joint_rates.allFinite())
    throw InputError("joint_rates", fmt::format("{} values", joint_rates.size()),
                     fmt::format("{} finite values (one per prismatic joint)", m.num_prismatic()));
  q_k_ = state.q;
  v_k_ = state.v;
  u_k_ = joint_rates;

  // objective: 1/2 v^T P v - v^T (M v_k + Delta t F), divided by m_ref; implicit springs keep
  // the spring force at q_k here (its dt v_{k+1} part and the dampers are in P)
  if (m.springs == SpringIntegration::implicit)
    applied_forces(m, q_k_, zero_v_, force_, false);
  else
    applied_forces(m, q_k_, v_k_, force_);
  problem_.c = -(mass_diag_.cwiseProduct(v_k_) + m.dt * force_) / mass_scale_;

  // constraint rows at (q_k, v_k)
  fill_rows(eq_rows_, eq_slots_, problem_.A_eq, problem_.b_eq, false);
  const int num_joint_rows = 2 * m.num_bodies;
  problem_.b_eq.tail(m.num_prismatic()) += joint_rates;
  fill_rows(in_rows_, in_slots_, problem_.A_in, problem_.b_in, true);

  VineStepReport report;
  report.joint_error = (problem_.b_eq.head(num_joint_rows) * m.dt).lpNorm<Eigen::Infinity>();
  report.min_distance = phi_.size() > 0 ? phi_.minCoeff() : std::numeric_limits<double>::infinity();

  // a state or parameters that overflow (a huge dt, a vanishing mass) are a numerical failure of
  // this step, not bad input to the QP
  const auto finite = [](const SparseMatrix& a) { return a.coeffs().allFinite(); };
  if (!problem_.c.allFinite() || !problem_.b_eq.allFinite() || !problem_.b_in.allFinite() || !finite(problem_.P) ||
      !finite(problem_.A_eq) || !finite(problem_.A_in)) {
    report.status = QpStatus::numerical_failure;
    return report;
  }
  solver_.solve(problem_, solution_);  // reuses the solution's storage: no allocation per step
  report.status = solution_.status;
  report.qp_iterations = solution_.iterations;
  report.kkt_residual = solution_.kkt_residual;
  if (solution_.status != QpStatus::solved) return report;
  const int per_pair = m.friction > 0.0 ? 2 : 1;
  for (int r = 0; r < solution_.z_in.size(); r += per_pair) {
    double z = 0.0;
    for (int e = 0; e < per_pair; ++e) z += std::max(0.0, solution_.z_in(r + e));
    if (z > 0.0) ++report.active_contacts;
  }

  // semi-implicit Euler (eq. 10)
  state.v = solution_.x;
  state.q = q_k_ + m.dt * state.v;
  state.time += m.dt;
  return report;
}

SparseMatrix VineStepper::joint_jacobian() const {
  return problem_.A_eq.topRows(2 * model_.num_bodies);
}

SparseMatrix VineStepper::growth_jacobian() const {
  return problem_.A_eq.bottomRows(model_.num_prismatic());
}

VecX VineStepper::joint_errors() const { return -problem_.b_eq.head(2 * model_.num_bodies) * model_.dt; }

VecX VineStepper::joint_impulses() const {
  if (solution_.y_eq.size() == 0) return VecX::Zero(2 * model_.num_bodies);
  return mass_scale_ * solution_.y_eq.head(2 * model_.num_bodies);
}

VecX VineStepper::growth_impulses() const {
  if (solution_.y_eq.size() == 0) return VecX::Zero(model_.num_prismatic());
  return mass_scale_ * solution_.y_eq.tail(model_.num_prismatic());
}

VecX VineStepper::joint_errors_at(const VecX& q) const {
  const int nj = 2 * model_.num_bodies;
  VecX c(nj);
  const VecX v = VecX::Zero(q.size());
  VecN<6> ql, vl, al;
  for (int r = 0; r < nj; ++r) {
    gather_local(eq_rows_[r], q, v, ql, vl);
    evaluate_row<double>(eq_rows_[r], row_context(eq_rows_[r]), ql, vl, al, c(r));
  }
  return -model_.dt * c;
}

VecX VineStepper::contact_distances_at(const VecX& q) const {
  VecX phi(static_cast<int>(in_rows_.size()));
  const VecX v = VecX::Zero(q.size());
  VecN<6> ql, vl, al;
  double rhs;
  for (int r = 0; r < phi.size(); ++r) {
    gather_local(in_rows_[r], q, v, ql, vl);
    evaluate_row<double>(in_rows_[r], row_context(in_rows_[r]), ql, vl, al, rhs, &phi(r));
  }
  return phi;
}

std::vector<ContactInfo> VineStepper::contacts() const {
  std::vector<ContactInfo> out;
  const int per_pair = model_.friction > 0.0 ? 2 : 1;
  const int num_pairs = static_cast<int>(in_rows_.size()) / per_pair;
  out.reserve(num_pairs);
  const int no = static_cast<int>(model_.obstacles.size());
  const bool have_z = solution_.z_in.size() == static_cast<Eigen::Index>(in_rows_.size());
  for (int p = 0; p < num_pairs; ++p) {
    ContactInfo c;
    c.point = p / no;
    c.obstacle = p % no;
    c.distance = phi_(per_pair * p);
    if (have_z) {
      // normal impulse n = m_ref sum z; the cone edges n +- mu t carry friction +- mu m_ref z
      for (int s = 0; s < per_pair; ++s) {
        const double z = std::max(0.0, solution_.z_in(per_pair * p + s)) * mass_scale_;
        c.normal_impulse += z;
        c.tangent_impulse += in_rows_[per_pair * p + s].sigma * model_.friction * z;
      }
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace tendril::vine
