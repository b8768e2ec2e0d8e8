#pragma once
/// Mid-edge normal bending energy of shells (mat_dismech 3.3.2, eqs. 19-20 and Appendix A; Grinspun
/// et al. 2006; docs/physics/shells.md#mid-edge-bending). Per triangle with nodes (x_0, x_1, x_2),
/// edge k opposite node k carrying the mid-edge DOF xi^k:
///   w^k = c^k (s^k xi^k - f^k),  f^k = n_hat . (s^k tau^{k,0}),
///   Lambda - Lambda_bar = sum_k (w^k - w_bar^k) t_bar^k (x) t_bar^k,
///   E = k_b A_bar [(1 - nu) Tr((Lambda - Lambda_bar)^2) + nu Tr(Lambda - Lambda_bar)^2] = k_b
///   A_bar dw^T G dw,
/// with n_hat the unit normal of the triangle, tau^{k,0} the accepted edge frame (State frames),
/// s^k the ownership sign, c^k, w_bar^k and the metric G from the rest triangle (MidEdgeTriangle).
/// The gradient and Hessian are exact (Appendix A's approximations are the exact derivatives of
/// this energy, except for the second derivatives of f^k, which are complete here). Stencil DOFs:
/// (x_0, x_1, x_2, xi^0, xi^1, xi^2), 12 entries.

#include <array>
#include <string_view>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// What one triangle's mid-edge energy reads from q and the accepted frames.
struct MidEdgeStencil {
  std::array<Vec3, 3> x;    ///< node positions [m]
  Vec3 xi;                  ///< xi^k of edge k [-]
  std::array<Vec3, 3> tau;  ///< tau^{k,0} of edge k along its shell-edge direction (unit)
};

/// E [J], and when requested dE/dq and d2E/dq2 (symmetric) of one triangle.
double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<12>* gradient, MatN<12>* hessian);

/// Sum of the mid-edge bending energies of Model::shells.midedge_triangles.
class MidEdgeBendingEnergy final : public Energy {
 public:
  std::string_view name() const override { return "midedge_bending"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
};

}  // namespace tendril
