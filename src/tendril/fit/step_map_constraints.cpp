// The step map problem's constraints g(x) and their Jacobian (fit/step_map_problem.hpp): the
// dynamics rows through the step map and its derivatives, the joint and growth rows of every state,
// the known contacts, the first state's joint velocities and the held contacts' impulses.
#include "tendril/fit/step_map_problem.hpp"

#include <fmt/format.h>
#include <unsupported/Eigen/AutoDiff>

#include "tendril/core/error.hpp"

namespace tendril::fit::detail {

using vine::RowSpec;
using vine::VineState;

bool StepMapProblem::constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message) {
  g.resize(num_constraints());
  VecX unused;
  if (jacobian) jacobian->resize(static_cast<Eigen::Index>(jac_rows_.size()));
  ValueWriter writer{jacobian ? *jacobian : unused};
  ValueWriter* values = jacobian ? &writer : nullptr;
  std::vector<double> held_values;  // the held rows' Jacobian values, put last
  if (!dynamics_rows(x, g, values, held_values, message)) return false;
  int row = num_dynamics_rows();
  for (int i = 0; i <= steps_; ++i) state_rows(x, i, g, row, values);
  contact_rows(x, g, row, values);
  first_velocity_rows(x, g, row, values);
  row += num_held_rows();  // filled with the dynamics rows
  for (double h : held_values) writer.put(h);
  TENDRIL_ASSERT(row == num_constraints(), "constraint count");
  if (!g.allFinite() || (jacobian && !jacobian->allFinite())) {
    message = "a constraint or its derivative is not finite";
    return false;
  }
  TENDRIL_ASSERT(!jacobian || writer.next == static_cast<int>(jac_rows_.size()),
                 "Jacobian pattern size");
  return true;
}

/// Z_{i+1} - f(Z_i) - r_i for every step, the held impulses, and with `jacobian` their derivatives.
bool StepMapProblem::dynamics_rows(const VecX& x, VecX& g, ValueWriter* jacobian,
                                   std::vector<double>& held_values, std::string& message) const {
  std::vector<vine::VineStepper> steppers = step_maps(x);
  for (int i = 0; i < steps_; ++i) {
    VineState s{time(i), x.segment(z(i), n_), x.segment(z(i) + n_, n_)};
    vine::VineStepper& stepper = steppers[held_set_of_step_[i]];
    const vine::VineStepReport report = stepper.step(s);
    if (!report.ok()) {
      message = fmt::format("step {}: {}", first_step_ + i,
                            report.status != vine::QpStatus::solved
                                ? std::string(vine::to_string(report.status))
                                : std::string(vine::to_string(report.failure)));
      return false;
    }
    const int nh = static_cast<int>(held_sets_[held_set_of_step_[i]].size());
    if (nh > 0)
      g.segment(first_held_row() + held_row_of_step_[i], nh) =
          stepper.bilateral_impulses() / impulse_scale_;
    const int row = 2 * n_ * i;
    g.segment(row, n_) = x.segment(z(i + 1), n_) - s.q - x.segment(r(i), n_);
    g.segment(row + n_, n_) = x.segment(z(i + 1) + n_, n_) - s.v - x.segment(r(i) + n_, n_);
    if (!jacobian) continue;
    const vine::StepDerivatives d = vine::step_derivatives(stepper);
    if (!d.ok) {
      message =
          fmt::format("step {}: the step map is not differentiable there (singular KKT matrix)",
                      first_step_ + i);
      return false;
    }
    put_step_derivatives(d, nh, *jacobian, held_values);
  }
  return true;
}

/// One step's dynamics rows in pattern order (build_jacobian_pattern): row by row, Z_i (2n),
/// Z_{i+1} (1), r_i (1), K, C; its held rows' (Z_i, K, C) into held_values.
void StepMapProblem::put_step_derivatives(const vine::StepDerivatives& d, int nh,
                                          ValueWriter& jacobian,
                                          std::vector<double>& held_values) const {
  for (int a = 0; a < 2 * n_; ++a) {
    const bool qrow = a < n_;
    const int ar = qrow ? a : a - n_;
    for (int b = 0; b < n_; ++b) jacobian.put(-(qrow ? d.dq_dq(ar, b) : d.dv_dq(ar, b)));
    for (int b = 0; b < n_; ++b) jacobian.put(-(qrow ? d.dq_dv(ar, b) : d.dv_dv(ar, b)));
    jacobian.put(1.0);
    jacobian.put(-1.0);
    const MatX& dk = qrow ? d.dq_dK : d.dv_dK;
    const MatX& dc = qrow ? d.dq_dC : d.dv_dC;
    if (options_.per_joint) {
      for (int j = 0; j < pins_; ++j) jacobian.put(-dk(ar, j) * k_scale_);
      for (int j = 0; j < pins_; ++j) jacobian.put(-dc(ar, j) * c_scale_);
    } else {
      jacobian.put(-dk.row(ar).sum() * k_scale_);
      jacobian.put(-dc.row(ar).sum() * c_scale_);
    }
  }
  for (int h = 0; h < nh; ++h) {
    for (int b = 0; b < n_; ++b) held_values.push_back(d.dheld_dq(h, b) / impulse_scale_);
    for (int b = 0; b < n_; ++b) held_values.push_back(d.dheld_dv(h, b) / impulse_scale_);
    if (options_.per_joint) {
      for (int j = 0; j < pins_; ++j)
        held_values.push_back(d.dheld_dK(h, j) * k_scale_ / impulse_scale_);
      for (int j = 0; j < pins_; ++j)
        held_values.push_back(d.dheld_dC(h, j) * c_scale_ / impulse_scale_);
    } else {
      held_values.push_back(d.dheld_dK.row(h).sum() * k_scale_ / impulse_scale_);
      held_values.push_back(d.dheld_dC.row(h).sum() * c_scale_ / impulse_scale_);
    }
  }
}

/// The joint rows c(q_i) (rhs = -c(q) / dt, a = dc/dq on the used local entries of the non-world
/// bodies) and the growth rows g(q_i, v_i) - u_i of state i.
void StepMapProblem::state_rows(const VecX& x, int i, VecX& g, int& row,
                                ValueWriter* jacobian) const {
  const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_);
  VecN<6> ql, vl, al;
  double rhs = 0.0;
  for (const RowSpec& spec : joint_specs_) {
    stepper_.gather_local(spec, q, v, ql, vl);
    vine::evaluate_row<double>(spec, stepper_.row_context(spec), ql, vl, al, rhs);
    g(row++) = -model_.dt * rhs;
    if (jacobian)
      for (int l = 0; l < 6; ++l)
        if (row_uses(spec, l)) jacobian->put(al(l));
  }
  // growth rows: g(q, v) = h^ . dh/dt; the row template with lookahead 0 is dg/dv, and with
  // lookahead 1 and dt = 1 it is dg/dv + dg/dq
  for (std::size_t p = 0; p < growth_specs_.size(); ++p) {
    const RowSpec& spec = growth_specs_[p];
    stepper_.gather_local(spec, q, v, ql, vl);
    vine::RowContext ctx = stepper_.row_context(spec);
    ctx.growth_lookahead = 0.0;
    vine::evaluate_row<double>(spec, ctx, ql, vl, al, rhs);
    g(row++) = al.dot(vl) - rates_[i](static_cast<Eigen::Index>(p));
    if (!jacobian) continue;
    VecN<6> gq;
    ctx.growth_lookahead = 1.0;
    ctx.dt = 1.0;
    vine::evaluate_row<double>(spec, ctx, ql, vl, gq, rhs);
    gq -= al;
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) jacobian->put(gq(l));
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) jacobian->put(al(l));
  }
}

/// Phi(q_i) of the known contacts at their steps.
void StepMapProblem::contact_rows(const VecX& x, VecX& g, int& row, ValueWriter* jacobian) const {
  VecN<6> ql, vl, al;
  double rhs = 0.0;
  for (const ContactRow& cr : contact_rows_) {
    const VecX q = x.segment(z(cr.step), n_), v = x.segment(z(cr.step) + n_, n_);
    stepper_.gather_local(cr.spec, q, v, ql, vl);
    double phi = 0.0;
    vine::evaluate_row<double>(cr.spec, stepper_.row_context(cr.spec), ql, vl, al, rhs, &phi);
    g(row++) = phi;
    if (jacobian)
      for (int l = 3; l < 6; ++l) jacobian->put(al(l));
  }
}

/// The joints' velocity constraints at Z_0: a(q_0) . v_0 with a = dc/dq; d/dq_0 = v_0 . da/dq_0.
void StepMapProblem::first_velocity_rows(const VecX& x, VecX& g, int& row,
                                         ValueWriter* jacobian) const {
  using Ad = Eigen::AutoDiffScalar<VecN<6>>;
  VecN<6> ql, vl;
  for (int j = 0; j < num_first_velocity_rows(); ++j) {
    const RowSpec& spec = joint_specs_[static_cast<std::size_t>(j)];
    stepper_.gather_local(spec, x.segment(z(0), n_), x.segment(z(0) + n_, n_), ql, vl);
    Eigen::Matrix<Ad, 6, 1> qa, va, aa;
    for (int l = 0; l < 6; ++l) {
      qa(l) = Ad(ql(l), VecN<6>::Unit(l));
      va(l) = Ad(vl(l), VecN<6>::Zero());
    }
    Ad rhs_ad;
    vine::evaluate_row<Ad>(spec, stepper_.row_context(spec), qa, va, aa, rhs_ad);
    double velocity = 0.0;
    VecN<6> dq = VecN<6>::Zero();
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) {
        velocity += aa(l).value() * vl(l);
        dq += vl(l) * aa(l).derivatives();
      }
    g(row++) = velocity;
    if (!jacobian) continue;
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) jacobian->put(dq(l));
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) jacobian->put(aa(l).value());
  }
}

void StepMapProblem::build_jacobian_pattern() {
  int row = 0;
  const auto add = [&](int rr, int cc) {
    jac_rows_.push_back(rr);
    jac_cols_.push_back(cc);
  };
  for (int i = 0; i < steps_; ++i)
    for (int a = 0; a < 2 * n_; ++a, ++row) {
      for (int b = 0; b < 2 * n_; ++b) add(row, z(i) + b);
      add(row, z(i + 1) + a);
      add(row, r(i) + a);
      for (int j = 0; j < nk_; ++j) add(row, k(j));
      for (int j = 0; j < nk_; ++j) add(row, c(j));
    }
  // the state rows: a row's used local entries, of q (and of v for the velocity rows)
  const auto add_row = [&](const RowSpec& spec, int state, bool with_velocity) {
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) add(row, z(state) + row_dof(spec, l));
    if (with_velocity)
      for (int l = 0; l < 6; ++l)
        if (row_uses(spec, l)) add(row, z(state) + n_ + row_dof(spec, l));
    ++row;
  };
  for (int i = 0; i <= steps_; ++i) {
    for (const RowSpec& spec : joint_specs_) add_row(spec, i, false);
    for (const RowSpec& spec : growth_specs_) add_row(spec, i, true);
  }
  for (const ContactRow& cr : contact_rows_) {
    for (int l = 3; l < 6; ++l) add(row, z(cr.step) + row_dof(cr.spec, l));
    ++row;
  }
  for (int j = 0; j < num_first_velocity_rows(); ++j)
    add_row(joint_specs_[static_cast<std::size_t>(j)], 0, true);
  for (int i = 0; i < steps_; ++i)
    for (int h = held_row_of_step_[i]; h < held_row_of_step_[i + 1]; ++h, ++row) {
      for (int b = 0; b < 2 * n_; ++b) add(row, z(i) + b);
      for (int j = 0; j < 2 * nk_; ++j) add(row, k(0) + j);
    }
}

}  // namespace tendril::fit::detail
