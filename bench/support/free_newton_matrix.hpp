#pragma once
/// The free-DOF block of a model's Newton matrix c_m M + K at a configuration, and a benchmark loop
/// that factorizes and solves it with one linear solver (the factorization timed apart from the
/// rest of a step).

#include <vector>

#include <benchmark/benchmark.h>

#include "tendril/integrate/newton_system.hpp"

namespace tendril::bench {

/// The free block (free DOFs in NewtonSystem::free_dofs() order) of the Newton matrix of `model` at
/// `q` with inertia c_m = `inertia` [1/s^2] and the predicted position q (no inertial force).
inline SparseMatrix free_newton_matrix(const Model& model, const NewtonOptions& options,
                                       const VecX& q, const RodFrames& frames, double inertia) {
  NewtonProblem problem;
  problem.inertia = inertia;
  problem.predicted = &q;
  problem.frames = &frames;
  NewtonSystem system(model, options);
  system.evaluate(problem, q, true);
  std::vector<int> index(model.dofs.size(), -1);
  for (std::size_t k = 0; k < system.free_dofs().size(); ++k)
    index[system.free_dofs()[k]] = static_cast<int>(k);
  std::vector<Eigen::Triplet<double>> triplets;
  const SparseMatrix& J = system.jacobian();
  for (int col = 0; col < J.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(J, col); it; ++it)
      if (index[it.row()] >= 0 && index[col] >= 0)
        triplets.emplace_back(index[it.row()], index[col], it.value());
  const auto nf = static_cast<Eigen::Index>(system.free_dofs().size());
  SparseMatrix A(nf, nf);
  A.setFromTriplets(triplets.begin(), triplets.end());
  return A;
}

/// One factorization and solve of `A` per benchmark iteration (analysis once, untimed).
template <class Solver>
void time_factorizations(benchmark::State& bm, const SparseMatrix& A) {
  Solver solver;
  solver.analyze(A);
  const VecX b = VecX::Ones(A.rows());
  VecX x(A.rows());
  for (auto _ : bm) {
    solver.factorize(A, 1e-13);
    solver.solve(b, x);
    benchmark::DoNotOptimize(x.data());
  }
}

}  // namespace tendril::bench
