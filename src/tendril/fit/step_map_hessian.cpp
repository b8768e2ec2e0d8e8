// The step map problem's Hessians (fit/step_map_problem.hpp): the objective's Gauss-Newton matrix
// and the exact Hessian of the Lagrangian, with their patterns.
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/fit/step_map_problem.hpp"
#include "tendril/vine/step_second_derivatives.hpp"

namespace tendril::fit::detail {

using vine::RowSpec;
using vine::VineState;

void StepMapProblem::gauss_newton(const VecX& x, double factor, double* values) const {
  const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
  int value = 0;
  for (int i = 0; i <= steps_; ++i) {
    if (frame_of_step_[i] < 0) continue;
    const MatX& target = frames_[frame_of_step_[i]].points;
    MatX points, dpoints;
    observe_vine(model_, x.segment(z(i), n_), Observation::points, static_cast<int>(target.rows()),
                 points, &dpoints);
    const MatX h = 2.0 * w * factor * dpoints.transpose() * dpoints;
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b <= a; ++b) values[value++] = h(a, b);
  }
  for (int i = 0; i < steps_; ++i)
    for (int a = 0; a < 2 * n_; ++a) values[value++] = 2.0 * factor * weights_(a);
}

bool StepMapProblem::exact_hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                                   std::string& message) const {
  TENDRIL_ASSERT(exact() && lambda.size() == num_constraints(),
                 "EstimationHessian::exact, one multiplier per row");
  const int nz = 2 * n_, np = 2 * nk_;
  std::vector<MatX> block(steps_ + 1, MatX::Zero(nz, nz));  // d2/dZ_i^2
  std::vector<MatX> cross(steps_, MatX::Zero(np, nz));      // d2/d(K, C) dZ_i
  MatX params = MatX::Zero(np, np);                         // d2/d(K, C)^2
  const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
  for (int i = 0; i <= steps_; ++i) {
    if (frame_of_step_[i] < 0) continue;
    MatX dpoints;
    const VecX e = data_residual(x, i, &dpoints);
    const MatX curvature =
        observation_curvature(model_, x.segment(z(i), n_), Observation::points,
                              static_cast<int>(frames_[frame_of_step_[i]].points.rows()), e);
    block[i].topLeftCorner(n_, n_) +=
        2.0 * w * factor * (dpoints.transpose() * dpoints + curvature);
  }
  if (!add_step_curvature(x, lambda, block, cross, params, message)) return false;
  add_row_curvature(x, lambda, block);
  // in the order of build_exact_hessian_pattern
  int value = 0;
  for (int i = 0; i <= steps_; ++i)
    for (int a = 0; a < nz; ++a)
      for (int b = 0; b <= a; ++b) values[value++] = block[i](a, b);
  for (int i = 0; i < steps_; ++i)
    for (int a = 0; a < nz; ++a) values[value++] = 2.0 * factor * weights_(a);
  for (int p = 0; p < np; ++p) {
    for (int i = 0; i < steps_; ++i)
      for (int b = 0; b < nz; ++b) values[value++] = cross[i](p, b);
    for (int p2 = 0; p2 <= p; ++p2) values[value++] = params(p, p2);
  }
  TENDRIL_ASSERT(value == static_cast<int>(exact_rows_.size()), "exact Hessian pattern size");
  for (int e = 0; e < value; ++e)
    if (!std::isfinite(values[e])) {
      message = "a Hessian entry is not finite";
      return false;
    }
  return true;
}

/// The dynamics rows' -lambda_i . d2f(Z_i, K, C) and the held impulses' curvature, step by step,
/// into the state blocks, the (K, C)-state blocks and the (K, C) block.
bool StepMapProblem::add_step_curvature(const VecX& x, const VecX& lambda, std::vector<MatX>& block,
                                        std::vector<MatX>& cross, MatX& params,
                                        std::string& message) const {
  const int nz = 2 * n_;
  std::vector<vine::VineStepper> steppers = step_maps(x);
  // theta = (q_i, v_i, K_j, C_j) -> x's (Z_i, K / K_scale, C / C_scale): K_j = K_scale x_K
  // (x_K_j per joint)
  const auto param = [&](int t) {
    const int j = (t - nz) % pins_;
    const bool damping = t - nz >= pins_;
    return std::pair{(damping ? nk_ : 0) + (options_.per_joint ? j : 0),
                     damping ? c_scale_ : k_scale_};
  };
  for (int i = 0; i < steps_; ++i) {
    VineState s{time(i), x.segment(z(i), n_), x.segment(z(i) + n_, n_)};
    vine::VineStepper& stepper = steppers[held_set_of_step_[i]];
    if (!stepper.step(s).ok()) {
      message = fmt::format("step {}: the model fails in the Hessian", first_step_ + i);
      return false;
    }
    const int nh = static_cast<int>(held_sets_[held_set_of_step_[i]].size());
    const VecX w_held =
        lambda.segment(first_held_row() + held_row_of_step_[i], nh) / impulse_scale_;
    const auto li =
        lambda.segment(2 * n_ * i, nz);  // g = Z_{i+1} - f(Z_i) - r_i: weight -lambda_i on f
    const vine::StepSecondDerivatives d =
        vine::step_second_derivatives(stepper, -li.head(n_), -li.tail(n_), w_held);
    if (!d.ok) {
      message =
          fmt::format("step {}: the step map is not differentiable there (singular KKT matrix)",
                      first_step_ + i);
      return false;
    }
    block[i] += d.hessian.topLeftCorner(nz, nz);
    for (int t = nz; t < nz + 2 * pins_; ++t) {
      const auto [p, scale] = param(t);
      cross[i].row(p) += scale * d.hessian.row(t).head(nz);
      for (int t2 = nz; t2 < nz + 2 * pins_; ++t2) {
        const auto [p2, scale2] = param(t2);
        params(p, p2) += scale * scale2 * d.hessian(t, t2);
      }
    }
  }
  return true;
}

/// The rows on single states (joint, growth, contact, first-state velocity) times their
/// multipliers: their local inputs (q_a, q_b, v_a, v_b) to the state's (q, v).
void StepMapProblem::add_row_curvature(const VecX& x, const VecX& lambda,
                                       std::vector<MatX>& block) const {
  const auto add_local = [&](MatX& target, const RowSpec& spec, const MatN<12>& h) {
    int index[12];
    for (int l = 0; l < 12; ++l) {
      const int body = l % 6 < 3 ? spec.body_a : spec.body_b;
      index[l] = body < 0 ? -1 : (l < 6 ? 0 : n_) + 3 * body + l % 3;
    }
    for (int a = 0; a < 12; ++a)
      for (int b = 0; b < 12; ++b)
        if (index[a] >= 0 && index[b] >= 0) target(index[a], index[b]) += h(a, b);
  };
  VecN<6> ql, vl;
  int row = num_dynamics_rows();
  for (int i = 0; i <= steps_; ++i) {
    const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_);
    for (const RowSpec& spec : joint_specs_) {  // g = c(q) = -dt rhs
      stepper_.gather_local(spec, q, v, ql, vl);
      const vine::RowSecondDerivatives d =
          vine::row_second_derivatives(spec, stepper_.row_context(spec), ql, vl);
      add_local(block[i], spec, -model_.dt * lambda(row++) * d.d2rhs);
    }
    for (const RowSpec& spec : growth_specs_) {  // g = a(q, v) . v with look-ahead 0
      stepper_.gather_local(spec, q, v, ql, vl);
      vine::RowContext ctx = stepper_.row_context(spec);
      ctx.growth_lookahead = 0.0;
      add_local(block[i], spec,
                lambda(row++) * vine::velocity_row_hessian(
                                    vine::row_second_derivatives(spec, ctx, ql, vl), vl));
    }
  }
  for (const ContactRow& cr : contact_rows_) {  // g = Phi(q)
    stepper_.gather_local(cr.spec, x.segment(z(cr.step), n_), x.segment(z(cr.step) + n_, n_), ql,
                          vl);
    const vine::RowSecondDerivatives d =
        vine::row_second_derivatives(cr.spec, stepper_.row_context(cr.spec), ql, vl);
    add_local(block[cr.step], cr.spec, lambda(row++) * d.d2phi);
  }
  for (int j = 0; j < num_first_velocity_rows(); ++j) {  // g = dc/dq(q_0) . v_0
    const RowSpec& spec = joint_specs_[static_cast<std::size_t>(j)];
    stepper_.gather_local(spec, x.segment(z(0), n_), x.segment(z(0) + n_, n_), ql, vl);
    const vine::RowSecondDerivatives d =
        vine::row_second_derivatives(spec, stepper_.row_context(spec), ql, vl);
    add_local(block[0], spec, lambda(row++) * vine::velocity_row_hessian(d, vl));
  }
}

void StepMapProblem::build_hessian_pattern() {
  for (int i = 0; i <= steps_; ++i) {
    if (frame_of_step_[i] < 0) continue;
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b <= a; ++b) {
        hess_rows_.push_back(z(i) + a);
        hess_cols_.push_back(z(i) + b);
      }
  }
  for (int i = 0; i < steps_; ++i)
    for (int a = 0; a < 2 * n_; ++a) {
      hess_rows_.push_back(r(i) + a);
      hess_cols_.push_back(r(i) + a);
    }
}

/// The exact Hessian's pattern (lower triangle): every state's Z_i block dense, the r_i diagonal,
/// then for each of K, C (scaled) a row over Z_0 .. Z_{N-1} and the (K, C) block.
void StepMapProblem::build_exact_hessian_pattern() {
  const auto add = [&](int rr, int cc) {
    exact_rows_.push_back(rr);
    exact_cols_.push_back(cc);
  };
  for (int i = 0; i <= steps_; ++i)
    for (int a = 0; a < 2 * n_; ++a)
      for (int b = 0; b <= a; ++b) add(z(i) + a, z(i) + b);
  for (int i = 0; i < steps_; ++i)
    for (int a = 0; a < 2 * n_; ++a) add(r(i) + a, r(i) + a);
  for (int p = 0; p < 2 * nk_; ++p) {
    for (int i = 0; i < steps_; ++i)
      for (int b = 0; b < 2 * n_; ++b) add(k(0) + p, z(i) + b);
    for (int p2 = 0; p2 <= p; ++p2) add(k(0) + p, k(0) + p2);
  }
}

}  // namespace tendril::fit::detail
