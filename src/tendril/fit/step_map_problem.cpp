#include "tendril/fit/step_map_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tendril::fit::detail {

using vine::VineModel;
using vine::VineState;

StepMapProblem::StepMapProblem(const VineModel& model, const VineState& start,
                               const std::vector<MeasuredFrame>& frames,
                               const JointEstimationOptions& options)
    : VineEstimationProblem(model, start, frames, options) {
  set_up_contacts();
  impulse_scale_ = stepper_.mass_scale() * options.model_sigma_velocity;
  build_jacobian_pattern();
  build_hessian_pattern();
  if (exact()) build_exact_hessian_pattern();
  simulate_initial_guess(start, {});
}

void StepMapProblem::set_up_contacts() {
  for (const KnownContact& k : options_.contacts)
    for (int s = std::max(k.first_step, first_step_);
         s <= std::min(k.last_step, first_step_ + steps_); ++s)
      contact_rows_.push_back({s - first_step_, contact_row(k)});
  // the step map holds the known contacts by equality rows at their steps (the option)
  held_set_of_step_.assign(steps_, 0);
  held_sets_.assign(1, {});
  if (options_.bilateral_contacts)
    for (int i = 0; i < steps_; ++i) {
      std::vector<vine::BilateralContact> held;
      for (const KnownContact& kc : options_.contacts)
        if (first_step_ + i >= kc.first_step && first_step_ + i <= kc.last_step)
          held.push_back({kc.point, kc.obstacle});
      const auto same = [&](const std::vector<vine::BilateralContact>& set) {
        return set.size() == held.size() &&
               std::equal(set.begin(), set.end(), held.begin(), [](const auto& a, const auto& b) {
                 return a.point == b.point && a.obstacle == b.obstacle;
               });
      };
      const auto found = std::find_if(held_sets_.begin(), held_sets_.end(), same);
      held_set_of_step_[i] = static_cast<int>(found - held_sets_.begin());
      if (found == held_sets_.end()) held_sets_.push_back(held);
    }
  held_row_of_step_.assign(steps_ + 1, 0);
  for (int i = 0; i < steps_; ++i)
    held_row_of_step_[i + 1] =
        held_row_of_step_[i] + static_cast<int>(held_sets_[held_set_of_step_[i]].size());
}

int StepMapProblem::num_constraints() const {
  return 2 * n_ * steps_ +
         (steps_ + 1) * static_cast<int>(joint_specs_.size() + growth_specs_.size()) +
         static_cast<int>(contact_rows_.size()) + num_first_velocity_rows() + num_held_rows();
}

void StepMapProblem::bounds(double* x_l, double* x_u, double* g_l, double* g_u) const {
  std::fill(x_l, x_l + num_variables(), -2e19);
  std::fill(x_u, x_u + num_variables(), 2e19);
  parameter_bounds(x_l, x_u);
  std::fill(g_l, g_l + num_constraints(), 0.0);
  std::fill(g_u, g_u + num_constraints(), 0.0);
  std::fill(g_u + first_held_row(), g_u + num_constraints(), 2e19);  // held impulses >= 0
}

bool StepMapProblem::hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                             std::string& message) {
  if (exact()) return exact_hessian(x, factor, lambda, values, message);
  gauss_newton(x, factor, values);
  return true;
}

double StepMapProblem::violation(const VecX& g) const {
  const int first = first_held_row();
  const double equalities = g.head(first).lpNorm<Eigen::Infinity>();
  return num_held_rows() == 0
             ? equalities
             : std::max(equalities, -std::min(0.0, g.tail(num_held_rows()).minCoeff()));
}

VecX StepMapProblem::parameter_sigmas(const VecX& x, const VecX& g, const VecX& jacobian) {
  std::vector<double> values(hess_rows_.size());
  gauss_newton(x, 0.5, values.data());
  // held impulses' rows count where active (impulse 0); an inactive row gets multiplier 0
  std::vector<int> inactive;
  for (int row = first_held_row(); row < num_constraints(); ++row)
    if (std::abs(g(row)) > 1e-6) inactive.push_back(row);
  return constrained_sigmas(
      num_variables(), num_constraints(), pattern_triplets(hess_rows_, hess_cols_, values.data()),
      pattern_triplets(jac_rows_, jac_cols_, jacobian.data()), inactive, k(0), 2 * nk_);
}

double StepMapProblem::min_contact_impulse(const VecX&, const VecX* g) const {
  return g && num_held_rows() > 0 ? impulse_scale_ * g->tail(num_held_rows()).minCoeff()
                                  : std::numeric_limits<double>::infinity();
}

VecX StepMapProblem::reduced(const VecX& x) const {
  VecX y(num_reduced_variables());
  y << x.head(r(0)), x.tail(2 * nk_);
  return y;
}

VecX StepMapProblem::with_zero_residuals(const VecX& y) const {
  VecX x = VecX::Zero(num_variables());
  x.head(r(0)) = y.head(r(0));
  x.tail(2 * nk_) = y.tail(2 * nk_);
  return x;
}

VecX StepMapProblem::full(const VecX& y) {
  VecX x = with_zero_residuals(y);
  VecX g;
  std::string message;
  if (!constraints(x, g, nullptr, message)) return {};
  x.segment(r(0), 2 * n_ * steps_) = g.head(2 * n_ * steps_);  // g = Z_{i+1} - f(Z_i) - 0
  return x;
}

std::vector<vine::VineStepper> StepMapProblem::step_maps(const VecX& x) const {
  VineModel m = model_;
  // the step checks for drift and blow-up guard simulations; the optimiser's trial points may
  // violate the joints by more than a simulation would, and the step map is defined there
  m.max_joint_error = 1.0;
  m.max_speed = 1e3;
  for (int j = 0; j < pins_; ++j) {
    // IPOPT may step past the bound 0 by its bound_relax_factor (1e-8)
    m.stiffness[j] = std::max(0.0, x(k(options_.per_joint ? j : 0)) * k_scale_);
    m.damping[j] = std::max(0.0, x(c(options_.per_joint ? j : 0)) * c_scale_);
  }
  std::vector<vine::VineStepper> steppers;
  for (const auto& held : held_sets_) {
    steppers.emplace_back(m);
    if (!held.empty()) steppers.back().set_bilateral_contacts(held);
  }
  return steppers;
}

}  // namespace tendril::fit::detail
