#include "tendril/adjoint/parameter_residual.hpp"

#include "tendril/core/actuator.hpp"
#include "tendril/core/term.hpp"

namespace tendril::adjoint {

ParameterResiduals::ParameterResiduals(const Model& model, const NewtonOptions& newton,
                                       const std::vector<Parameter>& parameters) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    // all parameters applied again in their order, as with_parameters does, so that a later one
    // that sets part of what parameter i sets (a spring's curvature after a uniform one) still wins
    auto moved = std::make_unique<Model>(model);
    steps_.push_back(parameters[i].difference_step());
    for (std::size_t j = 0; j < parameters.size(); ++j)
      parameters[j].apply(*moved, parameters[j].value + (j == i ? steps_.back() : 0.0));
    actuated_.push_back(model.actuators.empty() ? nullptr : std::make_unique<Model>(*moved));
    systems_.push_back(
        std::make_unique<NewtonSystem>(actuated_.back() ? *actuated_.back() : *moved, newton));
    models_.push_back(std::move(moved));
  }
}

ParameterResiduals::~ParameterResiduals() = default;

void ParameterResiduals::actuate(double t) {
  for (std::size_t i = 0; i < models_.size(); ++i)
    if (actuated_[i]) actuated_rods(*models_[i], t, actuated_[i]->rods);
}

const VecX* ParameterResiduals::evaluate(std::size_t i, const NewtonProblem& problem,
                                         const State& start, const VecX& y) {
  NewtonSystem& system = *systems_[i];
  system.update_stencils(start);
  if (!system.evaluate(problem, y, false)) return nullptr;
  return &system.residual();
}

void assemble_damping(const Model& model, const Model& evaluated, const VecX& q, const VecX& u,
                      double time, const Kinematics& kin, HessianAssembler& damping) {
  damping.set_zero();
  const EvalInput in{evaluated, q, u, time, kin};
  ForceOutput out{nullptr, &damping, 0.0, -1.0};
  for (const auto& term : model.forces) term->accumulate(in, out);
}

}  // namespace tendril::adjoint
