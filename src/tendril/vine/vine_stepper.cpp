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
      if (body >= 0 && row_entry_used(rows[r].kind, l))
        triplets.emplace_back(r, 3 * body + l % 3, 1.0);
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

std::uint64_t rows_key(const std::vector<int>& row_bodies) {
  std::uint64_t h = 1469598103934665603ull;
  for (int body : row_bodies)
    for (int byte = 0; byte < 4; ++byte)
      h = (h ^ ((static_cast<std::uint32_t>(body) >> (8 * byte)) & 0xffu)) * 1099511628211ull;
  return h;
}

VineStepper::VineStepper(VineModel model, QpOptions options)
    : model_(std::move(model)), solver_(options) {
  model_.validate();
  build_pattern();
}

void VineStepper::set_bilateral_contacts(std::vector<BilateralContact> contacts) {
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const std::string key = fmt::format("bilateral_contacts[{}]", c);
    if (model_.contact_model != ContactModel::point)
      throw InputError(key, "body contact",
                       "the model's point contact (vine.contact_model: point)");
    if (contacts[c].point < 0 ||
        contacts[c].point >= static_cast<int>(model_.contact_points.size()))
      throw InputError(key + ".point", std::to_string(contacts[c].point),
                       fmt::format("a contact point index 0 .. {}",
                                   static_cast<int>(model_.contact_points.size()) - 1));
    if (contacts[c].obstacle < 0 ||
        contacts[c].obstacle >= static_cast<int>(model_.obstacles.size()))
      throw InputError(
          key + ".obstacle", std::to_string(contacts[c].obstacle),
          fmt::format("an obstacle index 0 .. {}", static_cast<int>(model_.obstacles.size()) - 1));
  }
  bilateral_ = std::move(contacts);
  build_pattern();
}

VecX VineStepper::bilateral_impulses() const {
  const int nb = static_cast<int>(bilateral_.size());
  if (solution_.y_eq.size() == 0) return VecX::Zero(nb);
  return mass_scale_ * solution_.y_eq.segment(2 * model_.num_bodies, nb);
}

void VineStepper::build_pattern() {
  const VineModel& m = model_;
  const int n = m.num_dofs();
  const bool caps = m.growth_control == GrowthControl::force_limited;
  // joint rows (eq. 2, 3), two per joint, then one growth row per prismatic joint (eq. 6): an
  // equality (rate control) or the first inequality rows (force-limited growth, G_bar v <= u_j)
  eq_rows_ = joint_row_specs(m.half_length);
  for (const BilateralContact& b : bilateral_) {
    RowSpec r;
    r.kind = RowKind::contact;
    r.body_b = m.contact_points[b.point].body;
    r.d_b = m.contact_points[b.point].offset;
    r.obstacle = b.obstacle;
    eq_rows_.push_back(r);
  }
  in_rows_.clear();
  for (int copy = 0; copy < (caps ? 2 : 1);
       ++copy)  // force-limited: caps, then floors G_bar v >= 0
    for (int j = 0; j < m.num_prismatic(); ++j) {
      RowSpec r;
      r.kind = RowKind::growth;
      r.body_a = m.prismatic_body(j) - 1;
      r.body_b = m.prismatic_body(j);
      (caps ? in_rows_ : eq_rows_).push_back(r);
    }
  num_growth_caps_ = caps ? m.num_prismatic() : 0;
  num_growth_rows_ = static_cast<int>(in_rows_.size());
  // contact rows (eq. 5, 13) are chosen every step near the obstacles (collect_contact_rows)
  grid_ = ObstacleGrid(m.obstacles);
  const int ne = m.num_contact_elements();
  reach_.assign(ne, 0.0);
  row_bodies_.assign(1, -1);  // never a valid key: the first step builds the A_in pattern
  achieved_.setZero(m.num_prismatic());

  problem_.A_eq = row_pattern(eq_rows_, n, eq_slots_);
  problem_.A_in = row_pattern(in_rows_, n, in_slots_);
  problem_.b_eq.setZero(static_cast<int>(eq_rows_.size()));
  problem_.b_in.setZero(static_cast<int>(in_rows_.size()));
  phi_.setZero(static_cast<int>(in_rows_.size()));

  // mass matrix of the bodies, scaled by the mean body mass
  mass_diag_.resize(n);
  for (int i = 0; i < m.num_bodies; ++i)
    mass_diag_.segment<3>(3 * i) << m.mass[i], m.mass[i], m.inertia[i];
  double total = 0.0;
  for (double mi : m.mass) total += mi;
  mass_scale_ = total / m.num_bodies;
  max_kinetic_energy_ = 0.5 * total * m.max_speed * m.max_speed;
  q_k_.setZero(n);
  assemble_objective_matrix();
  zero_v_.setZero(n);
  problem_.c.setZero(n);
  force_.setZero(n);
  v_k_.setZero(n);
  u_k_.setZero(m.num_prismatic());
}

void VineStepper::assemble_objective_matrix() {
  const VineModel& m = model_;
  const int n = m.num_dofs();
  // P = M (explicit springs) or M + dt^2 R K_t R^T + dt R C R^T (implicit springs), over m_ref,
  // with the tangent K_t = dM/dtheta of the pin law at q_k (K_j for the linear law)
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, mass_diag_(i) / mass_scale_);
  if (m.springs == SpringIntegration::implicit)
    for (int j = 0; j < m.num_pins(); ++j) {
      const double tangent = pin_moment(m, j, pin_angle_deviation(m, q_k_, j)).stiffness;
      const double w = (m.dt * m.dt * tangent + m.dt * m.damping[j]) / mass_scale_;
      const int b = 3 * m.pin_body(j) + 2, a = b - 3;
      entries.emplace_back(b, b, w);
      if (a >= 0) {
        entries.emplace_back(a, a, w);
        entries.emplace_back(a, b, -w);
        entries.emplace_back(b, a, -w);
      }
    }
  problem_.P.resize(n, n);
  problem_.P.setFromTriplets(entries.begin(), entries.end());
  problem_.P.makeCompressed();
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

void VineStepper::fill_rows(const std::vector<RowSpec>& rows, const std::vector<int>& slots,
                            SparseMatrix& a, VecX& rhs, bool contact) {
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

double VineStepper::element_reach(const VecX& v, int element) const {
  const int body = element_body(model_, element);
  const double extent = model_.contact_model == ContactModel::body
                            ? model_.half_length[body]
                            : std::abs(model_.contact_points[element].offset);
  return model_.dt * (v.segment<2>(3 * body).norm() + extent * std::abs(v(3 * body + 2)));
}

void VineStepper::add_pair(int element, int obstacle, double offset, double phi) {
  Pair pair;
  pair.element = element;
  pair.obstacle = obstacle;
  pair.offset = offset;
  pair.phi = phi;
  // friction only for pairs in contact at q_k (within the contact gap)
  pair.friction = model_.friction > 0.0 && phi <= model_.contact_gap;
  pair.first_row = static_cast<int>(in_rows_.size());
  pair.num_rows = pair.friction ? 2 : 1;
  for (int k = 0; k < pair.num_rows; ++k) {
    RowSpec r;
    r.kind = RowKind::contact;
    r.body_b = element_body(model_, element);
    r.d_b = offset;
    r.obstacle = obstacle;
    r.sigma = pair.friction ? (k == 0 ? +1 : -1) : 0;
    in_rows_.push_back(r);
  }
  pairs_.push_back(pair);
}

void VineStepper::collect_contact_rows() {
  const VineModel& m = model_;
  const bool bodies = m.contact_model == ContactModel::body;
  pairs_.clear();
  in_rows_.resize(num_growth_rows_);
  for (int e = 0; e < m.num_contact_elements() && !m.obstacles.empty(); ++e) {
    const int body = element_body(m, e);
    const double th = q_k_(3 * body + 2);
    const Vec2 axis(std::cos(th), std::sin(th));
    const Vec2 centre = q_k_.segment<2>(3 * body);
    const Vec2 a = centre + (bodies ? -m.half_length[body] : m.contact_points[e].offset) * axis;
    const Vec2 b = centre + (bodies ? m.half_length[body] : m.contact_points[e].offset) * axis;
    const double inflate = m.contact_radius + reach_[e];
    found_.clear();
    grid_.query(a.cwiseMin(b).array() - inflate, a.cwiseMax(b).array() + inflate, found_);
    for (int o : found_) {
      if (std::any_of(bilateral_.begin(), bilateral_.end(), [&](const BilateralContact& held) {
            return held.point == e && held.obstacle == o;
          }))
        continue;  // held by its equality row
      double offset = 0.0;
      const double phi = element_distance(m, q_k_, e, o, offset);
      if (phi > reach_[e]) continue;
      add_pair(e, o, offset, phi);
      if (!bodies) continue;
      // the body's ends as well, near the obstacle: a body rotating about its closest point keeps
      // both ends out too (a two-point manifold on a face)
      for (const double end : {-m.half_length[body], m.half_length[body]}) {
        if (std::abs(end - offset) <= 1e-9 * m.half_length[body]) continue;
        Vec2 normal;
        const double end_phi =
            signed_distance<double>(m.obstacles[o], Vec2(centre + end * axis), normal) -
            m.contact_radius;
        if (end_phi <= reach_[e]) add_pair(e, o, end, end_phi);
      }
    }
  }
  // the A_in pattern depends only on the body of each row: rebuilt when that sequence changes
  bool same = row_bodies_.size() == in_rows_.size();
  for (std::size_t r = 0; same && r < in_rows_.size(); ++r)
    same = row_bodies_[r] == in_rows_[r].body_b;
  if (!same) {
    row_bodies_.resize(in_rows_.size());
    for (std::size_t r = 0; r < in_rows_.size(); ++r) row_bodies_[r] = in_rows_[r].body_b;
    problem_.A_in = row_pattern(in_rows_, model_.num_dofs(), in_slots_);
    problem_.b_in.setZero(static_cast<int>(in_rows_.size()));
    phi_.setZero(static_cast<int>(in_rows_.size()));
    if (restored_ && restored_->rows_key == rows_key(row_bodies_) &&
        restored_->active.size() == in_rows_.size())
      solver_.set_warm_start(restored_->active);
  }
  restored_.reset();
}

VineWarmStart VineStepper::warm_start() const {
  return restored_ ? *restored_ : VineWarmStart{rows_key(row_bodies_), solver_.warm_start()};
}

void VineStepper::set_warm_start(VineWarmStart warm_start) {
  restored_ = std::move(warm_start);
  row_bodies_.assign(1,
                     -1);  // the next step rebuilds the pattern and takes the restored active set
}

int VineStepper::max_inequality_rows() const {
  const int pairs = model_.num_contact_elements() * static_cast<int>(model_.obstacles.size());
  return num_growth_rows_ + (model_.contact_model == ContactModel::body ? 3 : 1) * 2 * pairs;
}

VineStepReport VineStepper::step(VineState& state, const VecX& joint_rates) {
  const VineModel& m = model_;
  const int n = m.num_dofs();
  if (state.q.size() != n || state.v.size() != n)
    throw InputError("state",
                     fmt::format("q of size {}, v of size {}", state.q.size(), state.v.size()),
                     fmt::format("q and v of size {} (3 per body)", n));
  if (!state.q.allFinite() || !state.v.allFinite())
    throw InputError("state", "a non-finite q or v", "finite positions, angles and velocities");
  if (joint_rates.size() != m.num_prismatic() || !joint_rates.allFinite())
    throw InputError("joint_rates", fmt::format("{} values", joint_rates.size()),
                     fmt::format("{} finite values (one per prismatic joint)", m.num_prismatic()));
  q_k_ = state.q;
  v_k_ = state.v;
  u_k_ = joint_rates;
  // steering: the pin joints' rest angles at the step's start
  for (std::size_t j = 0; j < model_.rest_angle_schedule.size(); ++j) {
    const double angle = model_.rest_angle_schedule[j](state.time);
    if (!std::isfinite(angle))
      throw InputError(fmt::format("vine.steering (pin {})", j),
                       fmt::format("{} at t = {} s", angle, state.time),
                       "finite rest angles [rad]");
    model_.rest_angle[j] = angle;
  }

  // objective: 1/2 v^T P v - v^T (M v_k + Delta t F), divided by m_ref; implicit springs keep
  // the spring force at q_k here (its dt v_{k+1} part, linearised with the law's tangent at q_k,
  // and the dampers are in P)
  if (m.springs == SpringIntegration::implicit) {
    if (m.bending_law != BendingLaw::linear) assemble_objective_matrix();
    applied_forces(m, q_k_, zero_v_, force_, false);
  } else
    applied_forces(m, q_k_, v_k_, force_);
  problem_.c = -(mass_diag_.cwiseProduct(v_k_) + m.dt * force_) / mass_scale_;

  // constraint rows at (q_k, v_k)
  fill_rows(eq_rows_, eq_slots_, problem_.A_eq, problem_.b_eq, false);
  const int num_joint_rows = 2 * m.num_bodies;
  if (num_growth_caps_ == 0) problem_.b_eq.tail(m.num_prismatic()) += joint_rates;

  VineStepReport report;
  report.joint_error = (problem_.b_eq.head(num_joint_rows) * m.dt).lpNorm<Eigen::Infinity>();
  for (int e = 0; e < m.num_contact_elements(); ++e)
    reach_[e] = std::max(m.contact_radius, 3.0 * element_reach(v_k_, e));
  const auto finite = [](const SparseMatrix& a) { return a.coeffs().allFinite(); };
  // pairs near contact get rows; if the solution moves an element farther than its reach, pairs
  // beyond it could be violated: widen the reach and solve again (the result is then that of the
  // QP with every pair's row, whose other rows are inactive)
  for (int round = 0; round < 4; ++round) {
    collect_contact_rows();
    fill_rows(in_rows_, in_slots_, problem_.A_in, problem_.b_in, true);
    if (num_growth_caps_ > 0) add_growth_actuator(joint_rates, round == 0);
    report.min_distance = std::numeric_limits<double>::infinity();
    for (const Pair& pair : pairs_) report.min_distance = std::min(report.min_distance, pair.phi);
    report.contact_pairs = static_cast<int>(pairs_.size());

    // a state or parameters that overflow (a huge dt, a vanishing mass) are a numerical failure of
    // this step, not bad input to the QP
    if (!problem_.c.allFinite() || !problem_.b_eq.allFinite() || !problem_.b_in.allFinite() ||
        !finite(problem_.P) || !finite(problem_.A_eq) || !finite(problem_.A_in)) {
      report.status = QpStatus::numerical_failure;
      return report;
    }
    solver_.solve(problem_, solution_);  // reuses the solution's storage: no allocation per step
    ++report.qp_solves;
    report.status = solution_.status;
    report.qp_iterations += solution_.iterations;
    report.kkt_residual = solution_.kkt_residual;
    if (solution_.status != QpStatus::solved) return report;
    bool widened = false;
    for (int e = 0; e < m.num_contact_elements(); ++e) {
      const double moved = element_reach(solution_.x, e);
      if (moved > reach_[e] && !m.obstacles.empty()) {
        reach_[e] = 2.0 * moved;
        widened = true;
      }
    }
    if (!widened) break;
    if (round == 3) {
      report.status = QpStatus::max_iterations;
      return report;
    }
  }

  for (const Pair& pair : pairs_) {
    double z = 0.0;
    for (int r = pair.first_row; r < pair.first_row + pair.num_rows; ++r)
      z += std::max(0.0, solution_.z_in(r));
    if (z > 0.0) ++report.active_contacts;
  }
  // achieved growth rates G_bar_j v_{k+1}
  if (num_growth_caps_ > 0)
    achieved_ = -(problem_.A_in.topRows(num_growth_caps_) * solution_.x);
  else
    achieved_ = problem_.A_eq.bottomRows(m.num_prismatic()) * solution_.x;
  report.growth_rate = achieved_.sum();
  report.kinetic_energy = 0.5 * solution_.x.dot(mass_diag_.cwiseProduct(solution_.x));

  // physical failures: the state is kept
  if (report.joint_error > m.max_joint_error) {
    report.failure = VineFailure::joint_drift;
    return report;
  }
  if (!(report.kinetic_energy <= max_kinetic_energy_)) {
    report.failure = VineFailure::energy_blowup;
    return report;
  }

  // semi-implicit Euler (eq. 10)
  state.v = solution_.x;
  state.q = q_k_ + m.dt * state.v;
  state.time += m.dt;
  return report;
}

void VineStepper::add_growth_actuator(const VecX& joint_rates, bool add_force) {
  // rows G_bar_j v <= u_j as -G_bar_j v >= -u_j, and the actuator force F along G_bar_j in the
  // objective
  double* values = problem_.A_in.valuePtr();
  VecN<6> ql, vl, al;
  double rhs = 0.0;
  const double push = model_.dt * model_.growth_force / mass_scale_;
  for (int r = 0; r < num_growth_caps_; ++r) {
    for (int l = 0; l < 6; ++l)
      if (in_slots_[6 * r + l] >= 0) values[in_slots_[6 * r + l]] *= -1.0;
    problem_.b_in(r) = -joint_rates(r);
    if (!add_force) continue;
    const RowSpec& row = in_rows_[r];
    gather_local(row, q_k_, v_k_, ql, vl);
    evaluate_row<double>(row, row_context(row), ql, vl, al, rhs);
    problem_.c.segment<3>(3 * row.body_a) -= push * al.head<3>();
    problem_.c.segment<3>(3 * row.body_b) -= push * al.tail<3>();
  }
}

const char* to_string(VineFailure failure) {
  switch (failure) {
    case VineFailure::none:
      return "none";
    case VineFailure::joint_drift:
      return "joint drift";
    case VineFailure::energy_blowup:
      return "energy blow-up";
  }
  return "unknown";
}

SparseMatrix VineStepper::joint_jacobian() const {
  return problem_.A_eq.topRows(2 * model_.num_bodies);
}

SparseMatrix VineStepper::growth_jacobian() const {
  if (num_growth_caps_ > 0) return -problem_.A_in.topRows(num_growth_caps_);
  return problem_.A_eq.bottomRows(model_.num_prismatic());
}

VecX VineStepper::joint_errors() const {
  return -problem_.b_eq.head(2 * model_.num_bodies) * model_.dt;
}

VecX VineStepper::joint_impulses() const {
  if (solution_.y_eq.size() == 0) return VecX::Zero(2 * model_.num_bodies);
  return mass_scale_ * solution_.y_eq.head(2 * model_.num_bodies);
}

VecX VineStepper::growth_impulses() const {
  const int np = model_.num_prismatic();
  if (num_growth_caps_ > 0) {
    // actuator push F dt minus the rate cap's multiplier plus the no-retraction floor's
    VecX w = VecX::Constant(np, model_.dt * model_.growth_force);
    if (solution_.z_in.size() >= 2 * np)
      w += mass_scale_ * (solution_.z_in.segment(np, np) - solution_.z_in.head(np));
    return w;
  }
  if (solution_.y_eq.size() == 0) return VecX::Zero(np);
  return mass_scale_ * solution_.y_eq.tail(np);
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
  const int no = static_cast<int>(model_.obstacles.size());
  VecX phi(model_.num_contact_elements() * no);
  double offset = 0.0;
  for (int e = 0; e < model_.num_contact_elements(); ++e)
    for (int o = 0; o < no; ++o) phi(e * no + o) = element_distance(model_, q, e, o, offset);
  return phi;
}

std::vector<ContactInfo> VineStepper::contacts() const {
  std::vector<ContactInfo> out;
  out.reserve(pairs_.size());
  const bool have_z = solution_.z_in.size() == static_cast<Eigen::Index>(in_rows_.size());
  for (const Pair& pair : pairs_) {
    ContactInfo c;
    c.point = pair.element;
    c.obstacle = pair.obstacle;
    c.offset = pair.offset;
    c.friction = pair.friction;
    c.distance = pair.phi;
    if (have_z) {
      // normal impulse n = m_ref sum z; the cone edges n +- mu t carry friction +- mu m_ref z
      for (int r = pair.first_row; r < pair.first_row + pair.num_rows; ++r) {
        const double z = std::max(0.0, solution_.z_in(r)) * mass_scale_;
        c.normal_impulse += z;
        c.tangent_impulse += in_rows_[r].sigma * model_.friction * z;
      }
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace tendril::vine
