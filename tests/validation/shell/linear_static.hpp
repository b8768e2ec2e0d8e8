#pragma once
/// Small-load static solutions of shell models for the validation tests: from the stress-free rest
/// state one Newton step, K u = f on the free DOFs with K the assembled Hessian of all energies at
/// rest, is the linear-elastic solution.

#include <vector>

#include <Eigen/SparseCholesky>

#include "tendril/core/model.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/rod_builder.hpp"

namespace tendril::test {

/// K, the Hessian of all energies at the rest state [N/m | N | N m] (#dofs x #dofs).
inline SparseMatrix rest_hessian(const Model& model) {
  const VecX q = rest_configuration(model);
  RodFrames frames;
  initialize_frames(model, q, frames);
  Kinematics kin;
  compute_kinematics(model, frames, q, kin);
  const int n = model.dofs.size();
  SparsityBuilder pattern(n);
  for (const auto& term : model.energies) term->declare_sparsity(model, pattern);
  HessianAssembler hessian(pattern.build());
  const VecX u0 = VecX::Zero(n);
  const EvalInput in{model, q, u0, 0.0, kin};
  EnergyOutput out;
  out.hessian = &hessian;
  for (const auto& term : model.energies) term->accumulate(in, out);
  return hessian.matrix();
}

/// v^T K v of a rest-state variation v (#dofs): twice the elastic energy of a small motion along v.
inline double energy_hessian_form(const Model& model, const VecX& v) {
  return v.dot(rest_hessian(model) * v);
}

/// The displacement u (#dofs, zero on fixed DOFs) with K u = load on the DOFs not marked in
/// model.fixed.
inline VecX linear_static_displacement(const Model& model, const VecX& load) {
  const int n = model.dofs.size();
  std::vector<int> reduced(static_cast<std::size_t>(n), -1);
  int num_free = 0;
  for (int i = 0; i < n; ++i)
    if (!model.fixed[static_cast<std::size_t>(i)])
      reduced[static_cast<std::size_t>(i)] = num_free++;
  std::vector<Eigen::Triplet<double>> entries;
  const SparseMatrix k = rest_hessian(model);
  for (int col = 0; col < k.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(k, col); it; ++it) {
      const int r = reduced[static_cast<std::size_t>(it.row())],
                c = reduced[static_cast<std::size_t>(col)];
      if (r >= 0 && c >= 0) entries.emplace_back(r, c, it.value());
    }
  SparseMatrix k_free(num_free, num_free);
  k_free.setFromTriplets(entries.begin(), entries.end());
  VecX f(num_free);
  for (int i = 0; i < n; ++i)
    if (reduced[static_cast<std::size_t>(i)] >= 0)
      f[reduced[static_cast<std::size_t>(i)]] = load[i];
  Eigen::SimplicialLDLT<SparseMatrix> solver(k_free);
  const VecX u_free = solver.solve(f);
  VecX u = VecX::Zero(n);
  for (int i = 0; i < n; ++i)
    if (reduced[static_cast<std::size_t>(i)] >= 0)
      u[i] = u_free[reduced[static_cast<std::size_t>(i)]];
  return u;
}

}  // namespace tendril::test
