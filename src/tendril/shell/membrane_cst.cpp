#include "tendril/shell/membrane_cst.hpp"

namespace tendril {
namespace {

using Mat32 = Eigen::Matrix<double, 3, 2>;
using Mat2 = Eigen::Matrix2d;

std::array<int, 9> stencil_dofs(const Model& model, const MembraneTriangle& t) {
  const auto& nodes = model.shells.triangles[static_cast<std::size_t>(t.triangle)];
  std::array<int, 9> out{};
  for (std::size_t k = 0; k < 3; ++k)
    for (int d = 0; d < 3; ++d)
      out[3 * k + static_cast<std::size_t>(d)] = model.dofs.node(nodes[k]) + d;
  return out;
}

/// Second Piola-Kirchhoff stress S = 2 mu G + lambda Tr(G) I [Pa] of Green strain G.
Mat2 piola_kirchhoff_2(const Mat2& green, const MembraneTriangle& t) {
  return 2.0 * t.lame_mu * green + t.lame_lambda * green.trace() * Mat2::Identity();
}

}  // namespace

double membrane_cst_derivatives(const std::array<Vec3, 3>& x, const MembraneTriangle& triangle,
                                VecN<9>* gradient, MatN<9>* hessian) {
  // F = sum_i x_i grad_N_i^T with grad_N_1, grad_N_2 the rows of D_m^{-1}, grad_N_0 = -grad_N_1 -
  // grad_N_2
  Mat32 ds;
  ds << x[1] - x[0], x[2] - x[0];
  const Mat32 f = ds * triangle.rest_shape_inverse;
  const Mat2 green = 0.5 * (f.transpose() * f - Mat2::Identity());
  const double volume = triangle.thickness * triangle.rest_area;
  const double energy = volume * (triangle.lame_mu * green.squaredNorm() +
                                  0.5 * triangle.lame_lambda * green.trace() * green.trace());
  if (!gradient && !hessian) return energy;

  std::array<Vec2, 3> grad_n;
  grad_n[1] = triangle.rest_shape_inverse.row(0).transpose();
  grad_n[2] = triangle.rest_shape_inverse.row(1).transpose();
  grad_n[0] = -grad_n[1] - grad_n[2];
  const Mat2 stress = piola_kirchhoff_2(green, triangle);
  const Mat32 piola_1 = f * stress;  // P = F S
  if (gradient)
    for (std::size_t i = 0; i < 3; ++i)
      gradient->segment<3>(3 * static_cast<Eigen::Index>(i)) = volume * piola_1 * grad_n[i];
  if (!hessian) return energy;

  // Block (i, j) in closed form (docs/physics/shells.md#cst-membrane): with a_i = F grad_N_i, a
  // change dx_j gives dF = dx_j grad_N_j^T, dS = 2 mu dG + lambda Tr(dG) I, dG = (F^T dF + dF^T F)
  // / 2, and d(V F S grad_N_i) = V [(grad_N_i^T S grad_N_j) I + mu (grad_N_i . grad_N_j) F F^T + mu
  // a_j a_i^T
  //                        + lambda a_i a_j^T] dx_j,
  // symmetric under (i, j) -> (j, i) transposed. The blocks of nodes 1 and 2 are formed; node 0's
  // follow from translation invariance (grad_N_0 = -grad_N_1 - grad_N_2: every column of blocks
  // sums to zero).
  const Mat3 ffT = f * f.transpose();
  std::array<Vec3, 3> a;
  for (std::size_t i = 1; i < 3; ++i) a[i] = f * grad_n[i];
  const double mu = triangle.lame_mu, lambda = triangle.lame_lambda;
  const auto block = [&](std::size_t i, std::size_t j) -> Mat3 {
    Mat3 b = (volume * mu * grad_n[i].dot(grad_n[j])) * ffT +
             volume * (mu * a[j] * a[i].transpose() + lambda * a[i] * a[j].transpose());
    b.diagonal().array() += volume * grad_n[i].dot(stress * grad_n[j]);
    return b;
  };
  // the lower blocks H_rc (r >= c) in place (the diagonal ones whole), H_21 = block(1, 2)^T; the
  // upper ones mirrored
  MatN<9>& h = *hessian;
  const auto lower = [&h](int r, int c) { return h.block<3, 3>(3 * r, 3 * c); };
  lower(1, 1) = block(1, 1);
  lower(2, 1) = block(1, 2).transpose();
  lower(2, 2) = block(2, 2);
  lower(1, 0) = -(lower(1, 1) + lower(2, 1).transpose());
  lower(2, 0) = -(lower(2, 1) + lower(2, 2));
  // -H_00, symmetric in exact arithmetic: round-off is evened out
  const Mat3 sum = lower(1, 0) + lower(2, 0);
  lower(0, 0) = -0.5 * (sum + sum.transpose());
  for (int r = 1; r < 3; ++r)
    for (int c = 0; c < r; ++c) lower(c, r) = lower(r, c).transpose();
  return energy;
}

void MembraneCstEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const MembraneTriangle& t : model.shells.membrane_triangles)
    pattern.add_stencil(stencil_dofs(model, t));
}

void MembraneCstEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  const auto& triangles = in.model.shells.membrane_triangles;
  const bool derivatives = out.gradient || out.hessian;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const MembraneTriangle& t = triangles[i];
    const std::array<int, 9> dofs = stencil_dofs(in.model, t);
    const std::array<Vec3, 3> x = {in.q.segment<3>(dofs[0]), in.q.segment<3>(dofs[3]),
                                   in.q.segment<3>(dofs[6])};
    VecN<9> g;
    MatN<9> h;
    out.energy +=
        membrane_cst_derivatives(x, t, derivatives ? &g : nullptr, out.hessian ? &h : nullptr);
    if (out.gradient)
      for (std::size_t k = 0; k < 9; ++k)
        (*out.gradient)[dofs[k]] += g[static_cast<Eigen::Index>(k)];
    if (out.hessian) out.hessian->add_cached_symmetric(this, i, dofs, h);
  }
}

}  // namespace tendril
