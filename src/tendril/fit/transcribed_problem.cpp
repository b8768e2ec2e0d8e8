#include "tendril/fit/transcribed_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine/applied_forces.hpp"

namespace tendril::fit::detail {

using vine::RowKind;
using vine::RowSecondDerivatives;
using vine::RowSpec;
using vine::VineModel;
using vine::VineState;

TranscribedProblem::TranscribedProblem(const VineModel& model, const VineState& start,
                                       const std::vector<MeasuredFrame>& frames,
                                       const JointEstimationOptions& options)
    : VineEstimationProblem(model, start, frames, options) {
  check_options();
  m_ref_ = stepper_.mass_scale();
  prior_weight_ = options.multiplier_sigma > 0.0
                      ? 1.0 / (options.multiplier_sigma * options.multiplier_sigma)
                      : 0.0;
  minv_.resize(n_);
  for (int b = 0; b < model.num_bodies; ++b)
    minv_.segment<3>(3 * b) << 1.0 / model.mass[b], 1.0 / model.mass[b], 1.0 / model.inertia[b];
  for (int j = 0; j < pins_; ++j) {
    VecX e = VecX::Zero(n_);
    vine::add_pin_torque(model, j, 1.0, e);
    torque_map_.push_back(e);
  }
  set_up_length_rows();
  set_up_step_rows();
  simulate_initial_guess(
      start, [this](int i, const vine::VineStepper& stepper) { multipliers_of_step(i, stepper); });
  // the Jacobian's pattern, recorded by one pass (the Hessian's when first asked for)
  VecX g;
  Emitter jac(jacobian_, nullptr);
  constraint_entries(x0_, g, jac);
}

void TranscribedProblem::check_options() const {
  if (model_.springs != vine::SpringIntegration::explicit_forces)
    throw InputError("vine.springs", "implicit",
                     "explicit (the transcribed joint estimation's dynamics rows)");
  if (model_.friction != 0.0)
    throw InputError("vine.friction", fmt::format("{}", model_.friction),
                     "0 (the transcribed joint estimation is frictionless)");
  if (options_.eliminate_model_residuals || options_.bilateral_contacts ||
      options_.first_state_joint_velocities)
    throw InputError(
        "joint_estimation.formulation", "transcribed",
        "without eliminate_model_residuals, bilateral_contacts and first_state_joint_velocities "
        "(step-map options)");
  if (steps_ < 1)
    throw InputError("joint_estimation.frames", std::to_string(frames_.size()),
                     "frames spanning at least one step");
  if (options_.multiplier_sigma < 0.0 || !std::isfinite(options_.multiplier_sigma))
    throw InputError("joint_estimation.multiplier_sigma",
                     fmt::format("{}", options_.multiplier_sigma),
                     "a finite number >= 0 [m/s] (0: no prior on the multipliers)");
  if (std::isnan(options_.min_prismatic_extension) ||
      options_.min_prismatic_extension == std::numeric_limits<double>::infinity())
    throw InputError("joint_estimation.min_prismatic_extension",
                     fmt::format("{}", options_.min_prismatic_extension),
                     "a number [m] or -inf (no bound)");
}

/// |h_j(q_0)|^2 >= (d_a + d_b + e_min)^2 on every prismatic joint j (min_prismatic_extension).
void TranscribedProblem::set_up_length_rows() {
  const double e_min = options_.min_prismatic_extension;
  if (!std::isfinite(e_min)) return;
  for (const RowSpec& spec : joint_specs_)
    if (spec.kind == RowKind::prismatic_a) {
      const double length = spec.d_a + spec.d_b + e_min;
      if (length <= 0.0)
        throw InputError(
            "joint_estimation.min_prismatic_extension", fmt::format("{}", e_min),
            fmt::format("more than -{} m (the joint's two half lengths)", spec.d_a + spec.d_b));
      length_specs_.push_back(spec);
      min_length_squared_.push_back(length * length);
    }
}

/// Per step: the joint, growth and known-contact rows, their multipliers' and constraints'
/// offsets.
void TranscribedProblem::set_up_step_rows() {
  rows_.resize(steps_);
  y_offset_.assign(steps_ + 1, 0);
  g_offset_.assign(steps_ + 1, 0);
  for (int i = 0; i < steps_; ++i) {
    rows_[i] = joint_specs_;
    rows_[i].insert(rows_[i].end(), growth_specs_.begin(), growth_specs_.end());
    for (const KnownContact& kc : options_.contacts)
      if (first_step_ + i >= kc.first_step && first_step_ + i <= kc.last_step)
        rows_[i].push_back(contact_row(kc));
    const int rows = static_cast<int>(rows_[i].size());
    y_offset_[i + 1] = y_offset_[i] + rows;
    g_offset_[i + 1] = g_offset_[i] + 2 * n_ + rows;
  }
  num_multipliers_ = y_offset_[steps_];
}

/// The initial guess's multipliers of step i: the simulated step's y = impulse / m_ref (a known
/// contact not touching in the simulation: 0).
void TranscribedProblem::multipliers_of_step(int i, const vine::VineStepper& stepper) {
  const VecX& y_eq = stepper.last_solution().y_eq;
  const int eq = static_cast<int>(joint_specs_.size() + growth_specs_.size());
  x0_.segment(y(i), eq) = y_eq.head(eq);
  const std::vector<vine::ContactInfo> touching = stepper.contacts();
  for (std::size_t a = joint_specs_.size() + growth_specs_.size(); a < rows_[i].size(); ++a)
    for (const vine::ContactInfo& info : touching)
      if (model_.contact_points[info.point].body == rows_[i][a].body_b &&
          model_.contact_points[info.point].offset == rows_[i][a].d_b &&
          info.obstacle == rows_[i][a].obstacle)
        x0_(y(i) + static_cast<int>(a)) = info.normal_impulse / m_ref_;
}

void TranscribedProblem::bounds(double* x_l, double* x_u, double* g_l, double* g_u) const {
  std::fill(x_l, x_l + num_variables(), -2e19);
  std::fill(x_u, x_u + num_variables(), 2e19);
  for (int i = 0; i < steps_; ++i)
    for (std::size_t a = 0; a < rows_[i].size(); ++a)
      if (rows_[i][a].kind == RowKind::contact) x_l[y(i) + static_cast<int>(a)] = 0.0;
  parameter_bounds(x_l, x_u);
  if (radius_ >= 0) x_l[p(radius_)] = 0.0;  // r_c >= 0
  std::fill(g_l, g_l + num_constraints(), 0.0);
  std::fill(g_u, g_u + num_constraints(), 0.0);
  for (std::size_t a = 0; a < length_specs_.size(); ++a) {
    g_l[first_length_row() + static_cast<int>(a)] = min_length_squared_[a];
    g_u[first_length_row() + static_cast<int>(a)] = 2e19;
  }
}

VecX TranscribedProblem::gaps(const VecX& g) const {
  VecX out = g;
  for (std::size_t a = 0; a < length_specs_.size(); ++a) {
    const int row = first_length_row() + static_cast<int>(a);
    out(row) = std::min(0.0, g(row) - min_length_squared_[a]);
  }
  return out;
}

double TranscribedProblem::objective_terms(const VecX& x, VecX* gradient, double* data,
                                           double* model) const {
  double f = VineEstimationProblem::objective_terms(x, gradient, data, model);
  if (prior_weight_ > 0.0) {
    const auto ys = x.segment(y(0), y(steps_) - y(0));
    const double prior = prior_weight_ * ys.squaredNorm();
    f += prior;
    if (model) *model += prior;
    if (gradient) gradient->segment(y(0), ys.size()) += 2.0 * prior_weight_ * ys;
  }
  return f;
}

bool TranscribedProblem::constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message) {
  VecX values = VecX::Zero(static_cast<Eigen::Index>(jacobian_.rows().size()));
  Emitter e(jacobian_, values.data());
  constraint_entries(x, g, e);
  if (!g.allFinite() || !values.allFinite()) {
    message = "non-finite constraints (a zero-length prismatic joint?)";
    return false;
  }
  if (jacobian) *jacobian = std::move(values);
  return true;
}

bool TranscribedProblem::hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                                 std::string& message) {
  if (options_.hessian == EstimationHessian::exact)
    return exact_hessian(x, factor, lambda, values, message);
  gauss_newton(x, factor, values);
  return true;
}

bool TranscribedProblem::exact_hessian(const VecX& x, double factor, const VecX& lambda,
                                       double* values, std::string& message) const {
  std::fill(values, values + hessian_pattern().rows().size(), 0.0);
  Emitter e(hessian_pattern(), values);
  hessian_entries(x, factor, lambda, true, e);
  for (std::size_t a = 0; a < hessian_pattern().rows().size(); ++a)
    if (!std::isfinite(values[a])) {
      message = "non-finite Hessian";
      return false;
    }
  return true;
}

void TranscribedProblem::gauss_newton(const VecX& x, double factor, double* values) const {
  std::fill(values, values + hessian_pattern().rows().size(), 0.0);
  Emitter e(hessian_pattern(), values);
  hessian_entries(x, factor, VecX::Zero(num_constraints()), false, e);
}

VecX TranscribedProblem::parameter_sigmas(const VecX& x, const VecX& g, const VecX& jacobian) {
  std::vector<double> values(hessian_pattern().rows().size());
  gauss_newton(x, 0.5, values.data());
  std::vector<int> inactive;  // the length rows off their bound are left out
  for (std::size_t b = 0; b < length_specs_.size(); ++b) {
    const int row = first_length_row() + static_cast<int>(b);
    if (g(row) > min_length_squared_[b] * (1.0 + 1e-6)) inactive.push_back(row);
  }
  return constrained_sigmas(
      num_variables(), num_constraints(),
      pattern_triplets(hessian_pattern().rows(), hessian_pattern().cols(), values.data()),
      pattern_triplets(jacobian_.rows(), jacobian_.cols(), jacobian.data()), inactive, k(0),
      2 * nk_ + num_extra_parameters());
}

double TranscribedProblem::min_contact_impulse(const VecX& x, const VecX*) const {
  double smallest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < steps_; ++i)
    for (std::size_t a = 0; a < rows_[i].size(); ++a)
      if (rows_[i][a].kind == RowKind::contact)
        smallest = std::min(smallest, m_ref_ * x(y(i) + static_cast<int>(a)));
  return smallest;
}

SparsePattern& TranscribedProblem::hessian_pattern() const {
  if (!hessian_recorded_) {
    Emitter record(hessian_, nullptr);
    hessian_entries(x0_, 1.0, VecX::Zero(num_constraints()), true, record);
    hessian_recorded_ = true;
  }
  return hessian_;
}

RowSecondDerivatives TranscribedProblem::row_at(const RowSpec& spec, const VecX& q, const VecX& v,
                                                bool lookahead) const {
  VecN<6> ql, vl;
  stepper_.gather_local(spec, q, v, ql, vl);
  vine::RowContext ctx = stepper_.row_context(spec);
  if (!lookahead) ctx.growth_lookahead = 0.0;
  return vine::row_second_derivatives(spec, ctx, ql, vl);
}

VecN<6> TranscribedProblem::local(const RowSpec& spec, const VecX& v) const {
  VecN<6> ql, vl;
  stepper_.gather_local(spec, v, v, ql, vl);
  return vl;
}

std::vector<int> TranscribedProblem::inputs(const RowSpec& spec, bool with_velocity) {
  std::vector<int> m;
  for (int l = 0; l < 6; ++l)
    if (row_uses(spec, l)) m.push_back(l);
  if (with_velocity)
    for (int l = 0; l < 6; ++l)
      if (row_uses(spec, l)) m.push_back(6 + l);
  return m;
}

}  // namespace tendril::fit::detail
