#pragma once
/// Forward sensitivities (the tangent linear model) of an implicit Euler run: the derivatives
/// S_k = d(q_k, u_k, phi_k)/dp of every state with respect to every parameter, carried forward
/// with the run. At a converged step r(q_{k+1}; q_k, u_k, phi_k, p) = 0, so
///   J S^q_{k+1} = -(dr/dq_k S^q_k + dr/du_k S^u_k + dr/dphi_k S^phi_k + dr/dp),
/// one solve per parameter with one factorization of the step's Jacobian J at the converged state
/// (docs/physics/gradients.md, "Forward sensitivities"). It is the transpose of the adjoint step
/// (step_adjoint.hpp): a run and n_p solves per step give the derivatives of every objective,
/// where the adjoint needs a backward pass per objective.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tendril/adjoint/objective.hpp"
#include "tendril/adjoint/parameter.hpp"
#include "tendril/adjoint/parameter_residual.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/integrate/newton_system.hpp"
#include "tendril/integrate/options.hpp"

namespace tendril::adjoint {

/// d(q, u, phi)/dp of one state of the run, a column per parameter.
struct StateSensitivity {
  MatX q;            ///< dq/dp (#dofs x #parameters; zero on fixed DOFs)
  MatX u;            ///< du/dp (#dofs x #parameters; zero on fixed DOFs)
  MatX frame_angle;  ///< dphi/dp (#rod edges x #parameters), phi as in step_adjoint.hpp
};

class StepSensitivity {
 public:
  /// `model`: the model the parameters' factories were given; the run's model is
  /// with_parameters(model, parameters) (run_model()). InputError for what it does not
  /// differentiate: a scheme other than implicit Euler ("scheme": run_with_gradient differentiates
  /// the midpoint rule) and rod-shell joints ("shells.joint_edges").
  StepSensitivity(const Model& model, const DynamicsOptions& options,
                  const std::vector<Parameter>& parameters);
  ~StepSensitivity();

  /// The model of the run: every parameter applied at its value.
  const Model& run_model() const { return *run_model_; }

  /// Carries `sensitivity` from the state `start` to the state `end` over the step start -> end
  /// (a converged implicit Euler step of dt [s]: options().dt, or a substep of a halved one).
  /// Returns an empty string on success, else
  /// why the step could not be differentiated; `sensitivity` is then unspecified.
  std::string push_forward(const State& start, const State& end, double dt,
                           StateSensitivity& sensitivity);

 private:
  /// The free-DOF matrix J: its pattern, analysed once, and the value slots in the full J.
  void build_free_matrix();
  /// -dr/dq_k S^q - dr/du_k S^u without the start tangents' terms, into rhs_.
  void add_start_state_terms(const State& start, const State& end, double dt,
                             const StateSensitivity& sensitivity);
  /// The start tangents' terms: psi_ = S^phi + g . dS^e (the frame angle the step's residual
  /// reads) and the end holonomy's dependence on the start tangent, into rhs_.
  void add_start_tangent_terms(const State& start, const State& end, double dt,
                               const StateSensitivity& sensitivity);
  /// Solves J X = rhs_ on the free DOFs, column by column, into solution_ (zero on fixed DOFs).
  std::string solve(double time);

  std::unique_ptr<Model> run_model_;
  const Model& model_;  ///< *run_model_
  DynamicsOptions options_;
  ResidualSystem run_;    ///< the run's residual system
  NewtonSystem& system_;  ///< run_.system
  ParameterResiduals parameter_residuals_;
  FreeStepMatrix matrix_;     ///< J on the free DOFs
  HessianAssembler damping_;  ///< D = -dF/du on all DOFs
  VecX predicted_, u_, b_free_, x_free_, dr_dp_;
  MatX rhs_, solution_, psi_;
};

/// The values of several objectives of one run and their derivatives with respect to the
/// parameters.
struct RunSensitivities {
  bool ok = false;      ///< false if a forward step or its linearisation failed
  std::string message;  ///< why, when !ok
  VecX values;          ///< L_j (#objectives)
  MatX derivatives;     ///< dL_j/dp_i (#objectives x #parameters)
  State final_state;    ///< the state after the last step
};

/// Runs `steps` implicit Euler steps of options.dt from `initial` on `model` with every parameter
/// set to its value (with_parameters), as run_with_gradient does, and returns every objective and
/// its derivatives from the forward sensitivities, carried over the substeps actually taken where
/// a step's dt was halved. With `end_time` [s], the run takes the steps Simulation takes in a scene
/// of that duration, as run_with_gradient with GradientOptions::end_time (step k ends at
/// initial.time + k dt, the last at end_time; InputError "end_time" unless it is within 1e-9 dt of
/// initial.time + steps dt). InputError for what StepSensitivity refuses and for steps < 1.
RunSensitivities run_with_sensitivities(const Model& model, const DynamicsOptions& options,
                                        const State& initial, int steps,
                                        const std::vector<Objective>& objectives,
                                        const std::vector<Parameter>& parameters,
                                        std::optional<double> end_time = std::nullopt);

}  // namespace tendril::adjoint
