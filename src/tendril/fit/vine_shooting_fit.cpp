#include "tendril/fit/vine_shooting_fit.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <Eigen/Dense>

#include "tendril/core/error.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/vine/step_derivatives.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit {

namespace {

using vine::VineModel;
using vine::VineState;
using Kind = VineParameterKind;

/// d(q, v)_{k+1}/dtheta_p of the step from time `time` at fixed (q_k, v_k) into column p of
/// `sq`, `sv` (added): theta_p = ln(value) for the parameters fitted in ln units.
void add_parameter_columns(const vine::StepDerivatives& d, const VineModel& model, double time,
                           const std::vector<VineParameter>& parameters, const VecX& values,
                           MatX& sq, MatX& sv) {
  const VecX all_pins = VecX::Ones(model.num_pins());
  for (std::size_t k = 0; k < parameters.size(); ++k) {
    const VineParameter& p = parameters[k];
    const auto col = static_cast<Eigen::Index>(k);
    // d value / d theta: value for ln units, 1 otherwise
    const double chain = fitted_in_log(p.kind) ? values(col) : 1.0;
    VecX dq, dv;
    switch (p.kind) {
      case Kind::stiffness:
        dq = d.dq_dK * all_pins, dv = d.dv_dK * all_pins;
        break;
      case Kind::damping:
        dq = d.dq_dC * all_pins, dv = d.dv_dC * all_pins;
        break;
      case Kind::growth_rate: {
        const VecX du = growth_split(model) * model.growth.rate_weight(time, p.index);
        dq = d.dq_du * du, dv = d.dv_du * du;
        break;
      }
      case Kind::heading:
        dq = d.dq_drest.col(0), dv = d.dv_drest.col(0);
        break;
      case Kind::contact_radius:
        dq = d.dq_dradius, dv = d.dv_dradius;
        break;
      case Kind::collapse_moment:
      case Kind::wrinkling_angle: {
        const int c = p.kind == Kind::collapse_moment ? 0 : 1;
        dq = d.dq_dlaw.col(c), dv = d.dv_dlaw.col(c);
        break;
      }
    }
    sq.col(col) += chain * dq;
    sv.col(col) += chain * dv;
  }
}

}  // namespace

MatX pointwise_covariance(const MatX& jacobian, const VecX& residual,
                          const std::vector<MeasuredFrame>& frames) {
  const auto points = static_cast<Eigen::Index>(frames.front().points.rows());
  for (const MeasuredFrame& f : frames)
    TENDRIL_ASSERT(f.points.rows() == points &&
                       residual.size() == 2 * points * static_cast<Eigen::Index>(frames.size()),
                   "every frame with as many points, all observed");
  // Sigma_k: point k's residuals over the frames, the fit's degrees of freedom shared by the points
  const auto count = static_cast<double>(frames.size());
  const double dof = count - static_cast<double>(jacobian.cols()) / static_cast<double>(points);
  std::vector<Eigen::Matrix2d> point(static_cast<std::size_t>(points), Eigen::Matrix2d::Zero());
  for (Eigen::Index f = 0; f < static_cast<Eigen::Index>(frames.size()); ++f)
    for (Eigen::Index k = 0; k < points; ++k) {
      const Vec2 e = residual.segment<2>(2 * (f * points + k));
      point[static_cast<std::size_t>(k)] += e * e.transpose() / dof;
    }
  // (J^T J)^+ with its undetermined rows and columns (NaN) set aside
  MatX inverse = least_squares_covariance(jacobian, 1.0);
  std::vector<Eigen::Index> undetermined;
  for (Eigen::Index j = 0; j < inverse.cols(); ++j)
    if (std::isnan(inverse(j, j))) undetermined.push_back(j);
  for (Eigen::Index j : undetermined) {
    inverse.row(j).setZero();
    inverse.col(j).setZero();
  }
  MatX middle = MatX::Zero(jacobian.cols(), jacobian.cols());
  for (Eigen::Index row = 0; row < residual.size(); row += 2) {
    const auto k = static_cast<std::size_t>((row / 2) % points);
    const MatX block = jacobian.middleRows(row, 2);
    middle += block.transpose() * point[k] * block;
  }
  MatX covariance = inverse * middle * inverse;
  for (Eigen::Index j : undetermined) {
    covariance.row(j).setConstant(std::nan(""));
    covariance.col(j).setConstant(std::nan(""));
  }
  return covariance;
}

VecX growth_split(const VineModel& model) {
  const int np = model.num_prismatic();
  VecX split = VecX::Zero(np);
  if (np == 0) return split;
  if (model.growth_mode == vine::GrowthMode::uniform)
    split.setConstant(1.0 / np);
  else
    split(np - 1) = 1.0;
  return split;
}

std::string vine_parameter_name(const VineParameter& parameter) {
  switch (parameter.kind) {
    case Kind::stiffness:
      return "K";
    case Kind::damping:
      return "C";
    case Kind::growth_rate:
      return fmt::format("growth rate[{}]", parameter.index);
    case Kind::heading:
      return "heading";
    case Kind::contact_radius:
      return "contact radius";
    case Kind::collapse_moment:
      return "M_c";
    case Kind::wrinkling_angle:
      return "theta_w";
  }
  return "";
}

bool fitted_in_log(VineParameterKind kind) {
  return kind != Kind::growth_rate && kind != Kind::heading;
}

double vine_parameter_value(const VineModel& model, const VineParameter& parameter) {
  switch (parameter.kind) {
    case Kind::stiffness:
      return model.stiffness[0];
    case Kind::damping:
      return model.damping[0];
    case Kind::growth_rate:
      return model.growth.sample_rate(parameter.index);
    case Kind::heading:
      return model.rest_angle[0];
    case Kind::contact_radius:
      return model.contact_radius;
    case Kind::collapse_moment:
      return model.inflated_beam.collapse_moment();
    case Kind::wrinkling_angle:
      return model.inflated_beam.wrinkling_angle();
  }
  return 0.0;
}

void set_vine_parameter(VineModel& model, const VineParameter& parameter, double value) {
  switch (parameter.kind) {
    case Kind::stiffness:
      std::fill(model.stiffness.begin(), model.stiffness.end(), value);
      break;
    case Kind::damping:
      std::fill(model.damping.begin(), model.damping.end(), value);
      break;
    case Kind::growth_rate:
      model.growth.set_sample_rate(parameter.index, value);
      break;
    case Kind::heading:
      model.rest_angle[0] = value;
      break;
    case Kind::contact_radius:
      model.contact_radius = value;
      break;
    case Kind::collapse_moment:
      model.inflated_beam.set_collapse_moment(value);
      break;
    case Kind::wrinkling_angle:
      model.inflated_beam.set_wrinkling_angle(value);
      break;
  }
}

void check_vine_parameters(const VineModel& model, const std::vector<VineParameter>& parameters) {
  const bool linear = model.bending_law == vine::BendingLaw::linear;
  for (std::size_t k = 0; k < parameters.size(); ++k) {
    const VineParameter& p = parameters[k];
    const std::string key = fmt::format("parameters[{}]", k), name = vine_parameter_name(p);
    const auto refuse = [&](const std::string& allowed) { throw InputError(key, name, allowed); };
    if ((p.kind == Kind::stiffness && !linear) ||
        ((p.kind == Kind::collapse_moment || p.kind == Kind::wrinkling_angle) && linear))
      refuse(linear ? "K and C with bending_law linear (M_c, theta_w with inflated_beam)"
                    : "M_c, theta_w and C with bending_law inflated_beam (K with linear)");
    if (p.kind == Kind::heading && !model.rest_angle_schedule.empty())
      refuse("no heading with steering (the schedule sets the rest angles)");
    if (p.kind == Kind::growth_rate && (p.index < 0 || p.index >= model.growth.num_samples()))
      refuse(fmt::format("a growth schedule sample 0 .. {}", model.growth.num_samples() - 1));
    if (p.kind == Kind::contact_radius && model.obstacles.empty())
      refuse("a contact radius with obstacles (it only enters the contact rows)");
    const double value = vine_parameter_value(model, p);
    if (fitted_in_log(p.kind) && !(value > 0.0 && std::isfinite(value)))
      throw InputError(key, fmt::format("{} = {}", name, value),
                       "an initial guess > 0 (the fit works on its logarithm)");
    for (std::size_t e = 0; e < k; ++e)
      if (parameters[e].kind == p.kind && parameters[e].index == p.index)
        refuse("a parameter not fitted twice");
  }
}

ShootingResiduals shooting_residuals(VineModel model, const VineState& start,
                                     const std::vector<MeasuredFrame>& frames,
                                     Observation observation,
                                     const std::vector<VineParameter>& parameters,
                                     const VecX& values, bool with_jacobian,
                                     const MatX& start_directions) {
  ShootingResiduals out;
  const auto values_text = [&] {
    std::string text;
    for (std::size_t k = 0; k < parameters.size(); ++k)
      text += fmt::format("{}{} = {:.6g}", k == 0 ? "" : ", ", vine_parameter_name(parameters[k]),
                          values(static_cast<Eigen::Index>(k)));
    return text;
  };
  if (!values.allFinite()) {  // a step that overflowed exp(ln K): a failed trial
    out.message = values_text() + ": not finite";
    return out;
  }
  for (std::size_t k = 0; k < parameters.size(); ++k)
    set_vine_parameter(model, parameters[k], values(static_cast<Eigen::Index>(k)));
  const auto np = static_cast<Eigen::Index>(parameters.size());
  int rows = 0;
  for (const MeasuredFrame& f : frames)
    rows += 2 * (observation == Observation::tip ? 1 : static_cast<int>(f.points.rows()));
  out.residual.resize(rows);
  const Eigen::Index ns = start_directions.cols();
  if (with_jacobian) out.jacobian.resize(rows, np + ns);

  vine::VineStepper stepper(model);
  VineState s = start;
  const int n = model.num_dofs();
  // sensitivities d(q, v)/dtheta: zero at the given start (the start's directions in theirs)
  MatX sq = MatX::Zero(n, np + ns), sv = MatX::Zero(n, np + ns);
  if (ns > 0) sq.rightCols(ns) = start_directions;
  int step = 0, row = 0;
  for (const MeasuredFrame& frame : frames) {
    TENDRIL_ASSERT(frame.step >= step, "measured frames in increasing step order");
    while (step < frame.step) {
      const double time = s.time;
      const vine::VineStepReport report = stepper.step(s);
      if (!report.ok()) {
        out.message = fmt::format("step {} (t = {:.4g} s) with {}: {}", step, time, values_text(),
                                  report.status != vine::QpStatus::solved
                                      ? std::string(vine::to_string(report.status))
                                      : std::string("joint drift or energy blow-up"));
        return out;
      }
      if (with_jacobian) {
        const vine::StepDerivatives d = vine::step_derivatives(stepper);
        if (!d.ok) {
          out.message = fmt::format(
              "step {}: the step map is not differentiable there (singular KKT matrix)", step);
          return out;
        }
        MatX sq_next = d.dq_dq * sq + d.dq_dv * sv, sv_next = d.dv_dq * sq + d.dv_dv * sv;
        add_parameter_columns(d, stepper.model(), time, parameters, values, sq_next, sv_next);
        sq.swap(sq_next);
        sv.swap(sv_next);
      }
      ++step;
    }
    const int measured = static_cast<int>(frame.points.rows());
    MatX points, dpoints;
    observe_vine(model, s.q, observation, measured, points, with_jacobian ? &dpoints : nullptr);
    const MatX target =
        observation == Observation::tip ? MatX(frame.points.row(measured - 1)) : frame.points;
    for (int k = 0; k < points.rows(); ++k)
      for (int c = 0; c < 2; ++c) out.residual(row + 2 * k + c) = points(k, c) - target(k, c);
    if (with_jacobian) out.jacobian.middleRows(row, 2 * points.rows()) = dpoints * sq;
    row += 2 * static_cast<int>(points.rows());
    out.simulated.push_back(points);
  }
  out.ok = true;
  return out;
}

ShootingResiduals shooting_residuals(const VineModel& model, const VineState& start,
                                     const std::vector<MeasuredFrame>& frames,
                                     Observation observation, double stiffness, double damping,
                                     bool with_jacobian) {
  return shooting_residuals(model, start, frames, observation,
                            {{VineParameterKind::stiffness}, {VineParameterKind::damping}},
                            VecX{{stiffness, damping}}, with_jacobian);
}

VineFitResult fit_vine_parameters(const VineModel& model, const VineState& start,
                                  const std::vector<MeasuredFrame>& frames,
                                  const std::vector<VineParameter>& parameters,
                                  const VineFitOptions& options) {
  check_vine_parameters(model, parameters);
  const auto np = static_cast<Eigen::Index>(parameters.size());
  const Eigen::Index ns = options.estimate_start ? model.num_bodies : 0;
  VineFitResult result;
  result.parameters = parameters;
  // theta: ln(value) for the positive parameters, the value otherwise; then the start's xi
  const auto to_values = [&](const VecX& theta) {
    VecX values = theta.head(np);
    for (Eigen::Index k = 0; k < np; ++k)
      if (fitted_in_log(parameters[static_cast<std::size_t>(k)].kind))
        values(k) = std::exp(theta(k));
    return values;
  };
  // the start at theta and its directions dq/dxi (none when held)
  const auto start_at = [&](const VecX& theta, MatX& directions) {
    VineState s = start;
    if (ns > 0) {
      s.q = start_configuration(model, theta.tail(ns), &directions);
      s.v.setZero();
    }
    return s;
  };
  VecX theta0(np + ns);
  for (Eigen::Index k = 0; k < np; ++k) {
    const VineParameter& p = parameters[static_cast<std::size_t>(k)];
    const double value = vine_parameter_value(model, p);
    theta0(k) = fitted_in_log(p.kind) ? std::log(value) : value;
  }
  if (ns > 0) theta0.tail(ns) = start_coordinates(model, start.q);
  int simulations = 0;
  ShootingResiduals
      fitted;           // at the last point evaluated with its Jacobian (the last accepted one)
  std::string failure;  // why the last failed simulation failed
  const auto residuals = [&](const VecX& t, bool with_jacobian) {
    ++simulations;
    MatX directions;
    ShootingResiduals r =
        shooting_residuals(model, start_at(t, directions), frames, options.observation, parameters,
                           to_values(t), with_jacobian, directions);
    SparseResiduals out{r.ok, r.message, r.residual, {}};
    if (!r.ok) failure = r.message;
    if (r.ok && with_jacobian) {
      out.jacobian = r.jacobian.sparseView(0.0, 0.0);
      fitted = std::move(r);
    }
    return out;
  };
  const auto line = [&](const SparseLmIteration& i) {
    FitIteration h{i.iteration, i.cost, 0.0, i.step, i.damping, simulations, to_values(*i.y)};
    h.accepted = i.accepted;
    result.history.push_back(h);
    return !options.progress || options.progress(h);
  };
  const VecX unbounded = VecX::Constant(np + ns, std::numeric_limits<double>::infinity());
  SparseLmResult lm;
  try {
    lm = minimise_sparse_least_squares(residuals, theta0, -unbounded, unbounded,
                                       {.max_iterations = options.max_iterations,
                                        .step_tolerance = options.step_tolerance,
                                        .cost_tolerance = options.cost_tolerance},
                                       {}, line);
  } catch (const std::runtime_error&) {
    result.message = "the initial guess does not simulate: " + failure;
    return result;
  }
  result.converged = lm.converged;
  result.message = lm.message;
  result.iterations = lm.iterations;
  result.simulations = simulations;
  result.values = to_values(lm.y);
  MatX directions;
  result.start = start_at(lm.y, directions);
  result.initial_cost = lm.initial_cost;
  result.cost = lm.cost;
  // sigma from the Gauss-Newton covariance in theta: a parameter the residual no longer depends
  // on (K -> 0 leaves ln K free) is undetermined, +inf
  VecX sigma = VecX::Constant(np + ns, std::numeric_limits<double>::infinity());
  const Eigen::Index dof = fitted.residual.size() - np - ns;
  if (dof > 0) {
    const MatX covariance =
        options.pointwise_errors
            ? pointwise_covariance(fitted.jacobian, fitted.residual, frames)
            : least_squares_covariance(fitted.jacobian, 2.0 * lm.cost / static_cast<double>(dof));
    for (Eigen::Index k = 0; k < np + ns; ++k)
      if (std::isfinite(covariance(k, k)))
        sigma(k) = std::sqrt(covariance(k, k)) *
                   (k < np && fitted_in_log(parameters[static_cast<std::size_t>(k)].kind)
                        ? result.values(k)
                        : 1.0);
  }
  result.sigma = sigma.head(np);
  if (ns > 0) {
    result.start_coordinates = lm.y.tail(ns);
    result.start_sigma = sigma.tail(ns);
  }
  result.fitted = std::move(fitted);
  return result;
}

VineFitResult fit_stiffness_damping(const VineModel& model, const VineState& start,
                                    const std::vector<MeasuredFrame>& frames,
                                    const VineFitOptions& options) {
  if (model.stiffness.empty() || !(model.stiffness[0] > 0.0) || !(model.damping[0] > 0.0))
    throw InputError("vine.stiffness",
                     model.stiffness.empty() ? "[]" : fmt::format("{}", model.stiffness[0]),
                     "an initial guess K > 0 and C > 0 (the fit works on ln K, ln C)");
  VineFitResult result =
      fit_vine_parameters(model, start, frames,
                          {{VineParameterKind::stiffness}, {VineParameterKind::damping}}, options);
  if (result.values.size() == 2) {
    result.stiffness = result.values(0);
    result.damping = result.values(1);
    result.stiffness_sigma = result.sigma(0);
    result.damping_sigma = result.sigma(1);
  }
  return result;
}

}  // namespace tendril::fit
