#pragma once
/// The parts of an implicit Euler step's residual r(q_{k+1}; q_k, u_k, p) that the adjoint
/// (step_adjoint.hpp) and the forward sensitivities (forward_sensitivity.hpp) both linearise:
/// dr/dp of affine parameters, by the difference of residuals on model copies with the parameter
/// moved (parameter.hpp), and D = -dF/du of the ForceTerms (docs/physics/gradients.md).

#include <cstddef>
#include <memory>
#include <vector>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/newton_system.hpp"

namespace tendril::adjoint {

class ParameterResiduals {
 public:
  /// `model` carries the parameters at their values (with_parameters); one residual system per
  /// parameter, on a copy of the model with that parameter moved by its difference_step().
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
/// q.
void assemble_damping(const Model& model, const Model& evaluated, const VecX& q, const VecX& u,
                      double time, const Kinematics& kin, HessianAssembler& damping);

}  // namespace tendril::adjoint
