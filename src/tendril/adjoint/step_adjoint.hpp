#pragma once
/// The transposed linearisation of one converged implicit Euler step (docs/physics/gradients.md):
/// given the adjoint of the state after the step, the adjoint of the state before it and the
/// step's contribution to the parameter gradient. The state's coordinates are (q, u, phi): phi^e
/// is the angle by which edge e's reference director is turned about its tangent on top of its
/// parallel transport.

#include <memory>
#include <string>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/adjoint/parameter_residual.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/linear_solver.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/integrate/options.hpp"

namespace tendril::adjoint {

/// dL/d(q, u, phi) of one state of the run, total (through every later step).
struct StateAdjoint {
  VecX q;            ///< dL/dq (#dofs; zero on fixed DOFs)
  VecX u;            ///< dL/du (#dofs; zero on fixed DOFs)
  VecX frame_angle;  ///< dL/dphi per rod edge (#edges)
};

/// InputError for what the step's linearisation does not differentiate yet: a scheme other than
/// implicit Euler, shells.
void require_differentiable(const Model& model, const DynamicsOptions& options);

/// The Newton problem of an implicit Euler step of dt [s] from `start` (NewtonSystem::evaluate at
/// y = q_{k+1} gives the step's residual r and matrix J); `predicted` receives y_pred = q_k + dt
/// u_k and must outlive the problem.
NewtonProblem implicit_euler_problem(const State& start, double dt, VecX& predicted);

class StepAdjoint {
 public:
  /// `model` carries the parameters at their values (with_parameters); it must outlive this
  /// object. Builds one residual system per parameter, on a copy of the model with the parameter
  /// moved by its difference_step(). InputError for what is not differentiated yet: a scheme
  /// other than implicit Euler, shells. Actuators (schedules of rod rest quantities) are applied
  /// at the step's end time, as the forward run does (TimeStepper).
  StepAdjoint(const Model& model, const DynamicsOptions& options,
              const std::vector<Parameter>& parameters);
  ~StepAdjoint();

  /// Pulls `adjoint` from the state `end` back to the state `start` over the step start -> end
  /// (a converged implicit Euler step of options().dt) and adds the step's part of dL/dp into
  /// `parameter_gradient` (#parameters). Returns an empty string on success, else why the step
  /// could not be differentiated (non-finite forces, a singular step matrix); `adjoint` is then
  /// unspecified.
  std::string pull_back(const State& start, const State& end, StateAdjoint& adjoint,
                        VecX& parameter_gradient);

 private:
  /// The free-DOF matrix J^T: its pattern, analysed once, and the value slots in the full J.
  void build_transpose();
  /// The start tangents' part of the pull-back (after the solve for mu_ and s^e = dr/dphi^e . mu):
  /// updates the frame angles' adjoint and sets edge_values_ to what E^T carries into dL/dq_k.
  void add_start_tangent_terms(const State& start, const State& end, const VecX& s,
                               StateAdjoint& adjoint);
  /// Adds E^T v: v^e (3 per rod edge, `edge_values`) times (+1 at n_1, -1 at n_0) into `out`.
  void add_edge_transpose(const std::vector<Vec3>& edge_values, VecX& out) const;

  /// Writes the actuated rod data at time t [s] into the models the residual systems evaluate.
  void actuate(double t);

  const Model& model_;
  DynamicsOptions options_;
  std::unique_ptr<Model> actuated_;  ///< model_ with its actuators applied (null without actuators)
  NewtonSystem system_;
  ParameterResiduals parameter_residuals_;  ///< dr/dp
  FreeStepMatrix transpose_;                ///< J^T on the free DOFs
  HessianAssembler damping_;                ///< D = -dF/du on all DOFs
  VecX w_free_, mu_free_, mu_, lq_, u_, rhs_;
  std::vector<Vec3> edge_values_;
};

}  // namespace tendril::adjoint
