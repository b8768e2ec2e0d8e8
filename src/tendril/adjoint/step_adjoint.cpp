#include "tendril/adjoint/step_adjoint.hpp"

#include <string>

#include <fmt/format.h>

#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/term.hpp"

namespace tendril::adjoint {

namespace {

/// InputError for what the adjoint does not differentiate.
void require_differentiable(const Model& model) {
  if (!model.shells.joint_edges.empty())
    throw InputError("shells.joint_edges", std::to_string(model.shells.joint_edges.size()),
                     "none (the adjoint of rod-shell joints is not implemented)");
}

}  // namespace

NewtonProblem step_problem(const State& start, double dt, double alpha, VecX& predicted) {
  const double h = alpha * dt;
  predicted = start.q + h * start.u;
  NewtonProblem problem;
  problem.inertia = 1.0 / (h * h);
  problem.predicted = &predicted;
  problem.velocity_scale = 1.0 / h;
  problem.velocity_origin = &start.q;
  problem.time = start.time + h;
  problem.frames = &start.frames;
  problem.end_scale = 1.0 / alpha;
  return problem;
}

NewtonProblem implicit_euler_problem(const State& start, double dt, VecX& predicted) {
  return step_problem(start, dt, 1.0, predicted);
}

StepAdjoint::StepAdjoint(const Model& model, const DynamicsOptions& options,
                         const std::vector<Parameter>& parameters)
    : run_model_(std::make_unique<Model>(with_parameters(model, parameters))),
      model_(*run_model_),
      options_(options),
      run_(std::make_unique<ResidualSystem>(model_, options.newton)),
      parameter_residuals_(model, options.newton, parameters) {
  require_differentiable(model);
  build_transpose();
}

StepAdjoint::~StepAdjoint() = default;

void StepAdjoint::build_transpose() {
  transpose_.build(run_->system, options_.newton, true);
  const auto num_free = static_cast<Eigen::Index>(run_->system.free_dofs().size());
  damping_ = HessianAssembler(run_->system.pattern());
  w_free_.setZero(num_free);
  mu_free_.setZero(num_free);
}

void StepAdjoint::add_edge_transpose(const std::vector<Vec3>& edge_values, VecX& out) const {
  for (std::size_t e = 0; e < edge_values.size(); ++e) {
    const auto& nodes = model_.rods.edges[e];
    out.segment<3>(model_.dofs.node(nodes[1])) += edge_values[e];
    out.segment<3>(model_.dofs.node(nodes[0])) -= edge_values[e];
  }
}

std::string StepAdjoint::evaluate(const State& start, const NewtonProblem& problem, const VecX& y) {
  if (run_->update_stencils_at(y, start.time)) build_transpose();
  run_->actuate(problem.time);
  if (!run_->system.evaluate(problem, y, true))
    return fmt::format("non-finite forces at the end of the step from t = {:.9g} s", start.time);
  return parameter_residuals_.evaluate(problem, start, y);
}

std::string StepAdjoint::solve_transposed(double time) {
  const std::vector<int>& free = run_->system.free_dofs();
  mu_.setZero(model_.dofs.size());
  if (!transpose_.has_free_dofs()) return {};
  if (!transpose_.factorize(run_->system.jacobian(), options_.newton.singular_pivot_tolerance))
    return fmt::format("the step matrix of the step from t = {:.9g} s is singular", time);
  transpose_.solve(w_free_, mu_free_);
  for (std::size_t k = 0; k < free.size(); ++k)
    mu_[free[k]] = mu_free_[static_cast<Eigen::Index>(k)];
  return {};
}

void StepAdjoint::frame_sensitivity(const NewtonProblem& problem, const State& start, const VecX& y,
                                    VecX& s) {
  const int n = model_.dofs.size();
  damping_mu_.setZero(n);
  if (!model_.forces.empty() && problem.velocity_scale > 0.0) {
    u_ = problem.velocity_scale * (y - start.q);
    assemble_damping(model_, run_->evaluated(), y, u_, problem.time, run_->system.kinematics(),
                     damping_, &run_->workspace);
    damping_mu_ = problem.velocity_scale * (damping_.matrix().transpose() * mu_);
  }
  const SparseMatrix& jacobian = run_->system.jacobian();
  const std::size_t num_edges = model_.rods.edges.size();
  s.resize(static_cast<Eigen::Index>(num_edges));
  for (std::size_t e = 0; e < num_edges; ++e) {
    const int twist = model_.dofs.twist(static_cast<int>(e));
    double sum = 0.0;
    for (SparseMatrix::InnerIterator it(jacobian, twist); it; ++it)
      sum += it.value() * mu_[it.row()];
    s[static_cast<Eigen::Index>(e)] =
        sum - problem.inertia * model_.mass[twist] * mu_[twist] - damping_mu_[twist];
  }
}

void StepAdjoint::add_parameter_gradient(VecX& parameter_gradient) {
  for (Eigen::Index i = 0; i < parameter_gradient.size(); ++i) {
    parameter_residuals_.derivative(static_cast<std::size_t>(i), run_->system.residual(), dr_dp_);
    parameter_gradient[i] -= mu_.dot(dr_dp_);
  }
}

std::string StepAdjoint::pull_back(const State& start, const State& end, double dt,
                                   StateAdjoint& adjoint, VecX& parameter_gradient) {
  const bool midpoint = options_.scheme == Scheme::implicit_midpoint;
  const double alpha = midpoint ? options_.midpoint_alpha : 1.0;
  const double h = alpha * dt;
  const std::size_t num_edges = model_.rods.edges.size();
  const NewtonProblem problem = step_problem(start, dt, alpha, predicted_);
  y_ = midpoint ? VecX(start.q + alpha * (end.q - start.q)) : end.q;
  if (std::string why = evaluate(start, problem, y_); !why.empty()) return why;

  // the end tangents' holonomy h_01 (phi_{k+1} = phi_k + g_01 . de_k + h_01 . de_{k+1})
  const Kinematics* end_kin = &run_->system.kinematics();
  if (midpoint) {
    compute_kinematics(model_, start.frames, end.q, end_kinematics_);
    end_kin = &end_kinematics_;
  }
  edge_values_.resize(num_edges);
  for (std::size_t e = 0; e < num_edges; ++e)
    edge_values_[e] =
        adjoint.frame_angle[static_cast<Eigen::Index>(e)] * end_kin->transport_rotation_gradient[e];
  // w = dL/dy through q_{k+1} = q_k + (y - q_k)/alpha, u_{k+1} = ((y - q_k)/h - (1 - alpha)
  // u_k)/alpha and phi_{k+1}
  lq_ = adjoint.q + adjoint.u / h;
  add_edge_transpose(edge_values_, lq_);
  lq_ /= alpha;
  const std::vector<int>& free = run_->system.free_dofs();
  for (std::size_t k = 0; k < free.size(); ++k)
    w_free_[static_cast<Eigen::Index>(k)] = lq_[free[k]];
  if (std::string why = solve_transposed(start.time); !why.empty()) return why;
  VecX s;
  frame_sensitivity(problem, start, y_, s);
  add_parameter_gradient(parameter_gradient);

  // the adjoint of the start state: q_k through q_{k+1}, u_{k+1}, phi_{k+1}, the inertia, the
  // damping and the start tangents; u_k through u_{k+1} and y_pred
  const VecX mass_mu = model_.mass.cwiseProduct(mu_);
  add_edge_transpose(edge_values_, adjoint.q);  // E^T (h_01 o lphi), scaled with q_{k+1} below
  adjoint.q = (1.0 - 1.0 / alpha) * adjoint.q + problem.inertia * mass_mu + damping_mu_ -
              adjoint.u / (alpha * h);
  add_start_tangent_terms(start, y_, problem, midpoint, adjoint.frame_angle, s);
  add_edge_transpose(edge_values_, adjoint.q);
  adjoint.u = mass_mu / h - ((1.0 - alpha) / alpha) * adjoint.u;
  adjoint.frame_angle -= s;
  for (int i = 0; i < model_.dofs.size(); ++i)
    if (model_.fixed[static_cast<std::size_t>(i)]) adjoint.q[i] = adjoint.u[i] = 0.0;
  return {};
}

std::string StepAdjoint::pull_back_static(const State& end, StateAdjoint& adjoint,
                                          VecX& parameter_gradient) {
  // r(q) = dE/dq - F(q, 0, t) at the solution, with the solution's own frames as the reference
  // (the transport from them to end.q is the identity, so h = 0)
  NewtonProblem problem;
  problem.time = end.time;
  problem.frames = &end.frames;
  if (std::string why = evaluate(end, problem, end.q); !why.empty()) return why;
  const std::vector<int>& free = run_->system.free_dofs();
  for (std::size_t k = 0; k < free.size(); ++k)
    w_free_[static_cast<Eigen::Index>(k)] = adjoint.q[free[k]];
  if (std::string why = solve_transposed(end.time); !why.empty()) return why;
  VecX s;
  frame_sensitivity(problem, end, end.q, s);
  add_parameter_gradient(parameter_gradient);
  adjoint.q.setZero();
  adjoint.u.setZero();
  adjoint.frame_angle -= s;
  return {};
}

void StepAdjoint::add_start_tangent_terms(const State& start, const VecX& y,
                                          const NewtonProblem& problem, bool midpoint,
                                          const VecX& lphi, const VecX& s) {
  const Kinematics& kin = run_->system.kinematics();
  for (std::size_t e = 0; e < edge_values_.size(); ++e) {
    const Vec3& t0 = start.frames.tangent[e];
    const Vec3& ty = kin.tangent[e];
    const Vec3& t1 = midpoint ? end_kinematics_.tangent[e] : ty;
    const auto& nodes = model_.rods.edges[e];
    const int n0 = model_.dofs.node(nodes[0]), n1 = model_.dofs.node(nodes[1]);
    const double length = (start.q.segment<3>(n1) - start.q.segment<3>(n0)).norm();
    const double cy = 1.0 + t0.dot(ty);
    const auto ee = static_cast<Eigen::Index>(e);
    // the start tangent turns the transported frame by g . de_k (g: the start holonomy), so
    // phi_{k+1} = phi_k + g_01 . de_k + h_01 . de_{k+1}, and r depends on phi_k + g_0y . de_k
    // through K's column of theta^e
    edge_values_[e] = lphi[ee] * (t1.cross(t0) / (length * (1.0 + t0.dot(t1)))) -
                      s[ee] * (ty.cross(t0) / (length * cy));
    // the position rows of r hold dE/dphi^e h^e (de/dq)^T, h = t x t_k / (|e| (1 + t_k . t))
    // at y: with dE/dphi^e = G_theta^e (the residual's theta row without its inertia and its
    // forces, whose position rows hold no holonomy: a dead moment's M . t), mu's part
    // a . dh/dt_k with a = G_theta^e (mu_n1 - mu_n0), projected normal to t_k
    const int twist = model_.dofs.twist(static_cast<int>(e));
    double dE_dphi =
        run_->system.residual()[twist] + problem.load_factor * run_->system.forces()[twist];
    if (problem.inertia > 0.0)
      dE_dphi -= problem.inertia * model_.mass[twist] * (y[twist] - (*problem.predicted)[twist]);
    const Vec3 a = dE_dphi * (mu_.segment<3>(n1) - mu_.segment<3>(n0));
    const Vec3 z = (a.cross(ty) - ty * (a.dot(ty.cross(t0)) / cy)) / (kin.edge_length[e] * cy);
    edge_values_[e] -= (z - t0 * t0.dot(z)) / length;
  }
}

}  // namespace tendril::adjoint
