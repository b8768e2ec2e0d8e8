#pragma once
/// The parts of a step's residual r(y; q_k, u_k, p) that the adjoint (step_adjoint.hpp) and the
/// forward sensitivities (forward_sensitivity.hpp) both linearise: dr/dp, by the exact difference
/// stencil of residuals on model copies with the parameter moved (parameter.hpp), D = -dF/du of the
/// ForceTerms, and the step matrix J (or J^T) on the free DOFs with its solver
/// (docs/physics/gradients.md).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/linear_solver.hpp"
#include "tendril/integrate/newton_system.hpp"

namespace tendril::adjoint {

/// A NewtonSystem on `model` (kept by reference), or on a copy that carries the actuators' values
/// at the evaluation time when the model has actuators (as TimeStepper and StaticSolver pose it).
struct ResidualSystem {
  ResidualSystem(const Model& base_model, const NewtonOptions& options);
  /// Sets the actuated rest quantities (rods and shell hinges) at time t [s].
  void actuate(double t);
  /// Takes the contact candidates for a linearisation at y (#dofs), from the step that started at
  /// time [s]: y itself at rest (motion allowance delta), so that every pair within delta at y,
  /// whose Hessian J and friction's dF/du must hold, is one, wherever the step started. True if
  /// they changed (the system's pattern with them).
  bool update_stencils_at(const VecX& y, double time);
  /// The model the terms read: the actuated copy, or the base model without actuators.
  const Model& evaluated() const { return actuated ? *actuated : base; }
  const Model& base;
  std::unique_ptr<Model> actuated;
  ModelWorkspace workspace;  ///< the terms' workspaces (contact candidates) of `system`
  NewtonSystem system;
  State at_rest;  ///< y at rest: where the contact candidates are chosen
};

/// The points p + c d of the exact difference stencil of a polynomial of degree `degree` (1, or up
/// to 4) in p and their weights w: df/dp = sum w f(p + c d) / d + base_weight f(p) / d.
struct Stencil {
  std::vector<double> offsets, weights;
  double base_weight = 0.0;
};
Stencil difference_stencil(int degree);

/// dr/dp of every parameter, from the exact difference stencil of its degree (Parameter::degree):
/// dr/dp_i = sum_j w_j r(p + c_j d_i e_i) / d_i + w_0 r(p) / d_i, each stencil point a residual
/// system on a model copy with parameter i moved.
class ParameterResiduals {
 public:
  /// `model`: the model the parameters' factories were given. Each stencil point's model is a copy
  /// of it with every parameter applied (with_parameters) and parameter i moved by c_j d_i.
  ParameterResiduals(const Model& model, const NewtonOptions& newton,
                     const std::vector<Parameter>& parameters);
  ~ParameterResiduals();

  std::size_t size() const { return base_weight_.size(); }
  /// Evaluates every stencil point's residual of the step `problem` from `start` at y (#dofs),
  /// the actuators at problem.time, the contact candidates at y
  /// (ResidualSystem::update_stencils_at). Returns an empty string on success, else why (non-finite
  /// forces with a parameter moved).
  std::string evaluate(const NewtonProblem& problem, const State& start, const VecX& y);
  /// dr/dp_i (#dofs) of the last evaluate(), `base` the run's residual r(p) at the same y.
  void derivative(std::size_t i, const VecX& base, VecX& out) const;

 private:
  struct Point;
  std::vector<std::unique_ptr<Point>> points_;  ///< every parameter's stencil points, in order
  std::vector<double> base_weight_;             ///< w_0 / d_i: r(p)'s weight in dr/dp_i
};

/// Writes D = -dF/du [N s/m] of `model`'s ForceTerms at (q, u, time [s]) into `damping` (zeroed
/// first), with `evaluated` the model the terms read (the actuated one) and `kin` the kinematics at
/// q. `workspace`: the terms' workspaces of the system whose pattern `damping` has (the contact
/// candidates whose Jacobians it holds), or null for temporary ones (the candidates of the
/// initial shape).
void assemble_damping(const Model& model, const Model& evaluated, const VecX& q, const VecX& u,
                      double time, const Kinematics& kin, HessianAssembler& damping,
                      ModelWorkspace* workspace = nullptr);

/// The matrix J of a NewtonSystem's last evaluation, or its transpose, on the free DOFs, and the
/// linear solver of its pattern (NewtonOptions' kind, analysed once per build).
class FreeStepMatrix {
 public:
  /// Builds the free pattern (transposed if `transpose`) of `system`'s full pattern, the value
  /// slots in the full J and the solver; call again when the system's stencils changed.
  void build(const NewtonSystem& system, const NewtonOptions& options, bool transpose);
  /// Gathers the values of `jacobian` (the system's full J) and factorizes; false if the matrix is
  /// singular. Without free DOFs there is nothing to factorize (true).
  bool factorize(const SparseMatrix& jacobian, double singular_tolerance);
  /// Solves with the last factorization (b and x on the free DOFs).
  void solve(const VecX& b, VecX& x) { solver_->solve(b, x); }
  /// False when no DOF is free.
  bool has_free_dofs() const { return solver_ != nullptr; }

 private:
  SparseMatrix matrix_;    ///< J or J^T on the free DOFs
  std::vector<int> slot_;  ///< value index in the full J of each entry of matrix_
  std::unique_ptr<LinearSolver> solver_;
};

}  // namespace tendril::adjoint
