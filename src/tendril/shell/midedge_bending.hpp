#pragma once
/// Mid-edge normal bending energy of shells (mat_dismech 3.3.2, eqs. 19-20 and Appendix A; Grinspun
/// et al. 2006; docs/physics/shells.md#mid-edge-bending). Per triangle with nodes (x_0, x_1, x_2),
/// edge k opposite node k carrying the mid-edge DOF xi^k:
///   w^k = c^k (s^k xi^k - f^k),  f^k = n_hat . (s^k tau^k),
///   Lambda - Lambda_bar = sum_k (w^k - w_bar^k) t_bar^k (x) t_bar^k,
///   E = k_b A_bar [(1 - nu) Tr((Lambda - Lambda_bar)^2) + nu Tr(Lambda - Lambda_bar)^2] = k_b
///   A_bar dw^T G dw,
/// with n_hat the unit normal of the triangle, tau^k the edge frame, s^k the ownership sign, c^k,
/// w_bar^k and the metric G from the rest triangle (MidEdgeTriangle). The edge frame is the one of
/// the current configuration, tau^k = n_avg x e_hat (n_avg the bisector of the unit normals of the
/// edge's triangles), so that E is a function of q alone: f^k = sin(phi^k / 2) across an edge with
/// the signed dihedral angle phi^k to the neighbour (geometry/dihedral_angle.hpp), f^k = 0 on a
/// boundary edge. An edge whose xi is fixed (a clamped edge) keeps the frame it had at t = 0 (held,
/// State frames). The gradient and Hessian are exact. Stencil DOFs: (x_0, x_1, x_2, p^0, p^1, p^2,
/// xi^0, xi^1, xi^2), 21 entries, p^k the neighbour's node across edge k.

#include <array>
#include <cstdint>
#include <string_view>

#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// How the frame tau^k of edge k is measured.
enum class EdgeFrame : std::uint8_t {
  held,      ///< the given frame (MidEdgeStencil::tau), fixed within the evaluation
  across,    ///< the bisector frame of the triangle and its neighbour: f^k = sin(phi^k / 2)
  boundary,  ///< n_hat x e_hat of the triangle alone: f^k = 0
};

/// What one triangle's mid-edge energy reads from q and the accepted frames.
struct MidEdgeStencil {
  std::array<Vec3, 3> x;  ///< node positions [m]
  std::array<Vec3, 3>
      opposite;             ///< p^k, the neighbour's node across edge k (EdgeFrame::across) [m]
  Vec3 xi;                  ///< xi^k of edge k [-]
  std::array<Vec3, 3> tau;  ///< held frame of edge k along its shell-edge direction (unit)
  std::array<EdgeFrame, 3> frame{EdgeFrame::held, EdgeFrame::held, EdgeFrame::held};
};

/// E [J], and when requested dE/dq and d2E/dq2 (symmetric) of one triangle; the entries of p^k of
/// an edge that is not EdgeFrame::across are zero.
double midedge_bending_derivatives(const MidEdgeStencil& s, const MidEdgeTriangle& triangle,
                                   VecN<21>* gradient, MatN<21>* hessian);

/// Sum of the mid-edge bending energies of Model::shells.midedge_triangles.
class MidEdgeBendingEnergy final : public Energy {
 public:
  std::string_view name() const override { return "midedge_bending"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
};

}  // namespace tendril
