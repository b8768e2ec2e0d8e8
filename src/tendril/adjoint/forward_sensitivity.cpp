#include "tendril/adjoint/forward_sensitivity.hpp"

#include <fmt/format.h>

#include "tendril/adjoint/step_adjoint.hpp"
#include "tendril/adjoint/step_times.hpp"
#include "tendril/core/error.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril::adjoint {
namespace {

/// InputError for what the forward sensitivities do not differentiate.
void require_sensitivities(const Model& model, const DynamicsOptions& options) {
  if (options.scheme != Scheme::implicit_euler)
    throw InputError("scheme", std::string(to_string(options.scheme)),
                     "implicit_euler (run_with_gradient differentiates the midpoint rule)");
  if (!model.shells.joint_edges.empty())
    throw InputError("shells.joint_edges", std::to_string(model.shells.joint_edges.size()),
                     "none (the derivatives of rod-shell joints are not implemented)");
}

}  // namespace

StepSensitivity::StepSensitivity(const Model& model, const DynamicsOptions& options,
                                 const std::vector<Parameter>& parameters)
    : run_model_(std::make_unique<Model>(with_parameters(model, parameters))),
      model_(*run_model_),
      options_(options),
      run_(model_, options.newton),
      system_(run_.system),
      parameter_residuals_(model, options.newton, parameters) {
  require_sensitivities(model_, options);
  build_free_matrix();
}

StepSensitivity::~StepSensitivity() = default;

void StepSensitivity::build_free_matrix() {
  matrix_.build(system_, options_.newton, false);
  const auto num_free = static_cast<Eigen::Index>(system_.free_dofs().size());
  damping_ = HessianAssembler(system_.pattern());
  b_free_.setZero(num_free);
  x_free_.setZero(num_free);
}

void StepSensitivity::add_start_state_terms(const State& start, const State& end, double dt,
                                            const StateSensitivity& sensitivity) {
  // r = M (y - q_k - dt u_k) / dt^2 + ... - F(y, (y - q_k) / dt): -dr/dq_k = M / dt^2 + D / dt,
  // -dr/du_k = M / dt
  rhs_ = model_.mass.asDiagonal() * (sensitivity.q / (dt * dt) + sensitivity.u / dt);
  if (!model_.forces.empty()) {
    u_ = (end.q - start.q) / dt;
    assemble_damping(model_, run_.evaluated(), end.q, u_, start.time + dt, system_.kinematics(),
                     damping_, &run_.workspace);
    rhs_ += (damping_.matrix() * sensitivity.q) / dt;
  }
}

void StepSensitivity::add_start_tangent_terms(const State& start, const State& end, double dt,
                                              const StateSensitivity& sensitivity) {
  const Kinematics& kin = system_.kinematics();
  const SparseMatrix& jacobian = system_.jacobian();
  psi_ = sensitivity.frame_angle;
  for (std::size_t e = 0; e < model_.rods.edges.size(); ++e) {
    const Vec3& t0 = start.frames.tangent[e];
    const Vec3& t1 = kin.tangent[e];
    const auto& nodes = model_.rods.edges[e];
    const int n0 = model_.dofs.node(nodes[0]), n1 = model_.dofs.node(nodes[1]);
    const double length = (start.q.segment<3>(n1) - start.q.segment<3>(n0)).norm();
    const double c = 1.0 + t0.dot(t1);
    const auto ee = static_cast<Eigen::Index>(e);
    const int twist = model_.dofs.twist(static_cast<int>(e));
    // the residual's theta row without its inertia and its forces (whose position rows hold no
    // holonomy: a dead moment's M . t): dE/dphi^e
    const double dE_dphi = system_.residual()[twist] + system_.forces()[twist] -
                           model_.mass[twist] * (end.q[twist] - predicted_[twist]) / (dt * dt);
    for (Eigen::Index i = 0; i < rhs_.cols(); ++i) {
      const Vec3 de = sensitivity.q.block<3, 1>(n1, i) - sensitivity.q.block<3, 1>(n0, i);
      const Vec3 dt0 = (de - t0 * t0.dot(de)) / length;
      // the start holonomy g = t x t_k / (|e_k| (1 + t_k . t)) turns the transported frame:
      // the residual reads psi = phi_k + g . de_k
      psi_(ee, i) += t1.cross(t0).dot(de) / (length * c);
      // the end holonomy h = t x t_k / (|e| (1 + t_k . t)) in the position rows, dE/dphi^e h^e
      // (de/dq)^T, moves with t_k
      const Vec3 dh = (t1.cross(dt0) - t1.cross(t0) * (t1.dot(dt0) / c)) / (kin.edge_length[e] * c);
      rhs_.block<3, 1>(n1, i) -= dE_dphi * dh;
      rhs_.block<3, 1>(n0, i) += dE_dphi * dh;
    }
    // dr/dpsi^e = K's column of theta^e, K = J - c_m M - c_u D
    for (SparseMatrix::InnerIterator it(jacobian, twist); it; ++it)
      rhs_.row(it.row()) -= it.value() * psi_.row(ee);
    rhs_.row(twist) += (model_.mass[twist] / (dt * dt)) * psi_.row(ee);
    if (!model_.forces.empty())
      for (SparseMatrix::InnerIterator it(damping_.matrix(), twist); it; ++it)
        rhs_.row(it.row()) += (it.value() / dt) * psi_.row(ee);
  }
}

std::string StepSensitivity::solve(double time) {
  const std::vector<int>& free = system_.free_dofs();
  solution_.setZero(rhs_.rows(), rhs_.cols());
  if (!matrix_.has_free_dofs()) return {};
  if (!matrix_.factorize(system_.jacobian(), options_.newton.singular_pivot_tolerance))
    return fmt::format("the step matrix of the step from t = {:.9g} s is singular", time);
  for (Eigen::Index i = 0; i < rhs_.cols(); ++i) {
    for (std::size_t k = 0; k < free.size(); ++k)
      b_free_[static_cast<Eigen::Index>(k)] = rhs_(free[k], i);
    matrix_.solve(b_free_, x_free_);
    for (std::size_t k = 0; k < free.size(); ++k)
      solution_(free[k], i) = x_free_[static_cast<Eigen::Index>(k)];
  }
  return {};
}

std::string StepSensitivity::push_forward(const State& start, const State& end, double dt,
                                          StateSensitivity& sensitivity) {
  const NewtonProblem problem = implicit_euler_problem(start, dt, predicted_);
  run_.actuate(problem.time);
  if (run_.update_stencils_at(end.q, start.time)) build_free_matrix();
  if (!system_.evaluate(problem, end.q, true))
    return fmt::format("non-finite forces at the end of the step from t = {:.9g} s", start.time);

  add_start_state_terms(start, end, dt, sensitivity);
  add_start_tangent_terms(start, end, dt, sensitivity);
  // the parameters: -dr/dp from their exact difference stencils
  if (std::string why = parameter_residuals_.evaluate(problem, start, end.q); !why.empty())
    return why;
  for (std::size_t i = 0; i < parameter_residuals_.size(); ++i) {
    parameter_residuals_.derivative(i, system_.residual(), dr_dp_);
    rhs_.col(static_cast<Eigen::Index>(i)) -= dr_dp_;
  }
  const std::string failure = solve(start.time);
  if (!failure.empty()) return failure;

  // the end state: q_{k+1} = y, u_{k+1} = (y - q_k) / dt, phi_{k+1} = psi + h . de_{k+1}
  const Kinematics& kin = system_.kinematics();
  for (std::size_t e = 0; e < model_.rods.edges.size(); ++e) {
    const auto& nodes = model_.rods.edges[e];
    const int n0 = model_.dofs.node(nodes[0]), n1 = model_.dofs.node(nodes[1]);
    const auto ee = static_cast<Eigen::Index>(e);
    for (Eigen::Index i = 0; i < rhs_.cols(); ++i)
      psi_(ee, i) += kin.transport_rotation_gradient[e].dot(solution_.block<3, 1>(n1, i) -
                                                            solution_.block<3, 1>(n0, i));
  }
  sensitivity.u = (solution_ - sensitivity.q) / dt;  // zero on fixed DOFs, as both terms are
  sensitivity.q.swap(solution_);
  sensitivity.frame_angle.swap(psi_);
  return {};
}

namespace {

/// Adds the objectives' values at state k into `values` and their derivatives (through the
/// state's sensitivity and explicit) into `derivatives`.
void add_objectives(const std::vector<Objective>& objectives, int step, const State& state,
                    const StateSensitivity& s, RunSensitivities& out) {
  const Eigen::Index n = s.q.rows();
  VecX dq(n), du(n), dphi(s.frame_angle.rows());
  for (std::size_t j = 0; j < objectives.size(); ++j) {
    dq.setZero();
    du.setZero();
    dphi.setZero();
    const auto jj = static_cast<Eigen::Index>(j);
    out.values[jj] += objectives[j].at_state(step, state, dq, du);
    if (objectives[j].frame_angle_gradient) objectives[j].frame_angle_gradient(step, state, dphi);
    out.derivatives.row(jj) += dq.transpose() * s.q + du.transpose() * s.u;
    out.derivatives.row(jj) += dphi.transpose() * s.frame_angle;
    if (objectives[j].parameter_gradient) {
      VecX dp = VecX::Zero(out.derivatives.cols());
      objectives[j].parameter_gradient(step, state, dp);
      out.derivatives.row(jj) += dp.transpose();
    }
  }
}

}  // namespace

RunSensitivities run_with_sensitivities(const Model& model, const DynamicsOptions& options,
                                        const State& initial, int steps,
                                        const std::vector<Objective>& objectives,
                                        const std::vector<Parameter>& parameters,
                                        std::optional<double> end_time) {
  if (steps < 1) throw InputError("steps", std::to_string(steps), "an integer >= 1");
  const StepTimes times = step_times(initial.time, options.dt, steps, end_time);
  StepSensitivity step_sensitivity(model, options, parameters);
  const Model& run_model = step_sensitivity.run_model();
  TimeStepper stepper(run_model, options, initial.q);
  const auto n = static_cast<Eigen::Index>(run_model.dofs.size());
  const auto np = static_cast<Eigen::Index>(parameters.size());
  const auto edges = static_cast<Eigen::Index>(run_model.rods.edges.size());
  StateSensitivity s{MatX::Zero(n, np), MatX::Zero(n, np), MatX::Zero(edges, np)};
  RunSensitivities result;
  result.values = VecX::Zero(static_cast<Eigen::Index>(objectives.size()));
  result.derivatives = MatX::Zero(static_cast<Eigen::Index>(objectives.size()), np);
  std::vector<Substep> substeps;
  stepper.record_substeps(&substeps);
  State state = initial;
  add_objectives(objectives, 0, state, s, result);
  for (int k = 1; k <= steps; ++k) {
    State start = state;
    substeps.clear();
    result.message = forward_step(stepper, times, k, state);
    // the substeps actually taken (one unless dt was halved), each a converged implicit Euler step
    for (std::size_t i = 0; i < substeps.size() && result.message.empty(); ++i) {
      result.message = step_sensitivity.push_forward(start, substeps[i].end, substeps[i].dt, s);
      start = substeps[i].end;
    }
    if (!result.message.empty()) return result;
    add_objectives(objectives, k, state, s, result);
  }
  result.final_state = std::move(state);
  result.ok = true;
  return result;
}

}  // namespace tendril::adjoint
