#include "tendril/rod/bend_twist.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "tendril/core/error.hpp"
#include "tendril/core/lane_pack.hpp"
#include "tendril/geometry/curvature_binormal.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril {
namespace {

// Derivatives are first taken in z = (e_a, e_b, theta_a, theta_b) (8 entries), then mapped to the
// stencil DOFs (x_{k-1}, x_k, x_{k+1}, theta_a, theta_b) with e_a = x_k - x_{k-1}, e_b = x_{k+1} -
// x_k. The kernel evaluates four springs at once, one per lane of a LanePack (core/lane_pack.hpp):
// every spring, also a single one (bend_twist_stencil), goes through the same instructions, so its
// values do not depend on which springs share its pack (the threads' parts,
// docs/physics/time_integration.md).
using P = LanePack;
constexpr int kLanes = LanePack::kLanes;
using PVec3 = Eigen::Matrix<P, 3, 1>;
using PMat3 = Eigen::Matrix<P, 3, 3>;
template <int N>
using PVec = Eigen::Matrix<P, N, 1>;
template <int N>
using PMat = Eigen::Matrix<P, N, N>;

/// m += [v]x (off-diagonal entries only; the cross-product matrix has a zero diagonal).
void add_cross_matrix(const PVec3& v, PMat3& m) {
  m(0, 1) -= v.z();
  m(0, 2) += v.y();
  m(1, 0) += v.z();
  m(1, 2) -= v.x();
  m(2, 0) -= v.y();
  m(2, 1) += v.x();
}

/// a b^T written out, and m^T v below: Eigen's products of matrices of a custom scalar call a
/// function per coefficient (measured: the G K G^T product alone was 3 % of the flagellated robot's
/// time).
template <int R, int C, int K>
Eigen::Matrix<P, R, C> times_transposed(const Eigen::Matrix<P, R, K>& a,
                                        const Eigen::Matrix<P, C, K>& b) {
  Eigen::Matrix<P, R, C> out;
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i) {
      P sum = a(i, 0) * b(j, 0);
      for (int k = 1; k < K; ++k) sum += a(i, k) * b(j, k);
      out(i, j) = sum;
    }
  return out;
}

PVec3 transposed_times(const PMat3& m, const PVec3& v) {
  PVec3 out;
  for (int j = 0; j < 3; ++j) out[j] = m(0, j) * v[0] + m(1, j) * v[1] + m(2, j) * v[2];
  return out;
}

/// Geometry of the two oriented edges shared by all derivative pieces.
struct EdgePair {
  PVec3 t_a, t_b;  // unit tangents
  P len_a, len_b;  // |e_a|, |e_b| [m]
  P chi;           // 1 + t_a . t_b
  PVec3 kb;        // curvature binormal (kappa b)
  PVec3 t_sum;     // t_a + t_b
  P s_a, s_b;      // 1 / (chi |e_a|), 1 / (chi |e_b|) [1/m]

  EdgePair(const PVec3& e_a, const PVec3& e_b) : len_a(e_a.norm()), len_b(e_b.norm()) {
    t_a = e_a / len_a;
    t_b = e_b / len_b;
    chi = 1.0 + t_a.dot(t_b);
    kb = curvature_binormal(t_a, t_b);
    t_sum = t_a + t_b;
    s_a = 1.0 / (chi * len_a);
    s_b = 1.0 / (chi * len_b);
  }
};

/// Jacobians of (kappa b) with respect to e_a and e_b:
///   d(kappa b)/de_a = -(2 [t_b]x + (kappa b)(t_a + t_b)^T) / (chi |e_a|),
///   d(kappa b)/de_b = (2 [t_a]x - (kappa b)(t_a + t_b)^T) / (chi |e_b|).
void binormal_jacobians(const EdgePair& p, PMat3& jac_a, PMat3& jac_b) {
  PMat3 outer;
  outer.noalias() = p.kb * p.t_sum.transpose();
  jac_a = -p.s_a * outer;
  add_cross_matrix((-2.0 * p.s_a) * p.t_b, jac_a);
  jac_b = -p.s_b * outer;
  add_cross_matrix((2.0 * p.s_b) * p.t_a, jac_b);
}

/// J_a^T v and J_b^T v for the Jacobians above without forming them, given kb_v = (kappa b) . v:
///   J_a^T v = -((kappa b) . v (t_a + t_b) + 2 v x t_b) / (chi |e_a|),
///   J_b^T v = (2 v x t_a - (kappa b) . v (t_a + t_b)) / (chi |e_b|).
PVec3 binormal_jacobian_a_transposed(const EdgePair& p, const PVec3& v, P kb_v) {
  return -p.s_a * (kb_v * p.t_sum + 2.0 * v.cross(p.t_b));
}
PVec3 binormal_jacobian_b_transposed(const EdgePair& p, const PVec3& v, P kb_v) {
  return p.s_b * (2.0 * v.cross(p.t_a) - kb_v * p.t_sum);
}

/// Adds to the (e_a, e_b) block of h the Hessian of f = v . (kappa b) at fixed v (symmetric; the
/// upper blocks aa, ab and bb only: bend_twist_stencil forms the upper blocks of its Hessian over
/// z). With g = df/dt (tangents taken as free vectors) and G = dg/dt: d(P g / |e|)/de = [P G P -
/// (t.g) P - t (P g)^T
/// - (P g) t^T] / |e|^2, P = I - t t^T. Written with rank-one terms: P_a M P_b = M - t_a (M^T
/// t_a)^T
/// - (M t_b) t_b^T + (t_a . M t_b) t_a t_b^T.
void add_binormal_hessian(const EdgePair& p, const PVec3& v, PMat<8>& h) {
  const P f = v.dot(p.kb);
  const PVec3 g_a = (2.0 * p.t_b.cross(v) - f * p.t_b) / p.chi;
  const PVec3 g_b = (2.0 * v.cross(p.t_a) - f * p.t_a) / p.chi;
  const P tg_a = p.t_a.dot(g_a), tg_b = p.t_b.dot(g_b), cos = p.chi - 1.0;
  const PVec3 pg_a = g_a - tg_a * p.t_a, pg_b = g_b - tg_b * p.t_b;
  const PVec3 pt_b = p.t_b - cos * p.t_a,
              pt_a = p.t_a - cos * p.t_b;  // t_b seen from edge a and vice versa
  // G_aa = -(t_b g_a^T + g_a t_b^T) / chi, G_bb alike:
  // block aa = -(pg_a q_a^T + q_a pg_a^T + (t_a . g_a) P_a) / |e_a|^2 with q_a = P_a t_b / chi +
  // t_a inlined: the scalar stencil was 5 % faster (bench_rod_terms BM_BendTwistStencil; not
  // inlined by GCC 12 at -O2); not measured again with the four-lane kernel
  const auto add_diagonal_block = [](auto block, const PVec3& t, const PVec3& pg, const PVec3& q,
                                     P tg, P len) __attribute__((always_inline)) {
    const P s = -1.0 / (len * len);
    block.noalias() +=
        (s * pg) * q.transpose() + (s * q) * pg.transpose() - (s * tg) * t * t.transpose();
    block.diagonal().array() += s * tg;
  };
  add_diagonal_block(h.block<3, 3>(0, 0), p.t_a, pg_a, pt_b / p.chi + p.t_a, tg_a, p.len_a);
  add_diagonal_block(h.block<3, 3>(3, 3), p.t_b, pg_b, pt_a / p.chi + p.t_b, tg_b, p.len_b);
  // G_ab = (M - t_b g_b^T - g_a t_a^T) / chi with M = -2 [v]x - f I: block ab = (P_a M P_b - P_a
  // t_b (P_b g_b)^T
  // - (P_a g_a) (P_b t_a)^T) / (chi |e_a| |e_b|)
  const PVec3 m_tb = -2.0 * v.cross(p.t_b) - f * p.t_b;  // M t_b
  const PVec3 mt_ta = 2.0 * v.cross(p.t_a) - f * p.t_a;  // M^T t_a
  const P c = p.t_a.dot(m_tb);
  Eigen::Matrix<P, 3, 4> left, right;
  left << p.t_a, -m_tb, -pt_b, -pg_a;
  right << c * p.t_b - mt_ta, p.t_b, pg_b, pt_a;
  const P s = 1.0 / (p.chi * p.len_a * p.len_b);
  PMat3 ab;
  ab = times_transposed<3, 3, 4>(s * left, right);
  add_cross_matrix((-2.0 * s) * v, ab);
  ab.diagonal().array() -= s * f;
  h.block<3, 3>(0, 3) += ab;
}

/// d h / d e of the transport rotation gradient h = (t x t_acc) / (|e| (1 + t_acc . t)), written
/// with h itself (t_acc = c t + (1 + c) |e| h x t, c / (1 + c) = (1 - eta) / 2, eta = |e|^2 |h|^2,
/// and [t x h]x (I - t t^T) = [t x h]x - h t^T since h is normal to t):
///   Dh = -(1 - eta) / (2 |e|^2) [t]x + ([t x h]x - 2 h t^T) / |e| + h (t x h)^T.
/// Inlined: the scalar stencil was 2-3 % faster (bench_rod_terms); inlining add_binormal_hessian or
/// hessian_to_stencil made it 7-20 % slower (not measured again with the four-lane kernel).
[[gnu::always_inline]] inline PMat3 rotation_gradient_jacobian(const PVec3& t, P len,
                                                               const PVec3& h) {
  const P eta = len * len * h.squaredNorm();
  const PVec3 txh = t.cross(h);
  PMat3 dh;
  dh.noalias() = h * (txh - (2.0 / len) * t).transpose();
  add_cross_matrix(-(1.0 - eta) / (2.0 * len * len) * t + txh / len, dh);
  return dh;
}

/// h += -(r p^T + p r^T) + c p p^T for the gradient p of an edge's frame angle over z, which is
/// sparse: the transport rotation gradient g at rows [offset, offset + 3), the twist sign (+-1) at
/// row `angle`, 0 elsewhere; r = (r_e, 0, 0) is zero on the twists. The upper blocks only (as
/// above): edge a (offset 0) touches rows 0-2 of the positions, edge b (offset 3) columns 3-5.
void add_frame_angle_coupling(PMat<8>& h, const PVec<6>& r_e, const PVec3& g, int offset, int angle,
                              P sign, P c) {
  auto positions = h.topLeftCorner<6, 6>();
  if (offset == 0) {
    positions.topLeftCorner<3, 3>().noalias() -= r_e.head<3>() * g.transpose();
    positions.topRows<3>().noalias() -= g * r_e.transpose();
  } else {
    positions.rightCols<3>().noalias() -= r_e * g.transpose();
    positions.bottomRightCorner<3, 3>().noalias() -= g * r_e.tail<3>().transpose();
  }
  positions.block<3, 3>(offset, offset).noalias() += (c * g) * g.transpose();
  h.col(angle).head<6>() -= sign * r_e;
  h.block<3, 1>(offset, angle) += (sign * c) * g;
  h(angle, angle) += c;
}

/// Maps a gradient over z to the stencil DOFs.
PVec<11> gradient_to_stencil(const PVec<8>& g) {
  PVec<11> out;
  out << -g.segment<3>(0), g.segment<3>(0) - g.segment<3>(3), g.segment<3>(3), g[6], g[7];
  return out;
}

/// out = D^T H D with D = dz / d(stencil DOFs), blockwise: x_{k-1} = -e_a, x_k = e_a - e_b, x_{k+1}
/// = e_b. Reads the upper blocks of the symmetric h only.
void hessian_to_stencil(const PMat<8>& h, PMat<11>& out) {
  const auto aa = h.block<3, 3>(0, 0), ab = h.block<3, 3>(0, 3), bb = h.block<3, 3>(3, 3);
  const auto ta = h.block<3, 2>(0, 6), tb = h.block<3, 2>(3, 6);
  out.block<3, 3>(0, 0) = aa;
  out.block<3, 3>(0, 3) = ab - aa;
  out.block<3, 3>(0, 6) = -ab;
  out.block<3, 3>(3, 3) = aa - ab - ab.transpose() + bb;
  out.block<3, 3>(3, 6) = ab - bb;
  out.block<3, 3>(6, 6) = bb;
  out.block<3, 2>(0, 9) = -ta;
  out.block<3, 2>(3, 9) = ta - tb;
  out.block<3, 2>(6, 9) = tb;
  out.block<2, 2>(9, 9) = h.block<2, 2>(6, 6);
  out.block<3, 3>(3, 0) = out.block<3, 3>(0, 3).transpose();
  out.block<3, 3>(6, 0) = out.block<3, 3>(0, 6).transpose();
  out.block<3, 3>(6, 3) = out.block<3, 3>(3, 6).transpose();
  out.block<2, 9>(9, 0) = out.block<9, 2>(0, 9).transpose();
}

/// Four springs' oriented stencils (BendTwistStencil) and constants (BendTwistSpring), one per
/// lane.
struct PackedStencil {
  PVec3 edge_a, edge_b, director_1_a, director_2_a, director_1_b, director_2_b, rotation_gradient_a,
      rotation_gradient_b;
  P twist_a, twist_b, reference_twist, twist_sign_a, twist_sign_b;
  P voronoi_length, bend_stiffness_1, bend_stiffness_2, twist_stiffness, natural_curvature_1,
      natural_curvature_2, natural_twist;
};

/// Energies [J] of the four springs and, when asked, their gradients and Hessians over the stencil
/// DOFs (bend_twist_stencil, lane by lane).
P packed_stencil_values(const PackedStencil& s, PVec<11>* gradient, PMat<11>* hessian) {
  const EdgePair p(s.edge_a, s.edge_b);
  const P voronoi = s.voronoi_length;
  const P k1 = s.bend_stiffness_1 / voronoi;
  const P k2 = s.bend_stiffness_2 / voronoi;
  const P k3 = s.twist_stiffness / voronoi;

  // strains: beta = (kappa b) . m1, gamma = (kappa b) . m2 per edge
  const P beta_a = p.kb.dot(s.director_1_a), beta_b = p.kb.dot(s.director_1_b);
  const P gamma_a = p.kb.dot(s.director_2_a), gamma_b = p.kb.dot(s.director_2_b);
  const P d1 = 0.5 * (gamma_a + gamma_b) - s.natural_curvature_1;
  const P d2 = -0.5 * (beta_a + beta_b) - s.natural_curvature_2;
  const P dm = s.twist_b - s.twist_a + s.reference_twist - s.natural_twist;  // spring_twist
  const P energy = 0.5 * (k1 * d1 * d1 + k2 * d2 * d2 + k3 * dm * dm);
  if (!gradient && !hessian) return energy;

  // gradients over z of (kappa b) . v, (J_a^T v, J_b^T v, 0, 0), for v = m2_a + m2_b and m1_a +
  // m1_b, without forming J_a and J_b (the same operations with and without the Hessian: the
  // residual at a point does not depend on whether the Jacobian is asked)
  const PVec3 sum_2 = s.director_2_a + s.director_2_b, sum_1 = s.director_1_a + s.director_1_b;

  // frame angles phi = theta + (transport rotation): d phi = d theta + h . d e, d theta = sign
  // d(twist DOF); their gradients over z are p_a = (h_a, 0, sign_a, 0) and p_b = (0, h_b, 0,
  // sign_b). first derivatives: d kappa_1 = 1/2 (m2_a + m2_b) . d(kappa b) - 1/2 beta_a dphi_a -
  // 1/2 beta_b dphi_b, d kappa_2 = -1/2 (m1_a + m1_b) . d(kappa b) - 1/2 gamma_a dphi_a - 1/2
  // gamma_b dphi_b, d m = dphi_b - dphi_a + 1/2 (kappa b) . (de_a / |e_a| + de_b / |e_b|)
  const PVec3& h_a = s.rotation_gradient_a;
  const PVec3& h_b = s.rotation_gradient_b;
  const P sign_a = s.twist_sign_a, sign_b = s.twist_sign_b;
  Eigen::Matrix<P, 8, 3> grads;  // columns: grad kappa_1, grad kappa_2, grad m
  grads.block<3, 1>(0, 0) =
      0.5 * (binormal_jacobian_a_transposed(p, sum_2, gamma_a + gamma_b) - beta_a * h_a);
  grads.block<3, 1>(3, 0) =
      0.5 * (binormal_jacobian_b_transposed(p, sum_2, gamma_a + gamma_b) - beta_b * h_b);
  grads.block<3, 1>(0, 1) =
      -0.5 * (binormal_jacobian_a_transposed(p, sum_1, beta_a + beta_b) + gamma_a * h_a);
  grads.block<3, 1>(3, 1) =
      -0.5 * (binormal_jacobian_b_transposed(p, sum_1, beta_a + beta_b) + gamma_b * h_b);
  grads.block<3, 1>(0, 2) = p.kb / (2.0 * p.len_a) - h_a;
  grads.block<3, 1>(3, 2) = p.kb / (2.0 * p.len_b) + h_b;
  grads.block<2, 3>(6, 0) << -0.5 * beta_a * sign_a, -0.5 * gamma_a * sign_a, -sign_a,  //
      -0.5 * beta_b * sign_b, -0.5 * gamma_b * sign_b, sign_b;
  const P c1 = k1 * d1, c2 = k2 * d2, c3 = k3 * dm;

  if (gradient) *gradient = gradient_to_stencil(grads * PVec3(c1, c2, c3));
  if (!hessian) return energy;

  PMat3 jac_a, jac_b;
  binormal_jacobians(p, jac_a, jac_b);

  // The symmetric Hessian over z is formed in its upper blocks only (the position blocks aa, ab, bb
  // and the twist columns): the lower ones are never written nor read (hessian_to_stencil mirrors).
  // sum_i k_i grad s_i grad s_i^T over the strains s = (kappa_1, kappa_2, m), as one product G K
  // G^T
  const Eigen::Matrix<P, 8, 3> scaled_grads = grads * PVec3(k1, k2, k3).asDiagonal();
  PMat<8> h;
  for (int j = 0; j < 8;
       ++j)  // the upper blocks: rows < 3, 6 or 8 of the columns of e_a, e_b and the twists
    for (int i = 0; i < (j < 3 ? 3 : j < 6 ? 6 : 8); ++i)
      h(i, j) = scaled_grads(i, 0) * grads(j, 0) + scaled_grads(i, 1) * grads(j, 1) +
                scaled_grads(i, 2) * grads(j, 2);
  // c1 d2kappa_1 + c2 d2kappa_2 through (kappa b) at fixed directors (linear in the director sum)
  add_binormal_hessian(p, 0.5 * c1 * sum_2 - 0.5 * c2 * sum_1, h);
  // directors turning with the tangents (dm1 = -(m1.dt) t + dphi m2, dm2 = -(m2.dt) t - dphi m1),
  // the transport rotations (Dh), and c3 d2m through (kappa b) / (2 |e|)
  const PMat3 dh_a = rotation_gradient_jacobian(p.t_a, p.len_a, s.rotation_gradient_a);
  const PMat3 dh_b = rotation_gradient_jacobian(p.t_b, p.len_b, s.rotation_gradient_b);
  const PVec3 row_a =
      0.5 * (c1 * s.director_2_a - c2 * s.director_1_a - c3 * p.t_a) / (p.len_a * p.len_a);
  const PVec3 row_b =
      0.5 * (c1 * s.director_2_b - c2 * s.director_1_b - c3 * p.t_b) / (p.len_b * p.len_b);
  h.block<3, 3>(0, 0) += p.kb * row_a.transpose() -
                         (0.5 * (c1 * beta_a + c2 * gamma_a) + c3) * dh_a +
                         (0.5 * c3 / p.len_a) * jac_a;
  h.block<3, 3>(3, 3) += p.kb * row_b.transpose() -
                         (0.5 * (c1 * beta_b + c2 * gamma_b) - c3) * dh_b +
                         (0.5 * c3 / p.len_b) * jac_b;
  h.block<3, 3>(0, 3) += (0.5 * c3 / p.len_a) * jac_b;
  // frame-angle couplings of the director terms, through the gradients of (kappa b) . (c1 m1 + c2
  // m2) of each edge, r_e = (J_a^T v, J_b^T v) / 2
  const PVec3 coupled_a = 0.5 * (c1 * s.director_1_a + c2 * s.director_2_a);
  const PVec3 coupled_b = 0.5 * (c1 * s.director_1_b + c2 * s.director_2_b);
  PVec<6> r;
  r.head<3>() = transposed_times(jac_a, coupled_a);
  r.tail<3>() = transposed_times(jac_b, coupled_a);
  add_frame_angle_coupling(h, r, h_a, 0, 6, sign_a, 0.5 * (c2 * beta_a - c1 * gamma_a));
  r.head<3>() = transposed_times(jac_a, coupled_b);
  r.tail<3>() = transposed_times(jac_b, coupled_b);
  add_frame_angle_coupling(h, r, h_b, 3, 7, sign_b, 0.5 * (c2 * beta_b - c1 * gamma_b));
  hessian_to_stencil(h, *hessian);
  return energy;
}

/// The per-spring inputs of packed_stencil_values in PackedStencil's order: 8 vectors, then 12
/// scalars (a multiple of the lanes: transposed four at a time).
constexpr int kStencilFields = 8 * 3 + 12;
static_assert(kStencilFields % kLanes == 0);
/// BendTwistStencil is those 8 vectors and 5 scalars, contiguous and in that order: copied at once.
constexpr int kStencilDoubles = 8 * 3 + 5;
static_assert(std::is_standard_layout_v<BendTwistStencil> &&
              sizeof(BendTwistStencil) == kStencilDoubles * sizeof(double) &&
              offsetof(BendTwistStencil, twist_a) == 24 * sizeof(double) &&
              offsetof(BendTwistStencil, twist_sign_b) == 28 * sizeof(double));
void stencil_fields(const BendTwistStencil& s, const BendTwistSpring& spring, double* out) {
  std::memcpy(out, &s, sizeof(BendTwistStencil));
  out += kStencilDoubles;
  for (double x : {spring.voronoi_length, spring.bend_stiffness_1, spring.bend_stiffness_2,
                   spring.twist_stiffness, spring.natural_curvature[0], spring.natural_curvature[1],
                   spring.natural_twist})
    *out++ = x;
}

/// The packed inputs of `count` (1 to 4) springs, stencils[l] and *springs[l] in lane l (the last
/// one repeated in the unused lanes).
PackedStencil pack_stencils(int count, const BendTwistStencil* stencils,
                            const BendTwistSpring* const* springs) {
  // lane-major inputs, transposed four fields at a time into packs
  alignas(32) double fields[kLanes][kStencilFields];
  for (int l = 0; l < kLanes; ++l) {
    const int from = l < count ? l : count - 1;
    stencil_fields(stencils[from], *springs[from], fields[l]);
  }
  std::array<P, kStencilFields> columns;
  for (int f = 0; f < kStencilFields; f += kLanes) {
    const P rows[kLanes] = {P::load(fields[0] + f), P::load(fields[1] + f), P::load(fields[2] + f),
                            P::load(fields[3] + f)};
    transpose_lanes(rows, columns.data() + f);
  }
  PackedStencil packed;
  PVec3* vectors[] = {&packed.edge_a,
                      &packed.edge_b,
                      &packed.director_1_a,
                      &packed.director_2_a,
                      &packed.director_1_b,
                      &packed.director_2_b,
                      &packed.rotation_gradient_a,
                      &packed.rotation_gradient_b};
  int f = 0;
  for (PVec3* v : vectors)
    for (int i = 0; i < 3; ++i) (*v)[i] = columns[f++];
  for (P* x : {&packed.twist_a, &packed.twist_b, &packed.reference_twist, &packed.twist_sign_a,
               &packed.twist_sign_b, &packed.voronoi_length, &packed.bend_stiffness_1,
               &packed.bend_stiffness_2, &packed.twist_stiffness, &packed.natural_curvature_1,
               &packed.natural_curvature_2, &packed.natural_twist})
    *x = columns[f++];
  return packed;
}

/// Values of the `count` (1 to 4) springs of `packed`: energies[l] [J], gradients[l] when that
/// array is given, and the four Hessians still packed (lane l is spring l's) when `hessian` is.
void packed_values(int count, const PackedStencil& packed, double* energies, VecN<11>* gradients,
                   PMat<11>* hessian) {
  PVec<11> g;
  alignas(32) double energy_lanes[kLanes];
  packed_stencil_values(packed, gradients ? &g : nullptr, hessian).store(energy_lanes);
  for (int l = 0; l < count; ++l) energies[l] = energy_lanes[l];
  if (!gradients) return;
  VecN<11> scratch;  // unused lanes are written to scratch space
  double* out[kLanes];
  for (int l = 0; l < kLanes; ++l) out[l] = l < count ? gradients[l].data() : scratch.data();
  unpack_lanes(g.data(), 11, out);
}

/// The `count` Hessians of `packed` (lane l to hessians[l]).
void unpack_hessians(int count, const PMat<11>& packed, MatN<11>* hessians) {
  MatN<11> scratch;
  double* out[kLanes];
  for (int l = 0; l < kLanes; ++l) out[l] = l < count ? hessians[l].data() : scratch.data();
  unpack_lanes(packed.data(), 11 * 11, out);
}

/// Values of `count` (1 to 4) springs (pack_stencils): energies[l] [J], and gradients[l] and
/// hessians[l] when those arrays are given.
void stencil_values(int count, const PackedStencil& packed, double* energies, VecN<11>* gradients,
                    MatN<11>* hessians) {
  PMat<11> h;
  packed_values(count, packed, energies, gradients, hessians ? &h : nullptr);
  if (hessians) unpack_hessians(count, h, hessians);
}

}  // namespace

Vec2 material_curvature(const BendTwistStencil& s) {
  const Vec3 kb = curvature_binormal(s.edge_a.normalized(), s.edge_b.normalized());
  return {0.5 * kb.dot(s.director_2_a + s.director_2_b),
          -0.5 * kb.dot(s.director_1_a + s.director_1_b)};
}

double spring_twist(const BendTwistStencil& s) {
  return s.twist_b - s.twist_a + s.reference_twist;
}

double bend_twist_stencil(const BendTwistStencil& s, const BendTwistSpring& spring,
                          VecN<11>* gradient, MatN<11>* hessian) {
  const BendTwistSpring* springs[1] = {&spring};
  double energy = 0.0;
  stencil_values(1, pack_stencils(1, &s, springs), &energy, gradient, hessian);
  return energy;
}

BendTwistStencil oriented_stencil(const Model& model, const Kinematics& kin, const VecX& q,
                                  std::size_t k) {
  const BendTwistSpring& spring = framed_spring(model, k);
  const auto a = static_cast<std::size_t>(spring.edge_a);
  const auto b = static_cast<std::size_t>(spring.edge_b);
  // an edge pointing the other way is seen with t, m2 (and a2) and theta negated; m1 and a1 are
  // kept; director_sign_a = -1 turns edge_a's directors by pi about its tangent
  BendTwistStencil s;
  s.edge_a = spring.sign_a * kin.edge[a];
  s.edge_b = spring.sign_b * kin.edge[b];
  s.director_1_a = spring.director_sign_a * kin.material_director_1[a];
  s.director_2_a = (spring.director_sign_a * spring.sign_a) * kin.material_director_2[a];
  s.director_1_b = kin.material_director_1[b];
  s.director_2_b = spring.sign_b * kin.material_director_2[b];
  s.rotation_gradient_a = kin.transport_rotation_gradient[a];
  s.rotation_gradient_b = kin.transport_rotation_gradient[b];
  s.twist_a = spring.sign_a * q[framed_edge_twist(model, spring.edge_a)];
  s.twist_b = spring.sign_b * q[framed_edge_twist(model, spring.edge_b)];
  s.reference_twist = kin.reference_twist[k];
  s.twist_sign_a = spring.sign_a;
  s.twist_sign_b = spring.sign_b;
  return s;
}

namespace {

/// Stencil DOFs (x_{k-1}, x_k, x_{k+1}, theta_a, theta_b) of a spring.
std::array<int, 11> spring_dofs(const Model& model, const BendTwistSpring& spring) {
  const auto& ea = framed_edge_nodes(model, spring.edge_a);
  const auto& eb = framed_edge_nodes(model, spring.edge_b);
  const int before = spring.sign_a > 0 ? ea[0] : ea[1];
  const int after = spring.sign_b > 0 ? eb[1] : eb[0];
  const DofMap& d = model.dofs;
  const int x0 = d.node(before), x1 = d.node(spring.node), x2 = d.node(after);
  return {x0,
          x0 + 1,
          x0 + 2,
          x1,
          x1 + 1,
          x1 + 2,
          x2,
          x2 + 1,
          x2 + 2,
          framed_edge_twist(model, spring.edge_a),
          framed_edge_twist(model, spring.edge_b)};
}

}  // namespace

void declare_bend_twist_sparsity(const Model& model, std::size_t first, std::size_t last,
                                 SparsityBuilder& pattern) {
  for (std::size_t k = first; k < last; ++k)
    pattern.add_stencil(spring_dofs(model, framed_spring(model, k)));
}

namespace {

/// The packed stencils of the `count` (1 to 4) framed springs from k on.
PackedStencil packed_springs(const EvalInput& in, std::size_t k, int count) {
  std::array<BendTwistStencil, kLanes> stencils;
  std::array<const BendTwistSpring*, kLanes> springs{};
  for (int l = 0; l < count; ++l) {
    stencils[l] = oriented_stencil(in.model, in.kin, in.q, k + l);
    springs[l] = &framed_spring(in.model, k + l);
  }
  return pack_stencils(count, stencils.data(), springs.data());
}

/// Lanes of a pass over springs [i, end).
int lanes_from(std::size_t i, std::size_t end) {
  return static_cast<int>(std::min<std::size_t>(kLanes, end - i));
}

}  // namespace

void prepare_bend_twist(std::size_t first, std::size_t begin, std::size_t end, const EvalInput& in,
                        const EnergyOutput& out, BendTwistValues& values) {
  const bool derivatives = out.gradient || out.hessian;
  for (std::size_t i = begin; i < end; i += kLanes)
    stencil_values(lanes_from(i, end), packed_springs(in, first + i, lanes_from(i, end)),
                   &values.value[i], derivatives ? &values.vector[i] : nullptr,
                   out.hessian ? &values.matrix[i] : nullptr);
}

void accumulate_bend_twist(const Energy* owner, std::size_t first, std::size_t last,
                           const EvalInput& in, EnergyOutput& out,
                           const BendTwistValues* prepared) {
  const bool derivatives = out.gradient || out.hessian;
  std::array<double, kLanes> e_local;
  std::array<VecN<11>, kLanes> g_local;
  PMat<11> h_packed;  // the Hessians of a pass stay packed: each lane is added with stride kLanes
  static_assert(sizeof(P) == kLanes * sizeof(double));
  for (std::size_t k = first; k < last; ++k) {
    const std::size_t i = k - first;
    const std::size_t lane = i % kLanes;
    const VecN<11>* g = &g_local[lane];
    const double* h = reinterpret_cast<const double*>(h_packed.data()) + lane;
    std::size_t h_stride = kLanes;
    if (prepared) {
      out.energy += prepared->value[i];
      g = &prepared->vector[i];
      h = prepared->matrix[i].data();
      h_stride = 1;
    } else {
      // the next pass of the kernel at the first spring of its lanes
      if (lane == 0)
        packed_values(lanes_from(k, last), packed_springs(in, k, lanes_from(k, last)),
                      e_local.data(), derivatives ? g_local.data() : nullptr,
                      out.hessian ? &h_packed : nullptr);
      out.energy += e_local[lane];
    }
    if (!derivatives) continue;
    const std::array<int, 11> dofs = spring_dofs(in.model, framed_spring(in.model, k));
    if (out.gradient)
      for (int j = 0; j < 11; ++j) (*out.gradient)[dofs[static_cast<std::size_t>(j)]] += (*g)[j];
    if (out.hessian) out.hessian->add_cached_symmetric(owner, i, dofs, h, h_stride);
  }
}

void BendTwistEnergy::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  declare_bend_twist_sparsity(model, 0, model.rods.springs.size(), pattern);
}

void BendTwistEnergy::accumulate(const EvalInput& in, EnergyOutput& out) const {
  TENDRIL_ASSERT(!in.prepared || in.workspace, "prepared values need the term's workspace");
  accumulate_bend_twist(this, 0, in.model.rods.springs.size(), in, out,
                        in.prepared ? static_cast<const BendTwistValues*>(in.workspace) : nullptr);
}

std::size_t BendTwistEnergy::element_count(const Model& model) const {
  return model.rods.springs.size();
}

std::unique_ptr<TermWorkspace> BendTwistEnergy::make_workspace(const Model& model) const {
  return std::make_unique<BendTwistValues>(model.rods.springs.size());
}

void BendTwistEnergy::prepare(const EvalInput& in, std::size_t first, std::size_t last,
                              const EnergyOutput& out) const {
  prepare_bend_twist(0, first, last, in, out, static_cast<BendTwistValues&>(*in.workspace));
}

std::size_t BendTwistEnergy::rest_state_size(const Model& model) const {
  return 3 * model.rods.springs.size();
}

void BendTwistEnergy::get_rest_state(const Model& model, std::span<double> values) const {
  for (std::size_t k = 0; k < model.rods.springs.size(); ++k) {
    const BendTwistSpring& spring = model.rods.springs[k];
    values[3 * k] = spring.natural_curvature[0];
    values[3 * k + 1] = spring.natural_curvature[1];
    values[3 * k + 2] = spring.natural_twist;
  }
}

void BendTwistEnergy::set_rest_state(std::span<const double> values, Model& model) const {
  for (std::size_t k = 0; k < model.rods.springs.size(); ++k) {
    BendTwistSpring& spring = model.rods.springs[k];
    spring.natural_curvature = Vec2(values[3 * k], values[3 * k + 1]);
    spring.natural_twist = values[3 * k + 2];
  }
}

void BendTwistEnergy::stress_free_rest_state(const Model& model, const Kinematics& kin,
                                             const VecX& q, std::span<double> values) const {
  for (std::size_t k = 0; k < model.rods.springs.size(); ++k) {
    const BendTwistStencil stencil = oriented_stencil(model, kin, q, k);
    const Vec2 curvature = material_curvature(stencil);
    values[3 * k] = curvature[0];
    values[3 * k + 1] = curvature[1];
    values[3 * k + 2] = spring_twist(stencil);
  }
}

}  // namespace tendril
