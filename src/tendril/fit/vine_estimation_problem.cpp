#include "tendril/fit/vine_estimation_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <Eigen/SparseLU>

#include "tendril/core/error.hpp"

namespace tendril::fit::detail {

namespace {

using vine::VineModel;
using vine::VineState;

void check_frames(const std::vector<MeasuredFrame>& frames, const std::string& key) {
  if (frames.empty()) throw InputError(key + ".frames", "[]", "at least one measured frame");
  for (std::size_t f = 1; f < frames.size(); ++f)
    if (frames[f].step <= frames[f - 1].step)
      throw InputError(fmt::format("{}.frames[{}].step", key, f), std::to_string(frames[f].step),
                       fmt::format("steps increasing (> {})", frames[f - 1].step));
  if (frames.front().step < 0)
    throw InputError(key + ".frames[0].step", std::to_string(frames.front().step), "a step >= 0");
}

void check_known_contacts(const VineModel& model, const JointEstimationOptions& options,
                          const std::string& key) {
  if (!options.contacts.empty() && model.contact_model != vine::ContactModel::point)
    throw InputError(key + ".contacts", "body contact",
                     "the model's point contact (vine.contact_model: point)");
  for (std::size_t c = 0; c < options.contacts.size(); ++c) {
    const KnownContact& k = options.contacts[c];
    const std::string ck = fmt::format("{}.contacts[{}]", key, c);
    if (k.point < 0 || k.point >= static_cast<int>(model.contact_points.size()))
      throw InputError(
          ck + ".point", std::to_string(k.point),
          fmt::format("a contact point index 0 .. {}", model.contact_points.size() - 1));
    if (k.obstacle < 0 || k.obstacle >= static_cast<int>(model.obstacles.size()))
      throw InputError(ck + ".obstacle", std::to_string(k.obstacle),
                       fmt::format("an obstacle index 0 .. {}", model.obstacles.size() - 1));
    if (k.last_step < k.first_step)
      throw InputError(ck + ".last_step", std::to_string(k.last_step),
                       fmt::format(">= first_step {}", k.first_step));
  }
}

/// InputError (key paths under joint_estimation, vine) for input the formulations do not handle.
void check_estimation_input(const VineModel& model, const std::vector<MeasuredFrame>& frames,
                            const JointEstimationOptions& options) {
  const std::string key = "joint_estimation";
  check_frames(frames, key);
  for (const auto& [name, value] :
       {std::pair{"measurement_sigma", options.measurement_sigma},
        {"model_sigma_position", options.model_sigma_position},
        {"model_sigma_angle", options.model_sigma_angle},
        {"model_sigma_velocity", options.model_sigma_velocity},
        {"model_sigma_angular_velocity", options.model_sigma_angular_velocity},
        {"tolerance", options.tolerance}})
    if (!(value > 0.0) || !std::isfinite(value))
      throw InputError(fmt::format("{}.{}", key, name), fmt::format("{}", value),
                       "a finite number > 0");
  if (model.bending_law != vine::BendingLaw::linear)
    throw InputError("vine.bending_law", "inflated_beam",
                     "linear (the joint estimation fits K and C; the inflated-beam law's "
                     "parameters are fitted by vine_shooting)");
  if (model.stiffness.empty() || !(model.stiffness[0] > 0.0) || !(model.damping[0] > 0.0))
    throw InputError("vine.stiffness",
                     model.stiffness.empty() ? "[]" : fmt::format("{}", model.stiffness[0]),
                     "an initial guess K > 0 and C > 0");
  if (options.hessian == EstimationHessian::exact && options.eliminate_model_residuals)
    throw InputError(key + ".hessian", "exact", "gauss_newton with eliminate_model_residuals");
  if (model.growth_control != vine::GrowthControl::rate)
    throw InputError("vine.growth_control", "force_limited",
                     "rate (the step map is differentiated for it)");
  check_known_contacts(model, options, key);
}

/// R's diagonal (2n): 1/sigma_q^2, 1/sigma_q^2, 1/sigma_theta^2 per body, then 1/sigma_v^2,
/// 1/sigma_v^2, 1/sigma_omega^2 per body.
VecX model_residual_weights(const VineModel& model, const JointEstimationOptions& options) {
  const int n = model.num_dofs();
  VecX weights(2 * n);
  for (int b = 0; b < model.num_bodies; ++b) {
    weights.segment<3>(3 * b) << 1.0 / std::pow(options.model_sigma_position, 2),
        1.0 / std::pow(options.model_sigma_position, 2),
        1.0 / std::pow(options.model_sigma_angle, 2);
    weights.segment<3>(n + 3 * b) << 1.0 / std::pow(options.model_sigma_velocity, 2),
        1.0 / std::pow(options.model_sigma_velocity, 2),
        1.0 / std::pow(options.model_sigma_angular_velocity, 2);
  }
  return weights;
}

/// The upper bound on C [N m s/rad]: options.damping_max, or if <= 0 with the paper's explicit
/// springs min_i I_i / Delta t (JointEstimationOptions::damping_max), else +inf.
double damping_upper_bound(const VineModel& model, const JointEstimationOptions& options) {
  if (options.damping_max > 0.0) return options.damping_max;
  return model.springs == vine::SpringIntegration::explicit_forces
             ? *std::min_element(model.inertia.begin(), model.inertia.end()) / model.dt
             : std::numeric_limits<double>::infinity();
}

}  // namespace

VineEstimationProblem::VineEstimationProblem(const VineModel& model, const VineState& start,
                                             const std::vector<MeasuredFrame>& frames,
                                             const JointEstimationOptions& options)
    : model_(model), frames_(frames), options_(options), stepper_(model) {
  check_estimation_input(model, frames, options);
  n_ = model.num_dofs();
  pins_ = model.num_pins();
  nk_ = options.per_joint ? pins_ : 1;
  first_step_ = frames.front().step;
  steps_ = frames.back().step - first_step_;  // N
  start_time_ = start.time + first_step_ * model.dt;
  k_scale_ = options.stiffness_scale > 0.0 ? options.stiffness_scale : model.stiffness[0];
  c_scale_ = options.damping_scale > 0.0 ? options.damping_scale : model.damping[0];
  k_max_ = options.stiffness_max;
  c_max_ = damping_upper_bound(model, options);
  weights_ = model_residual_weights(model, options);
  const int joint_rows = 2 * model.num_bodies;
  joint_specs_.assign(stepper_.equality_rows().begin(),
                      stepper_.equality_rows().begin() + joint_rows);
  growth_specs_.assign(stepper_.equality_rows().begin() + joint_rows,
                       stepper_.equality_rows().end());
  frame_of_step_.assign(steps_ + 1, -1);
  for (std::size_t f = 0; f < frames.size(); ++f)
    frame_of_step_[frames[f].step - first_step_] = static_cast<int>(f);
  rates_.resize(steps_ + 1);
  for (int i = 0; i <= steps_; ++i) rates_[i] = stepper_.joint_growth_rates(time(i));
}

double VineEstimationProblem::objective_terms(const VecX& x, VecX* gradient, double* data,
                                              double* model) const {
  if (gradient) gradient->setZero(x.size());
  const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
  double fd = 0.0, fm = 0.0;
  for (const MeasuredFrame& frame : frames_) {
    const int i = frame.step - first_step_;
    MatX dpoints;
    const VecX e = data_residual(x, i, gradient ? &dpoints : nullptr);
    fd += w * e.squaredNorm();
    if (gradient) gradient->segment(z(i), n_) += 2.0 * w * dpoints.transpose() * e;
  }
  for (int i = 0; i < steps_; ++i) {
    const auto ri = x.segment(r(i), 2 * n_);
    fm += ri.dot(weights_.cwiseProduct(ri));
    if (gradient) gradient->segment(r(i), 2 * n_) = 2.0 * weights_.cwiseProduct(ri);
  }
  if (data) *data = fd;
  if (model) *model = fm;
  return fd + fm;
}

VecX VineEstimationProblem::data_residual(const VecX& x, int i, MatX* dpoints) const {
  const MeasuredFrame& frame = frames_[frame_of_step_[i]];
  MatX points;
  observe_vine(model_, x.segment(z(i), n_), Observation::points,
               static_cast<int>(frame.points.rows()), points, dpoints);
  VecX e(2 * points.rows());
  for (int p = 0; p < points.rows(); ++p)
    for (int d = 0; d < 2; ++d) e(2 * p + d) = points(p, d) - frame.points(p, d);
  return e;
}

VecX VineEstimationProblem::data_residuals(
    const VecX& x, std::vector<Eigen::Triplet<double, int>>* jacobian) const {
  const double ws = 1.0 / options_.measurement_sigma;
  std::vector<VecX> data;
  int rows = 0;
  for (int i = 0; i <= steps_; ++i) {
    if (frame_of_step_[i] < 0) continue;
    MatX dpoints;
    data.push_back(ws * data_residual(x, i, jacobian ? &dpoints : nullptr));
    if (jacobian)
      for (int a = 0; a < dpoints.rows(); ++a)
        for (int b = 0; b < n_; ++b)
          if (dpoints(a, b) != 0.0) jacobian->emplace_back(rows + a, z(i) + b, ws * dpoints(a, b));
    rows += static_cast<int>(data.back().size());
  }
  VecX out(rows);
  int row = 0;
  for (const VecX& d : data) {
    out.segment(row, d.size()) = d;
    row += static_cast<int>(d.size());
  }
  return out;
}

std::vector<MatX> VineEstimationProblem::observed(const VecX& x) const {
  std::vector<MatX> out;
  for (const MeasuredFrame& f : frames_) {
    MatX points;
    observe_vine(model_, x.segment(z(f.step - first_step_), n_), Observation::points,
                 static_cast<int>(f.points.rows()), points, nullptr);
    out.push_back(points);
  }
  return out;
}

void VineEstimationProblem::parameter_bounds(double* x_l, double* x_u) const {
  for (int j = 0; j < nk_; ++j) {
    x_l[k(j)] = x_l[c(j)] = 0.0;
    x_u[k(j)] = std::min(k_max_ / k_scale_, 2e19);
    x_u[c(j)] = std::min(c_max_ / c_scale_, 2e19);
  }
}

vine::RowSpec VineEstimationProblem::contact_row(const KnownContact& contact) const {
  vine::RowSpec spec;
  spec.kind = vine::RowKind::contact;
  spec.body_b = model_.contact_points[contact.point].body;
  spec.d_b = model_.contact_points[contact.point].offset;
  spec.obstacle = contact.obstacle;
  return spec;
}

void VineEstimationProblem::simulate_initial_guess(
    const VineState& start, const std::function<void(int, const vine::VineStepper&)>& after_step) {
  x0_ = VecX::Zero(num_variables());
  vine::VineStepper stepper(model_);
  VineState s = start;
  for (int step = 0; step <= first_step_ + steps_; ++step) {
    const int i = step - first_step_;
    if (i >= 0) {
      x0_.segment(z(i), n_) = s.q;
      x0_.segment(z(i) + n_, n_) = s.v;
    }
    if (i == steps_) break;
    const vine::VineStepReport report = stepper.step(s);
    if (!report.ok())
      throw InputError("vine",
                       fmt::format("K = {}, C = {}", model_.stiffness[0], model_.damping[0]),
                       fmt::format("an initial guess that simulates (step {} failed: {})", step,
                                   report.status != vine::QpStatus::solved
                                       ? std::string(vine::to_string(report.status))
                                       : std::string(vine::to_string(report.failure))));
    if (i >= 0 && after_step) after_step(i, stepper);
  }
  for (int j = 0; j < nk_; ++j) {
    x0_(k(j)) = model_.stiffness[j] / k_scale_;
    x0_(c(j)) = model_.damping[j] / c_scale_;
  }
}

VecX constrained_sigmas(int nv, int nc,
                        const std::vector<Eigen::Triplet<double, int>>& hessian_lower,
                        const std::vector<Eigen::Triplet<double, int>>& jacobian,
                        const std::vector<int>& inactive_rows, int first_parameter, int count) {
  std::vector<Eigen::Triplet<double, int>> t;
  for (const auto& h : hessian_lower) {
    t.push_back(h);
    if (h.row() != h.col()) t.emplace_back(h.col(), h.row(), h.value());
  }
  std::vector<char> inactive(nc, 0);
  for (int row : inactive_rows) inactive[row] = 1;
  for (const auto& a : jacobian) {
    if (inactive[a.row()]) continue;
    t.emplace_back(nv + a.row(), a.col(), a.value());
    t.emplace_back(a.col(), nv + a.row(), a.value());
  }
  for (int row : inactive_rows) t.emplace_back(nv + row, nv + row, 1.0);
  SparseMatrix kkt(nv + nc, nv + nc);
  kkt.setFromTriplets(t.begin(), t.end());
  Eigen::SparseLU<SparseMatrix> lu(kkt);
  VecX sigma = VecX::Constant(count, std::numeric_limits<double>::infinity());
  if (lu.info() != Eigen::Success) return sigma;
  for (int p = 0; p < count; ++p) {
    VecX e = VecX::Zero(nv + nc);
    e(first_parameter + p) = 1.0;
    const VecX col = lu.solve(e);
    const double variance = col(first_parameter + p);
    if (lu.info() == Eigen::Success && variance > 0.0 && std::isfinite(variance))
      sigma(p) = std::sqrt(variance);
  }
  return sigma;
}

void report_estimate(VineEstimationProblem& problem, const VecX& x, JointEstimationResult& result) {
  result.objective = problem.objective_terms(x, nullptr, &result.data_term, &result.model_term);
  VecX g, jac;
  std::string message;
  const bool evaluated = problem.constraints(x, g, &jac, message);
  result.constraint_violation =
      evaluated ? problem.violation(g) : std::numeric_limits<double>::infinity();
  result.min_contact_impulse = problem.min_contact_impulse(x, evaluated ? &g : nullptr);
  const int nk = problem.num_parameters();
  VecX sigma = VecX::Constant(2 * nk, std::numeric_limits<double>::infinity());
  if (evaluated && result.status != "User_Requested_Stop")
    sigma = problem.parameter_sigmas(x, g, jac);  // not when stopped
  for (int j = 0; j < nk; ++j) {
    result.stiffness.push_back(std::max(0.0, x(problem.k(j)) * problem.stiffness_scale()));
    result.damping.push_back(std::max(0.0, x(problem.c(j)) * problem.damping_scale()));
    result.stiffness_sigma.push_back(sigma(j) * problem.stiffness_scale());
    result.damping_sigma.push_back(sigma(nk + j) * problem.damping_scale());
  }
  const int n = problem.dofs();
  for (int i = 0; i <= problem.steps(); ++i)
    result.trajectory.push_back(
        {problem.time(i), x.segment(problem.z(i), n), x.segment(problem.z(i) + n, n)});
  for (int i = 0; i < problem.steps(); ++i)
    result.model_residuals.push_back(x.segment(problem.r(i), 2 * n));
  result.simulated = problem.observed(x);
}

}  // namespace tendril::fit::detail
