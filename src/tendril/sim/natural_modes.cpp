#include "tendril/sim/natural_modes.hpp"

#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "tendril/core/error.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::sim {

namespace {

/// The free DOFs of `model`, with every one of them carrying mass when `need_mass`.
std::vector<int> free_dofs(const Model& model, bool need_mass) {
  std::vector<int> free;
  for (int d = 0; d < model.dofs.size(); ++d)
    if (!model.fixed[static_cast<std::size_t>(d)]) free.push_back(d);
  if (need_mass)
    for (int d : free)
      if (!(model.mass[d] > 0.0))
        throw InputError("model", "DOF " + std::to_string(d) + " without mass", "a mass on every free DOF");
  return free;
}

/// K = d2E/dq2 - dF/dq at u = 0 restricted to `free` and symmetrised; `with_loads` false leaves out the
/// force terms and the external-load energies (the elastic stiffness).
MatX free_stiffness(const Model& model, const State& state, const std::vector<int>& free, bool with_loads) {
  const int n = model.dofs.size();
  Kinematics kin;
  compute_kinematics(model, state.frames, state.q, kin);
  const VecX u = VecX::Zero(n);
  const EvalInput in{model, state.q, u, state.time, kin};
  SparsityBuilder pattern(n);
  for (const auto& e : model.energies) e->declare_sparsity(model, pattern);
  for (const auto& f : model.forces) f->declare_sparsity(model, pattern);
  pattern.add_diagonal();
  HessianAssembler hessian(pattern.build());
  for (const auto& e : model.energies) {
    if (!with_loads && e->is_external_load()) continue;
    EnergyOutput o;
    o.hessian = &hessian;
    e->accumulate(in, o);
  }
  for (const auto& f : model.forces) {
    if (!with_loads) break;
    ForceOutput o;
    o.jacobian = &hessian;
    o.dq_scale = -1.0;
    o.du_scale = 0.0;
    f->accumulate(in, o);
  }
  const MatX full(hessian.matrix());
  const auto m = static_cast<Eigen::Index>(free.size());
  MatX k(m, m);
  for (Eigen::Index i = 0; i < m; ++i)
    for (Eigen::Index j = 0; j < m; ++j) k(i, j) = 0.5 * (full(free[i], free[j]) + full(free[j], free[i]));
  return k;
}

void check_count(int count, std::size_t free) {
  if (count < 1 || static_cast<std::size_t>(count) > free)
    throw InputError("count", std::to_string(count), "a number of modes in 1.." + std::to_string(free) + " (the free DOFs)");
}

}  // namespace

NaturalModes natural_modes(const Model& model, const State& state, int count) {
  const std::vector<int> free = free_dofs(model, true);
  check_count(count, free.size());
  const auto m = static_cast<Eigen::Index>(free.size());
  const MatX k = free_stiffness(model, state, free, true);
  VecX mass(m);
  for (Eigen::Index i = 0; i < m; ++i) mass[i] = model.mass[free[i]];
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(k, mass.asDiagonal().toDenseMatrix());
  NaturalModes out;
  out.shapes = MatX::Zero(model.dofs.size(), count);
  for (int c = 0; c < count; ++c) {
    const double lambda = eig.eigenvalues()[c];
    out.omega.push_back(lambda >= 0.0 ? std::sqrt(lambda) : -std::sqrt(-lambda));
    for (Eigen::Index i = 0; i < m; ++i) out.shapes(free[i], c) = eig.eigenvectors()(i, c);
  }
  return out;
}

std::vector<double> buckling_load_factors(const Model& model, const State& unloaded, const State& loaded, int count) {
  const std::vector<int> free = free_dofs(model, false);
  check_count(count, free.size());
  const MatX k0 = free_stiffness(model, unloaded, free, false);
  const MatX geometric = free_stiffness(model, loaded, free, true) - k0;
  // K_0 v = -lambda K_G v  <=>  (-K_G) v = mu K_0 v with mu = 1 / lambda (K_0 positive definite)
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(-geometric, k0, Eigen::EigenvaluesOnly);
  if (eig.info() != Eigen::Success)
    throw InputError("boundary_conditions", "an elastic stiffness that is not positive definite",
                     "supports that hold every rigid motion (linear buckling needs K_0 > 0)");
  std::vector<double> factors;
  for (Eigen::Index i = eig.eigenvalues().size() - 1; i >= 0 && static_cast<int>(factors.size()) < count; --i)
    if (eig.eigenvalues()[i] > 0.0) factors.push_back(1.0 / eig.eigenvalues()[i]);
  return factors;
}

}  // namespace tendril::sim
