#pragma once
/// Mid-edge normal bending energy of shells (mat_dismech 3.3.2, eqs. 19-20 and Appendix A; Grinspun
/// et al. 2006; docs/physics/shells.md#mid-edge-bending). Per triangle with nodes (x_0, x_1, x_2),
/// edge k opposite node k carrying the mid-edge DOF xi^k:
///   w^k = c^k (s^k xi^k - f^k),  f^k = beta^k, the angle of n_hat from the edge frame,
///   Lambda - Lambda_bar = sum_k (w^k - w_bar^k) t_bar^k (x) t_bar^k,
///   E = k_b A_bar [(1 - nu) Tr((Lambda - Lambda_bar)^2) + nu Tr(Lambda - Lambda_bar)^2] = k_b
///   A_bar dw^T G dw,
/// with n_hat the unit normal of the triangle, s^k the ownership sign, c^k, w_bar^k and the metric
/// G from the rest triangle (MidEdgeTriangle). beta^k is the signed dihedral angle
/// (geometry/dihedral_angle.hpp) from the triangle to the half-plane that leaves its edge along
/// -s^k tau^k, the accepted frame of the edge (held within a step, carried to the edge of the
/// configuration by projection; sin(beta^k) = n_hat . (s^k tau^k) when tau^k is normal to the
/// edge). Turning the frame about the edge shifts beta^k of both triangles of the edge by the same
/// s^k-signed angle, which xi^k absorbs: the equilibrium positions do not depend on the frames, so
/// one static solve is the frame-consistent equilibrium. The gradient and Hessian are exact.
/// Stencil DOFs: (x_0, x_1, x_2, xi^0, xi^1, xi^2), 12 entries.

#include <array>
#include <string_view>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// What one triangle's mid-edge energy reads from q and the accepted frames.
struct MidEdgeStencil {
  std::array<Vec3, 3> x;    ///< node positions [m]
  Vec3 xi;                  ///< xi^k of edge k [rad]
  std::array<Vec3, 3> tau;  ///< accepted frame of edge k along its shell-edge direction (unit)
};

/// beta [rad], the signed angle from triangle (x_a, x_b, x_k) to the half-plane that leaves its
/// edge x_a -> x_b along -tau (tau the frame as the triangle sees it, s^k tau^k), and when
/// requested its exact derivatives with respect to (x_a, x_b, x_k).
double midedge_frame_angle(const Vec3& x_a, const Vec3& x_b, const Vec3& x_k, const Vec3& tau,
                           VecN<9>* gradient, MatN<9>* hessian);

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
