// The transcribed problem's Hessian entries (fit/transcribed_problem.hpp), one pass that records
// the pattern or adds the values (fit/sparse_pattern.hpp): the objective's (with the observation's
// curvature), then the curvature of every step's rows and of the first state's rows times their
// multipliers. Every block is local to one step and a row's two bodies; F is bilinear in (K, q)
// and (C, v).
#include "tendril/fit/transcribed_problem.hpp"

namespace tendril::fit::detail {

using vine::RowKind;
using vine::RowSecondDerivatives;
using vine::RowSpec;

void TranscribedProblem::hessian_entries(const VecX& x, double factor, const VecX& lambda,
                                         bool curvature, Emitter& add) const {
  objective_hessian_entries(x, factor, curvature, add);
  const double on = curvature ? 1.0 : 0.0;
  for (int i = 0; i < steps_; ++i) step_hessian_entries(x, lambda, on, i, add);
  first_state_hessian_entries(x, lambda, on, add);
}

/// The objective's: 2 w (dp^T dp [+ sum_k e_k d2p_k/dq2]) per frame, 2 R on r, the prior's
/// 2 / sigma_y^2 on y.
void TranscribedProblem::objective_hessian_entries(const VecX& x, double factor, bool curvature,
                                                   Emitter& add) const {
  const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
  for (int i = 0; i <= steps_; ++i) {
    if (frame_of_step_[i] < 0) continue;
    const MeasuredFrame& frame = frames_[frame_of_step_[i]];
    MatX dp;
    const VecX e = data_residual(x, i, &dp);
    MatX h = dp.transpose() * dp;
    if (curvature)
      h += observation_curvature(model_, x.segment(z(i), n_), Observation::points,
                                 static_cast<int>(frame.points.rows()), e);
    h *= 2.0 * w * factor;
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b <= a; ++b) add.add_lower(z(i) + a, z(i) + b, h(a, b));
  }
  for (int i = 0; i < steps_; ++i)
    for (int a = 0; a < 2 * n_; ++a) add.add_lower(r(i) + a, r(i) + a, 2.0 * factor * weights_(a));
  if (prior_weight_ > 0.0)
    for (int a = y(0); a < y(steps_); ++a) add.add_lower(a, a, 2.0 * factor * prior_weight_);
}

/// Step i's rows times their multipliers (`on` 0: the pattern's entries with value 0).
void TranscribedProblem::step_hessian_entries(const VecX& x, const VecX& lambda, double on, int i,
                                              Emitter& add) const {
  const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_),
             vn = x.segment(z(i + 1) + n_, n_);
  const VecX lam_v = on * lambda.segment(row(i) + n_, n_);
  // springs and dampers: d2(-lam_v . dt M^-1 F) / dq d(K / K_scale) = dt K_scale (lam_v . M^-1
  // e_j) e_j
  for (int j = 0; j < pins_; ++j) {
    const double s = model_.dt * lam_v.dot(minv_.cwiseProduct(torque_map_[j]));
    for (int o = 0; o < n_; ++o) {
      if (torque_map_[j](o) == 0.0) continue;
      add.add_lower(k(nk_ > 1 ? j : 0), z(i) + o, k_scale_ * s * torque_map_[j](o));
      add.add_lower(c(nk_ > 1 ? j : 0), z(i) + n_ + o, c_scale_ * s * torque_map_[j](o));
    }
    // the heading's: F_0 = -K_0 (theta - theta_bar_0) e_0 is bilinear in K_0 and theta_bar_0
    if (j == 0 && heading_ >= 0)
      add.add_lower(p(heading_), k(0), -k_scale_ * parameter_scale(heading_) * s);
  }
  for (std::size_t a = 0; a < rows_[i].size(); ++a) {
    const RowSpec& spec = rows_[i][a];
    const RowSecondDerivatives d = row_at(spec, q, v);
    const int ycol = y(i) + static_cast<int>(a);
    const double ya = x(ycol), mu = on * lambda(row(i) + 2 * n_ + static_cast<int>(a));
    const std::vector<int> in = inputs(spec, spec.kind == RowKind::growth);
    const VecN<6> vnl = local(spec, vn);
    // the dynamics rows' -m_ref M^-1 y a(q, v) weighted by lam_v, and the row's mu (a . v_{i+1}
    // - rhs)
    VecN<6> wl = VecN<6>::Zero();
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) wl(l) = -m_ref_ * minv_(row_dof(spec, l)) * lam_v(row_dof(spec, l));
    MatN<12> h = -mu * d.d2rhs;
    for (int l = 0; l < 6; ++l) h += (ya * wl(l) + mu * vnl(l)) * d.d2a[l];
    const VecN<12> hy = d.da.transpose() * wl;
    for (std::size_t p = 0; p < in.size(); ++p) {
      for (std::size_t s = 0; s <= p; ++s)
        add.add_lower(column(spec, i, in[p]), column(spec, i, in[s]), h(in[p], in[s]));
      add.add_lower(ycol, column(spec, i, in[p]), hy(in[p]));
      for (int l = 0; l < 6; ++l)
        if (row_uses(spec, l))
          add.add_lower(z(i + 1) + n_ + row_dof(spec, l), column(spec, i, in[p]),
                        mu * d.da(l, in[p]));
    }
  }
}

/// The first state's joint, velocity and growth rows and the length rows |p_b - p_a|^2 (2 on p_a's
/// and p_b's diagonals, -2 between them) times their multipliers.
void TranscribedProblem::first_state_hessian_entries(const VecX& x, const VecX& lambda, double on,
                                                     Emitter& add) const {
  const VecX q0 = x.segment(z(0), n_), v0 = x.segment(z(0) + n_, n_);
  int g0 = row(steps_);
  for (const RowSpec& spec : joint_specs_) {
    const RowSecondDerivatives d = row_at(spec, q0, v0);
    const double mu = on * lambda(g0++);
    const std::vector<int> in = inputs(spec, false);
    for (std::size_t p = 0; p < in.size(); ++p)
      for (std::size_t s = 0; s <= p; ++s)
        add.add_lower(column(spec, 0, in[p]), column(spec, 0, in[s]), -mu * d.d2rhs(in[p], in[s]));
  }
  for (int set = 0; set < 2; ++set)
    for (const RowSpec& spec : set == 0 ? joint_specs_ : growth_specs_) {
      const RowSecondDerivatives d = row_at(spec, q0, v0, false);
      const MatN<12> h = (on * lambda(g0++)) * vine::velocity_row_hessian(d, local(spec, v0));
      const std::vector<int> in = inputs(spec, true);
      for (std::size_t p = 0; p < in.size(); ++p)
        for (std::size_t s = 0; s <= p; ++s)
          add.add_lower(column(spec, 0, in[p]), column(spec, 0, in[s]), h(in[p], in[s]));
    }
  for (const RowSpec& spec : length_specs_) {
    const double mu = on * lambda(g0++);
    for (int d = 0; d < 2; ++d) {
      const int a = z(0) + 3 * spec.body_a + d, b = z(0) + 3 * spec.body_b + d;
      add.add_lower(a, a, 2.0 * mu);
      add.add_lower(b, b, 2.0 * mu);
      add.add_lower(b, a, -2.0 * mu);
    }
  }
}

}  // namespace tendril::fit::detail
