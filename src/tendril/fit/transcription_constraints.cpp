// The transcribed problem's constraints and their Jacobian entries (fit/transcribed_problem.hpp),
// one pass that records the pattern or adds the values (fit/sparse_pattern.hpp): per step the
// position and velocity rows with the step rows' impulses, the step rows themselves, then the
// first state's rows and the prismatic length rows.
#include "tendril/fit/transcribed_problem.hpp"
#include "tendril/vine/applied_forces.hpp"

namespace tendril::fit::detail {

using vine::RowKind;
using vine::RowSecondDerivatives;
using vine::RowSpec;
using vine::VineModel;

void TranscribedProblem::constraint_entries(const VecX& x, VecX& g, Emitter& add) const {
  g.setZero(num_constraints());
  VineModel m = model_;
  for (int j = 0; j < pins_; ++j) {
    m.stiffness[j] = stiffness(x, j);
    m.damping[j] = damping(x, j);
  }
  if (heading_ >= 0) m.rest_angle[0] = parameter_scale(heading_) * x(p(heading_));
  for (int i = 0; i < steps_; ++i) step_entries(x, m, i, g, add);
  first_state_entries(x, g, add);
}

/// Step i's rows: q_{i+1} - q_i - dt v_{i+1} - r_q and v_{i+1} - v_i - M^-1 (dt F + m_ref A^T y) -
/// r_v (m: the model at x's K, C), with the step rows (step_row_entries).
void TranscribedProblem::step_entries(const VecX& x, const VineModel& m, int i, VecX& g,
                                      Emitter& add) const {
  const double dt = model_.dt;
  const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_),
             vn = x.segment(z(i + 1) + n_, n_);
  const int gq = row(i), gv = row(i) + n_;
  for (int d = 0; d < n_; ++d) {
    g(gq + d) = x(z(i + 1) + d) - q(d) - dt * vn(d) - x(r(i) + d);
    add.add(gq + d, z(i + 1) + d, 1.0);
    add.add(gq + d, z(i) + d, -1.0);
    add.add(gq + d, z(i + 1) + n_ + d, -dt);
    add.add(gq + d, r(i) + d, -1.0);
  }
  // the velocity rows; their (q_i, v_i) block accumulated densely
  VecX force;
  vine::applied_forces(m, q, v, force, true);
  VecX dyn = vn - v - dt * minv_.cwiseProduct(force) - x.segment(r(i) + n_, n_);
  MatX block = MatX::Zero(n_, 2 * n_);
  block.rightCols(n_).diagonal().setConstant(-1.0);
  for (int j = 0; j < pins_; ++j) {
    const VecX me = minv_.cwiseProduct(torque_map_[j]);
    block.leftCols(n_) += (dt * m.stiffness[j]) * me * torque_map_[j].transpose();
    block.rightCols(n_) += (dt * m.damping[j]) * me * torque_map_[j].transpose();
  }
  step_row_entries(x, i, dyn, block, g, add);
  g.segment(gv, n_) = dyn;
  for (int o = 0; o < n_; ++o) {
    for (int col = 0; col < 2 * n_; ++col) add.add(gv + o, z(i) + col, block(o, col));
    add.add(gv + o, z(i + 1) + n_ + o, 1.0);
    add.add(gv + o, r(i) + n_ + o, -1.0);
  }
  // K and C columns: d(-dt M^-1 F)/d(K / K_scale) = dt K_scale M^-1 dev_j e_j, likewise C with
  // the rate
  for (int j = 0; j < pins_; ++j) {
    const double dev = vine::pin_angle_deviation(m, q, j), rate = vine::pin_angle_rate(m, v, j);
    for (int o = 0; o < n_; ++o) {
      if (torque_map_[j](o) == 0.0) continue;
      add.add(gv + o, k(nk_ > 1 ? j : 0), dt * k_scale_ * dev * minv_(o) * torque_map_[j](o));
      add.add(gv + o, c(nk_ > 1 ? j : 0), dt * c_scale_ * rate * minv_(o) * torque_map_[j](o));
    }
  }
  // the heading's column: dev_0 = theta - theta_bar_0, so -dt K_0 M^-1 e_0 times its scale
  if (heading_ < 0) return;
  for (int o = 0; o < n_; ++o)
    if (torque_map_[0](o) != 0.0)
      add.add(gv + o, p(heading_),
              -dt * parameter_scale(heading_) * m.stiffness[0] * minv_(o) * torque_map_[0](o));
}

void TranscribedProblem::rate_entries(int grow, int i, int a, Emitter& add) const {
  for (int e = 0; e < num_extra_parameters(); ++e)
    if (options_.parameters[e].kind == VineParameterKind::growth_rate)
      add.add(grow, p(e), -rate_columns_[i](a, e));
}

/// Step i's joint, growth and known-contact rows a . v_{i+1} - rhs (- u for growth), and their
/// impulses -m_ref M^-1 y a(q, v) in the velocity rows (dyn, its (q_i, v_i) block, the y columns).
void TranscribedProblem::step_row_entries(const VecX& x, int i, VecX& dyn, MatX& block, VecX& g,
                                          Emitter& add) const {
  const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_),
             vn = x.segment(z(i + 1) + n_, n_);
  const int gv = row(i) + n_;
  for (std::size_t a = 0; a < rows_[i].size(); ++a) {
    const RowSpec& spec = rows_[i][a];
    const RowSecondDerivatives d = row_at(spec, q, v);
    const int ycol = y(i) + static_cast<int>(a), grow = gv + n_ + static_cast<int>(a);
    const double ya = x(ycol);
    const bool growth = spec.kind == RowKind::growth;
    const std::vector<int> in = inputs(spec, growth);
    const VecN<6> vnl = local(spec, vn);
    for (int l = 0; l < 6; ++l) {
      if (!row_uses(spec, l)) continue;
      const int o = row_dof(spec, l);
      const double s = minv_(o) * m_ref_;
      dyn(o) -= s * ya * d.a(l);
      for (int mm : in) block(o, (mm < 6 ? 0 : n_) + row_dof(spec, mm % 6)) -= s * ya * d.da(l, mm);
      add.add(gv + o, ycol, -s * d.a(l));
    }
    g(grow) = d.a.dot(vnl) - d.rhs;
    const int prismatic = static_cast<int>(a) - static_cast<int>(joint_specs_.size());
    if (growth) {
      g(grow) -= growth_rates(x, i)(prismatic);
      rate_entries(grow, i, prismatic, add);
    }
    if (spec.kind == RowKind::contact && radius_ >= 0) {  // Phi = distance - r_c
      const double scale = parameter_scale(radius_) / model_.dt;
      g(grow) -= scale * (x(p(radius_)) - x0_(p(radius_)));
      add.add(grow, p(radius_), -scale);
    }
    for (int mm : in) add.add(grow, column(spec, i, mm), d.da.col(mm).dot(vnl) - d.drhs(mm));
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) add.add(grow, z(i + 1) + n_ + row_dof(spec, l), d.a(l));
  }
}

/// The first state: c(q_0) / dt = 0, dc/dq(q_0) v_0 = 0, h^ . hdot(q_0, v_0) = u_0, then the
/// prismatic joints' lengths |h|^2, h = p_b - p_a at q_0.
void TranscribedProblem::first_state_entries(const VecX& x, VecX& g, Emitter& add) const {
  const VecX q0 = x.segment(z(0), n_), v0 = x.segment(z(0) + n_, n_);
  int g0 = row(steps_);
  for (const RowSpec& spec : joint_specs_) {
    const RowSecondDerivatives d = row_at(spec, q0, v0);
    g(g0) = -d.rhs;
    for (int mm : inputs(spec, false)) add.add(g0, column(spec, 0, mm), -d.drhs(mm));
    ++g0;
  }
  for (int set = 0; set < 2; ++set) {
    const std::vector<RowSpec>& specs = set == 0 ? joint_specs_ : growth_specs_;
    for (std::size_t a = 0; a < specs.size(); ++a, ++g0) {
      const RowSpec& spec = specs[a];
      const RowSecondDerivatives d = row_at(spec, q0, v0, false);
      const VecN<6> vl = local(spec, v0);
      g(g0) = d.a.dot(vl) - (set == 1 ? growth_rates(x, 0)(static_cast<int>(a)) : 0.0);
      if (set == 1) rate_entries(g0, 0, static_cast<int>(a), add);
      for (int mm : inputs(spec, true))
        add.add(g0, column(spec, 0, mm), d.da.col(mm).dot(vl) + (mm >= 6 ? d.a(mm - 6) : 0.0));
    }
  }
  for (const RowSpec& spec : length_specs_) {
    const Vec2 h = q0.segment<2>(3 * spec.body_b) - q0.segment<2>(3 * spec.body_a);
    g(g0) = h.squaredNorm();
    for (int d = 0; d < 2; ++d) {
      add.add(g0, z(0) + 3 * spec.body_b + d, 2.0 * h(d));
      add.add(g0, z(0) + 3 * spec.body_a + d, -2.0 * h(d));
    }
    ++g0;
  }
}

}  // namespace tendril::fit::detail
