#include "tendril/adjoint/parameter_residual.hpp"

#include "tendril/core/actuator.hpp"
#include "tendril/core/term.hpp"

namespace tendril::adjoint {

ParameterResiduals::ParameterResiduals(const Model& model, const NewtonOptions& newton,
                                       const std::vector<Parameter>& parameters) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    // all parameters applied again in their order, as with_parameters does, so that a later one
    // that sets part of what parameter i sets (a spring's curvature after a uniform one) still wins
    steps_.push_back(parameters[i].difference_step());
    auto moved = std::make_unique<Model>(with_moved_parameter(model, parameters, i, steps_.back()));
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
                      double time, const Kinematics& kin, HessianAssembler& damping,
                      ModelWorkspace* workspace) {
  damping.set_zero();
  EvalInput in{evaluated, q, u, time, kin};
  ForceOutput out{nullptr, &damping, 0.0, -1.0};
  for (std::size_t t = 0; t < model.forces.size(); ++t) {
    in.workspace = workspace ? workspace->force(t) : nullptr;
    model.forces[t]->accumulate(in, out);
  }
}

void FreeStepMatrix::build(const NewtonSystem& system, const NewtonOptions& options,
                           bool transpose) {
  const std::vector<int>& free = system.free_dofs();
  const SparseMatrix& full = system.pattern();
  const auto num_free = static_cast<int>(free.size());
  std::vector<int> free_index(static_cast<std::size_t>(full.cols()), -1);
  for (int k = 0; k < num_free; ++k) free_index[static_cast<std::size_t>(free[k])] = k;
  std::vector<Eigen::Triplet<double>> entries;
  for (int j = 0; j < full.cols(); ++j)
    for (SparseMatrix::InnerIterator it(full, j); it; ++it) {
      const int r = free_index[static_cast<std::size_t>(it.row())];
      const int c = free_index[static_cast<std::size_t>(j)];
      if (r >= 0 && c >= 0)
        transpose ? entries.emplace_back(c, r, 0.0) : entries.emplace_back(r, c, 0.0);
    }
  matrix_.resize(num_free, num_free);
  matrix_.setFromTriplets(entries.begin(), entries.end());
  matrix_.makeCompressed();
  slot_.clear();
  for (int c = 0; c < num_free; ++c)
    for (SparseMatrix::InnerIterator it(matrix_, c); it; ++it) {
      const int row = free[static_cast<std::size_t>(it.row())],
                col = free[static_cast<std::size_t>(c)];
      slot_.push_back(transpose ? value_index(full, col, row) : value_index(full, row, col));
    }
  solver_ = num_free == 0 ? nullptr
                          : make_linear_solver(options.linear_solver, matrix_,
                                               options.banded_max_bandwidth, system.symmetric());
}

bool FreeStepMatrix::factorize(const SparseMatrix& jacobian, double singular_tolerance) {
  if (!solver_) return true;
  const double* values = jacobian.valuePtr();
  double* gathered = matrix_.valuePtr();
  for (std::size_t s = 0; s < slot_.size(); ++s) gathered[s] = values[slot_[s]];
  return solver_->factorize(matrix_, singular_tolerance).status != Factorization::Status::singular;
}

}  // namespace tendril::adjoint
