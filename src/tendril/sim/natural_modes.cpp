#include "tendril/sim/natural_modes.hpp"

#include <cmath>
#include <string>

#include <Eigen/Eigenvalues>

#include "tendril/core/error.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/core/term.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril::sim {

NaturalModes natural_modes(const Model& model, const State& state, int count) {
  const int n = model.dofs.size();
  std::vector<int> free;
  for (int d = 0; d < n; ++d)
    if (!model.fixed[static_cast<std::size_t>(d)]) free.push_back(d);
  const auto m = static_cast<Eigen::Index>(free.size());
  if (count < 1 || count > m)
    throw InputError("count", std::to_string(count), "a number of modes in 1.." + std::to_string(m) + " (the free DOFs)");
  for (int d : free)
    if (!(model.mass[d] > 0.0))
      throw InputError("model", "DOF " + std::to_string(d) + " without mass", "a mass on every free DOF");

  // K = d2E/dq2 - dF/dq at u = 0 on the full pattern
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
    EnergyOutput o;
    o.hessian = &hessian;
    e->accumulate(in, o);
  }
  for (const auto& f : model.forces) {
    ForceOutput o;
    o.jacobian = &hessian;
    o.dq_scale = -1.0;
    o.du_scale = 0.0;
    f->accumulate(in, o);
  }
  const MatX full(hessian.matrix());
  MatX k(m, m);
  VecX mass(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    mass[i] = model.mass[free[i]];
    for (Eigen::Index j = 0; j < m; ++j) k(i, j) = 0.5 * (full(free[i], free[j]) + full(free[j], free[i]));
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(k, mass.asDiagonal().toDenseMatrix());
  NaturalModes out;
  out.shapes = MatX::Zero(n, count);
  for (int c = 0; c < count; ++c) {
    const double lambda = eig.eigenvalues()[c];
    out.omega.push_back(lambda >= 0.0 ? std::sqrt(lambda) : -std::sqrt(-lambda));
    for (Eigen::Index i = 0; i < m; ++i) out.shapes(free[i], c) = eig.eigenvectors()(i, c);
  }
  return out;
}

}  // namespace tendril::sim
