#pragma once
/// The transposed linearisation of one converged step (docs/physics/gradients.md): given the
/// adjoint of the state after the step, the adjoint of the state before it and the step's
/// contribution to the parameter gradient. Steps: implicit Euler, the (generalised) implicit
/// midpoint rule, each of any dt (the substeps of a step whose dt was halved), and static solves.
/// The state's coordinates are (q, u, phi): phi^e is the angle by which edge e's reference
/// director is turned about its tangent on top of its parallel transport.

#include <memory>
#include <string>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/adjoint/parameter_residual.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
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

/// The Newton problem of a step of dt [s] from `start` with the unknown y = q_alpha = q_k + alpha
/// (q_{k+1} - q_k) (alpha = 1: implicit Euler, y = q_{k+1}; 1/2: implicit midpoint), as
/// TimeStepper poses it: NewtonSystem::evaluate at y gives the step's residual r and matrix J;
/// `predicted` receives y_pred = q_k + alpha dt u_k and must outlive the problem.
NewtonProblem step_problem(const State& start, double dt, double alpha, VecX& predicted);

/// step_problem with alpha = 1.
NewtonProblem implicit_euler_problem(const State& start, double dt, VecX& predicted);

class StepAdjoint {
 public:
  /// `model`: the model the parameters' factories were given; the run's model is
  /// with_parameters(model, parameters) (run_model()). Builds the residual systems of each
  /// parameter's difference stencil (ParameterResiduals). InputError for what is not
  /// differentiated: rod-shell joints (their framed edges).
  StepAdjoint(const Model& model, const DynamicsOptions& options,
              const std::vector<Parameter>& parameters);
  ~StepAdjoint();

  /// The model of the run: every parameter applied at its value.
  const Model& run_model() const { return *run_model_; }

  /// Pulls `adjoint` from the state `end` back to the state `start` over the step start -> end
  /// (a converged step of `dt` [s] of options().scheme) and adds the step's part of dL/dp into
  /// `parameter_gradient` (#parameters). Returns an empty string on success, else why the step
  /// could not be differentiated (non-finite forces, a singular step matrix); `adjoint` is then
  /// unspecified.
  std::string pull_back(const State& start, const State& end, double dt, StateAdjoint& adjoint,
                        VecX& parameter_gradient);

  /// The same for a static solve whose solution is `end` (StaticSolver, at end.time): its
  /// positions do not depend on where the solve started, so the adjoint of the start state's q
  /// and u is zero, and its frame angles take what the solution's reference frames carried.
  std::string pull_back_static(const State& end, StateAdjoint& adjoint, VecX& parameter_gradient);

 private:
  /// Evaluates every residual system at `y` of `problem` (the run's with its Jacobian), with the
  /// actuators at problem.time; an empty string on success.
  std::string evaluate(const State& start, const NewtonProblem& problem, const VecX& y);
  /// Solves J^T mu = w on the free DOFs (w_free_ set) into mu_; an empty string on success.
  std::string solve_transposed(double time);
  /// s^e = dr/dphi^e . mu = (K^T mu) at theta^e, K = J - c_m M - c_u D; also sets damping_mu_ =
  /// c_u D^T mu (D = -dF/du of the ForceTerms at the problem's velocity).
  void frame_sensitivity(const NewtonProblem& problem, const State& start, const VecX& y, VecX& s);
  /// dL/dp -= mu . dr/dp over the parameters' stencils.
  void add_parameter_gradient(VecX& parameter_gradient);
  /// The free-DOF matrix J^T: its pattern, analysed once, and the value slots in the full J.
  void build_transpose();
  /// The start tangents' part of the pull-back of the frame angles' adjoint `lphi` (of the end
  /// state) and s (dr/dphi . mu): adds to edge_values_ what E^T carries into dL/dq_k: the start
  /// holonomy g of the transport to the end (phi_{k+1}) and to y (the forces' frames), and the
  /// derivative of the position rows' holonomy term h(t_k, t_y) through t_k. `midpoint`: y is
  /// not q_{k+1} (end_kinematics_ holds the end tangents).
  void add_start_tangent_terms(const State& start, const VecX& y, const NewtonProblem& problem,
                               bool midpoint, const VecX& lphi, const VecX& s);
  /// Adds E^T v: v^e (3 per rod edge, `edge_values`) times (+1 at n_1, -1 at n_0) into `out`.
  void add_edge_transpose(const std::vector<Vec3>& edge_values, VecX& out) const;

  std::unique_ptr<Model> run_model_;
  const Model& model_;  ///< *run_model_
  DynamicsOptions options_;
  std::unique_ptr<ResidualSystem> run_;  ///< the run's model
  ParameterResiduals parameter_residuals_;
  FreeStepMatrix transpose_;   ///< J^T on the free DOFs
  HessianAssembler damping_;   ///< D = -dF/du on all DOFs
  Kinematics end_kinematics_;  ///< at q_{k+1} from the start frames (midpoint: y != q_{k+1})
  VecX w_free_, mu_free_, mu_, lq_, u_, y_, predicted_, damping_mu_, dr_dp_;
  std::vector<Vec3> edge_values_;
};

}  // namespace tendril::adjoint
