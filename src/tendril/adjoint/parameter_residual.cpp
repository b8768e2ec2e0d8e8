#include "tendril/adjoint/parameter_residual.hpp"

#include <fmt/format.h>

#include "tendril/core/actuator.hpp"
#include "tendril/core/term.hpp"

namespace tendril::adjoint {

ResidualSystem::ResidualSystem(const Model& base_model, const NewtonOptions& options)
    : base(base_model),
      actuated(base_model.actuators.empty() ? nullptr : std::make_unique<Model>(base_model)),
      workspace(actuated ? *actuated : base_model),
      system(actuated ? *actuated : base_model, options, &workspace) {}

bool ResidualSystem::update_stencils_at(const VecX& y, double time) {
  at_rest.q = y;
  at_rest.u.setZero(y.size());
  at_rest.time = time;
  return system.update_stencils(at_rest);
}

void ResidualSystem::actuate(double t) {
  if (!actuated) return;
  actuated_rods(base, t, actuated->rods);
  actuated_hinges(base, t, actuated->shells.hinges);
}

/// One point p + c d e_i of parameter i's stencil: its model, residual system and weight w / d.
struct ParameterResiduals::Point {
  Point(std::unique_ptr<Model> moved, const NewtonOptions& newton, std::size_t i, double w)
      : model(std::move(moved)), residual(*model, newton), parameter(i), weight(w) {}
  std::unique_ptr<Model> model;
  ResidualSystem residual;
  std::size_t parameter;
  double weight;
};

Stencil difference_stencil(int degree) {
  if (degree == 1) return {{1.0}, {1.0}, -1.0};
  // the fourth-order central difference, exact for polynomials of degree <= 4
  return {{2.0, 1.0, -1.0, -2.0}, {-1.0 / 12.0, 8.0 / 12.0, -8.0 / 12.0, 1.0 / 12.0}, 0.0};
}

ParameterResiduals::ParameterResiduals(const Model& model, const NewtonOptions& newton,
                                       const std::vector<Parameter>& parameters) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const double d = parameters[i].difference_step();
    const Stencil stencil = difference_stencil(parameters[i].degree);
    base_weight_.push_back(stencil.base_weight / d);
    for (std::size_t k = 0; k < stencil.offsets.size(); ++k) {
      // all parameters applied again in their order, as with_parameters does, so that a later
      // one that sets part of what parameter i sets (a spring's curvature after a uniform one)
      // still wins
      auto moved = std::make_unique<Model>(
          with_moved_parameter(model, parameters, i, stencil.offsets[k] * d));
      points_.push_back(
          std::make_unique<Point>(std::move(moved), newton, i, stencil.weights[k] / d));
    }
  }
}

ParameterResiduals::~ParameterResiduals() = default;

std::string ParameterResiduals::evaluate(const NewtonProblem& problem, const State& start,
                                         const VecX& y) {
  for (const auto& point : points_) {
    point->residual.update_stencils_at(y, start.time);
    point->residual.actuate(problem.time);
    if (!point->residual.system.evaluate(problem, y, false))
      return fmt::format("non-finite forces with parameter {} moved, step from t = {:.9g} s",
                         point->parameter, start.time);
  }
  return {};
}

void ParameterResiduals::derivative(std::size_t i, const VecX& base, VecX& out) const {
  // sum_j w_j (r_j - r) + (sum_j w_j + w_0) r: the differences first, for their round-off
  out.setZero(base.size());
  double weights = base_weight_[i];
  for (const auto& point : points_)
    if (point->parameter == i) {
      out += point->weight * (point->residual.system.residual() - base);
      weights += point->weight;
    }
  if (weights != 0.0) out += weights * base;
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
