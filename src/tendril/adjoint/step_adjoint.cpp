#include "tendril/adjoint/step_adjoint.hpp"

#include <string>

#include <fmt/format.h>

#include "tendril/core/actuator.hpp"
#include "tendril/core/error.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::adjoint {
void require_differentiable(const Model& model, const DynamicsOptions& options) {
  if (options.scheme != Scheme::implicit_euler)
    throw InputError("scheme", "implicit_midpoint",
                     "implicit_euler (the adjoint of other schemes is not implemented)");
  if (!model.shells.triangles.empty())
    throw InputError("shells", std::to_string(model.shells.triangles.size()) + " triangles",
                     "none (the adjoint of shell runs is not implemented)");
}

NewtonProblem implicit_euler_problem(const State& start, double dt, VecX& predicted) {
  predicted = start.q + dt * start.u;
  NewtonProblem problem;
  problem.inertia = 1.0 / (dt * dt);
  problem.predicted = &predicted;
  problem.velocity_scale = 1.0 / dt;
  problem.velocity_origin = &start.q;
  problem.time = start.time + dt;
  problem.frames = &start.frames;
  return problem;
}

StepAdjoint::StepAdjoint(const Model& model, const DynamicsOptions& options,
                         const std::vector<Parameter>& parameters)
    : model_(model),
      options_(options),
      actuated_(model.actuators.empty() ? nullptr : std::make_unique<Model>(model)),
      system_(actuated_ ? *actuated_ : model, options.newton),
      parameter_residuals_(model, options.newton, parameters) {
  require_differentiable(model, options);
  build_transpose();
}

StepAdjoint::~StepAdjoint() = default;

void StepAdjoint::build_transpose() {
  transpose_.build(system_, options_.newton, true);
  const auto num_free = static_cast<Eigen::Index>(system_.free_dofs().size());
  damping_ = HessianAssembler(system_.pattern());
  w_free_.setZero(num_free);
  mu_free_.setZero(num_free);
}

void StepAdjoint::actuate(double t) {
  if (!actuated_) return;
  actuated_rods(model_, t, actuated_->rods);
  parameter_residuals_.actuate(t);
}

void StepAdjoint::add_edge_transpose(const std::vector<Vec3>& edge_values, VecX& out) const {
  for (std::size_t e = 0; e < edge_values.size(); ++e) {
    const auto& nodes = model_.rods.edges[e];
    out.segment<3>(model_.dofs.node(nodes[1])) += edge_values[e];
    out.segment<3>(model_.dofs.node(nodes[0])) -= edge_values[e];
  }
}

std::string StepAdjoint::pull_back(const State& start, const State& end, StateAdjoint& adjoint,
                                   VecX& parameter_gradient) {
  const double dt = options_.dt;
  const int n = model_.dofs.size();
  const std::size_t num_edges = model_.rods.edges.size();
  const NewtonProblem problem = implicit_euler_problem(start, dt, rhs_);
  actuate(problem.time);
  if (system_.update_stencils(start)) build_transpose();
  if (!system_.evaluate(problem, end.q, true))
    return fmt::format("non-finite forces at the end of the step from t = {:.9g} s", start.time);
  const SparseMatrix& jacobian = system_.jacobian();
  const Kinematics& kin = system_.kinematics();

  // w = dL/dy through q_{k+1}, u_{k+1} = (y - q_k)/dt and phi_{k+1} (holonomy h of the end tangent)
  edge_values_.resize(num_edges);
  for (std::size_t e = 0; e < num_edges; ++e)
    edge_values_[e] =
        adjoint.frame_angle[static_cast<Eigen::Index>(e)] * kin.transport_rotation_gradient[e];
  lq_ = adjoint.q + adjoint.u / dt;
  add_edge_transpose(edge_values_, lq_);
  const std::vector<int>& free = system_.free_dofs();
  for (std::size_t k = 0; k < free.size(); ++k)
    w_free_[static_cast<Eigen::Index>(k)] = lq_[free[k]];

  // J^T mu = w on the free DOFs
  mu_.setZero(n);
  if (transpose_.has_free_dofs()) {
    if (!transpose_.factorize(jacobian, options_.newton.singular_pivot_tolerance))
      return fmt::format("the step matrix of the step from t = {:.9g} s is singular", start.time);
    transpose_.solve(w_free_, mu_free_);
    for (std::size_t k = 0; k < free.size(); ++k)
      mu_[free[k]] = mu_free_[static_cast<Eigen::Index>(k)];
  }

  // c_u D^T mu, D = -dF/du (the ForceTerms' velocity dependence)
  VecX damping_mu = VecX::Zero(n);
  if (!model_.forces.empty()) {
    u_ = (end.q - start.q) / dt;
    assemble_damping(model_, actuated_ ? *actuated_ : model_, end.q, u_, problem.time, kin,
                     damping_);
    damping_mu = (damping_.matrix().transpose() * mu_) / dt;
  }
  // s^e = (K^T mu) at theta^e, K = J - c_m M - c_u D: dr/dphi^e = K's column of theta^e
  const VecX mass_mu = model_.mass.cwiseProduct(mu_);
  VecX s(static_cast<Eigen::Index>(num_edges));
  for (std::size_t e = 0; e < num_edges; ++e) {
    const int twist = model_.dofs.twist(static_cast<int>(e));
    double sum = 0.0;
    for (SparseMatrix::InnerIterator it(jacobian, twist); it; ++it)
      sum += it.value() * mu_[it.row()];
    s[static_cast<Eigen::Index>(e)] = sum - mass_mu[twist] / (dt * dt) - damping_mu[twist];
  }

  // the parameters: dL/dp -= mu . dr/dp, dr/dp = (r(p + d) - r(p)) / d (exact for affine p)
  for (std::size_t i = 0; i < parameter_residuals_.size(); ++i) {
    const VecX* moved = parameter_residuals_.evaluate(i, problem, start, end.q);
    if (!moved)
      return fmt::format("non-finite forces with parameter {} moved, step from t = {:.9g} s", i,
                         start.time);
    parameter_gradient[static_cast<Eigen::Index>(i)] -=
        mu_.dot(*moved - system_.residual()) / parameter_residuals_.step(i);
  }

  // the adjoint of the start state: q_k through u_{k+1}, the inertia, the damping and the start
  // tangents (the frame angles' start holonomy and the end holonomy's gradient h)
  add_start_tangent_terms(start, end, s, adjoint);
  adjoint.q = mass_mu / (dt * dt) + damping_mu - adjoint.u / dt;
  add_edge_transpose(edge_values_, adjoint.q);
  adjoint.u = mass_mu / dt;
  for (int i = 0; i < n; ++i)
    if (model_.fixed[static_cast<std::size_t>(i)]) adjoint.q[i] = adjoint.u[i] = 0.0;
  return {};
}

void StepAdjoint::add_start_tangent_terms(const State& start, const State& end, const VecX& s,
                                          StateAdjoint& adjoint) {
  const Kinematics& kin = system_.kinematics();
  const double inertia = 1.0 / (options_.dt * options_.dt);
  for (std::size_t e = 0; e < edge_values_.size(); ++e) {
    const Vec3& t0 = start.frames.tangent[e];
    const Vec3& t1 = kin.tangent[e];
    const auto& nodes = model_.rods.edges[e];
    const int n0 = model_.dofs.node(nodes[0]), n1 = model_.dofs.node(nodes[1]);
    const double length = (start.q.segment<3>(n1) - start.q.segment<3>(n0)).norm();
    const double c = 1.0 + t0.dot(t1);
    const auto ee = static_cast<Eigen::Index>(e);
    // the start tangent turns the transported frame by g . de_k (g: the start holonomy), so
    // phi_{k+1} = phi_k + g . de_k + h . de_{k+1}, and r depends on phi_k + g . de_k through K's
    // column of theta^e
    adjoint.frame_angle[ee] -= s[ee];
    edge_values_[e] = adjoint.frame_angle[ee] * (t1.cross(t0) / (length * c));
    // the position rows of r hold dE/dphi^e h^e (de/dq)^T, h = t x t_k / (|e| (1 + t_k . t)):
    // with dE/dphi^e = G_theta^e (the residual's theta row without its inertia), mu's part
    // a . dh/dt_k with a = G_theta^e (mu_n1 - mu_n0), projected normal to t_k
    const int twist = model_.dofs.twist(static_cast<int>(e));
    const double dE_dphi =
        system_.residual()[twist] - inertia * model_.mass[twist] * (end.q[twist] - rhs_[twist]);
    const Vec3 a = dE_dphi * (mu_.segment<3>(n1) - mu_.segment<3>(n0));
    const Vec3 z = (a.cross(t1) - t1 * (a.dot(t1.cross(t0)) / c)) / (kin.edge_length[e] * c);
    edge_values_[e] -= (z - t0 * t0.dot(z)) / length;
  }
}

}  // namespace tendril::adjoint
