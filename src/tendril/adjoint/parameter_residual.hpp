#pragma once
/// The parts of an implicit Euler step's residual r(q_{k+1}; q_k, u_k, p) that the adjoint
/// (step_adjoint.hpp) and the forward sensitivities (forward_sensitivity.hpp) both linearise:
/// dr/dp of affine parameters, by the difference of residuals on model copies with the parameter
/// moved (parameter.hpp), D = -dF/du of the ForceTerms, and the step matrix J (or J^T) on the free
/// DOFs with its solver (docs/physics/gradients.md).

#include <cstddef>
#include <memory>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/linear_solver.hpp"
#include "tendril/integrate/newton_system.hpp"

namespace tendril::adjoint {

class ParameterResiduals {
 public:
  /// `model`: the model the parameters' factories were given. One residual system per (affine)
  /// parameter, on a copy of the model with every parameter applied (with_parameters) and that
  /// one moved by its difference_step().
  ParameterResiduals(const Model& model, const NewtonOptions& newton,
                     const std::vector<Parameter>& parameters);
  ~ParameterResiduals();

  std::size_t size() const { return systems_.size(); }
  /// d_i, the step parameter i is moved by.
  double step(std::size_t i) const { return steps_[i]; }
  /// Writes the rod data actuated at time t [s] into the moved models (nothing without
  /// actuators).
  void actuate(double t);
  /// The residual r(p + d_i e_i) of the step `problem` from `start` at y (#dofs), or null if it is
  /// not finite. dr/dp_i = (evaluate(i, ...) - r(p)) / step(i).
  const VecX* evaluate(std::size_t i, const NewtonProblem& problem, const State& start,
                       const VecX& y);

 private:
  std::vector<std::unique_ptr<Model>> models_;          ///< model with parameter i moved by d_i
  std::vector<std::unique_ptr<Model>> actuated_;        ///< the same, actuated (or null)
  std::vector<std::unique_ptr<NewtonSystem>> systems_;  ///< residual systems on them
  std::vector<double> steps_;                           ///< d_i
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
