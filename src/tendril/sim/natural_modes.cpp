#include "tendril/sim/natural_modes.hpp"

#include <cmath>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "tendril/core/error.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::sim {

namespace {

/// The DOFs of `model` not marked fixed.
std::vector<int> free_dofs(const Model& model) {
  std::vector<int> free;
  for (int d = 0; d < model.dofs.size(); ++d)
    if (!model.fixed[static_cast<std::size_t>(d)]) free.push_back(d);
  return free;
}

/// K = d2E/dq2 - dF/dq at u = 0 restricted to `free` and symmetrised; `with_loads` false leaves out
/// the force terms and the external-load energies (the elastic stiffness).
MatX free_stiffness(const Model& model, const State& state, const std::vector<int>& free,
                    bool with_loads) {
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
    for (Eigen::Index j = 0; j < m; ++j)
      k(i, j) = 0.5 * (full(free[i], free[j]) + full(free[j], free[i]));
  return k;
}

void check_count(int count, std::size_t free) {
  if (count < 1 || static_cast<std::size_t>(count) > free)
    throw InputError(
        "count", std::to_string(count),
        "a number of modes in 1.." + std::to_string(free) + " (the free DOFs with mass)");
}

}  // namespace

NaturalModes natural_modes(const Model& model, const State& state, int count) {
  const std::vector<int> free = free_dofs(model);
  // the free DOFs with mass (a) and without (b: the shells' mid-edge xi), as indices into `free`
  std::vector<Eigen::Index> massive, massless;
  for (std::size_t i = 0; i < free.size(); ++i)
    (model.mass[free[i]] > 0.0 ? massive : massless).push_back(static_cast<Eigen::Index>(i));
  check_count(count, massive.size());
  const MatX k = free_stiffness(model, state, free, true);
  const auto na = static_cast<Eigen::Index>(massive.size()),
             nb = static_cast<Eigen::Index>(massless.size());
  // static condensation (Guyan): a massless DOF carries no inertia, so in every mode it takes the
  // value that minimises the energy for the others, v_b = -K_bb^-1 K_ba v_a, and K_aa - K_ab
  // K_bb^-1 K_ba is the stiffness of the massive DOFs
  const MatX kaa = k(massive, massive), kab = k(massive, massless);
  Eigen::LDLT<MatX> kbb(k(massless, massless));
  if (nb > 0 && (kbb.info() != Eigen::Success || kbb.vectorD().cwiseAbs().minCoeff() <=
                                                     1e-12 * kbb.vectorD().cwiseAbs().maxCoeff()))
    throw InputError("model", "a free DOF without mass and without stiffness of its own",
                     "mass on every free DOF, or massless DOFs (shell mid-edge xi) that the "
                     "stiffness determines "
                     "(eliminated by static condensation)");
  const MatX recover =
      nb > 0 ? MatX(-kbb.solve(kab.transpose())) : MatX(0, na);  // v_b = recover v_a
  MatX condensed = kaa + kab * recover;
  condensed = (0.5 * (condensed + condensed.transpose())).eval();
  VecX mass(na);
  for (Eigen::Index i = 0; i < na; ++i)
    mass[i] = model.mass[free[static_cast<std::size_t>(massive[i])]];
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(condensed, mass.asDiagonal().toDenseMatrix());
  NaturalModes out;
  out.shapes = MatX::Zero(model.dofs.size(), count);
  for (int c = 0; c < count; ++c) {
    const double lambda = eig.eigenvalues()[c];
    out.omega.push_back(lambda >= 0.0 ? std::sqrt(lambda) : -std::sqrt(-lambda));
    const VecX va = eig.eigenvectors().col(c), vb = recover * va;
    for (Eigen::Index i = 0; i < na; ++i)
      out.shapes(free[static_cast<std::size_t>(massive[i])], c) = va[i];
    for (Eigen::Index i = 0; i < nb; ++i)
      out.shapes(free[static_cast<std::size_t>(massless[i])], c) = vb[i];
  }
  return out;
}

std::vector<double> buckling_load_factors(const Model& model, const State& unloaded,
                                          const State& loaded, int count) {
  const std::vector<int> free = free_dofs(model);
  check_count(count, free.size());
  const MatX k0 = free_stiffness(model, unloaded, free, false);
  const MatX geometric = free_stiffness(model, loaded, free, true) - k0;
  // K_0 v = -lambda K_G v  <=>  (-K_G) v = mu K_0 v with mu = 1 / lambda (K_0 positive definite)
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(-geometric, k0, Eigen::EigenvaluesOnly);
  if (eig.info() != Eigen::Success)
    throw InputError("boundary_conditions", "an elastic stiffness that is not positive definite",
                     "supports that hold every rigid motion (linear buckling needs K_0 > 0)");
  std::vector<double> factors;
  for (Eigen::Index i = eig.eigenvalues().size() - 1;
       i >= 0 && static_cast<int>(factors.size()) < count; --i)
    if (eig.eigenvalues()[i] > 0.0) factors.push_back(1.0 / eig.eigenvalues()[i]);
  return factors;
}

}  // namespace tendril::sim
