#pragma once
/// The linearised joint and growth rows of the 3D vine's step QP (vine paper eq. 2, 3, 6, 12, 14
/// in 3D; docs/physics/vine3d.md#joints).
///
/// Every row couples at most two bodies, a (proximal, or the base frame) and b (distal), and is
/// written as  a_row . [v_a; omega_a; v_b; omega_b] = rhs  on the new velocities (local layout of
/// 12; world-frame linear and angular velocities), divided by Delta t so that it is in velocity
/// units. With e_i = R_i e_x the body axes, the rows are, for a constraint c(q) = 0,
/// dc/dt = a_row . V and a_row . V_{k+1} = -c(q_k) / Delta t (eq. 12):
/// - bending joint (eq. 2 in 3D), three position rows, one per world axis e_c:
///   c = (p_a + d_a e_a) - (p_b - d_b e_b);  dc/dt . e_c = (v_a - v_b) . e_c
///   + omega_a . (d_a e_a x e_c) + omega_b . (d_b e_b x e_c);  the base frame: p_a = base, d_a = 0.
/// - prismatic joint (eq. 3 in 3D), four lateral rows: c = n . h with h = p_b - p_a and n one of
///   R_a e_y, R_b e_y, R_a e_z, R_b e_z (the planar b_1 . h, b_2 . h and their out-of-plane
///   pair); dc/dt = n . (v_b - v_a) + omega_owner . (n x h).
/// - twist, one row per joint: the relative rotation vector phi = log(R_a^T R_b) has no component
///   along the parent's axis, c = phi_x; dphi/dt = J_r^-1(phi) R_b^T (omega_b - omega_a)
///   (rotation.hpp), so the row is e_x^T J_r^-1(phi) R_b^T (omega_b - omega_a) = -phi_x / Delta t.
/// - growth (eq. 6, 14), one row per prismatic joint: g = h^ . hdot, row G_bar = h^ + beta Delta t
///   (hdot - h^ (h^ . hdot)) / |h| on (v_b - v_a), rhs u_j (added by the caller).
/// In a plane z = 0 (R_i rotations about e_z) the position rows x, y, the lateral y rows and the
/// growth row are the planar rows of vine/constraint_rows.hpp; the others involve only the
/// out-of-plane velocities (v_z, omega_x, omega_y).

#include <vector>

#include "tendril/core/types.hpp"
#include "tendril/vine3d/rotation.hpp"

namespace tendril::vine3d {

enum class JointRowKind : int { position, lateral, twist, growth };

/// Where a row lives: its kind, bodies and the axis it constrains.
struct JointRow {
  JointRowKind kind = JointRowKind::position;
  int body_a = -1;    ///< proximal body, -1 = the base frame
  int body_b = 0;     ///< distal body
  double d_a = 0.0;   ///< half length of body a [m] (position rows; 0 for the base frame)
  double d_b = 0.0;   ///< half length of body b [m] (position rows)
  int axis = 0;       ///< position: world axis 0..2; lateral: body axis 1 (y) or 2 (z)
  bool on_b = false;  ///< lateral: the normal n is body b's (else body a's)
};

/// The rows of a chain whose bodies have half lengths `half_length` [m], base to tip: per bending
/// joint three position rows and a twist row, per prismatic joint four lateral rows and a twist
/// row; then one growth row per prismatic joint.
std::vector<JointRow> chain_rows(const std::vector<double>& half_length);

/// The pose and velocities of a row's two bodies (body a: the base frame, at rest, if world), on a
/// scalar S (double, or Eigen AutoDiff for the step derivatives).
template <class S>
struct RowBodiesT {
  Vec3T<S> p_a, p_b;  ///< centres [m]
  QuatT<S> r_a, r_b;  ///< orientations
  /// (v_a, omega_a, v_b, omega_b) at the step's start
  Eigen::Matrix<S, 12, 1> velocity = Eigen::Matrix<S, 12, 1>::Zero();
};
using RowBodies = RowBodiesT<double>;

/// Evaluates one row at q_k (and v_k for growth rows) with the bodies' rotation matrices
/// ra = R(b.r_a), rb = R(b.r_b) given (computed once per body for all the rows of a step): its
/// coefficients `a` on V_{k+1} (12) and right-hand side; returns c(q_k) [m or rad] (0 for growth
/// rows).
template <class S>
S evaluate_row(const JointRow& row, const RowBodiesT<S>& b, const Mat3T<S>& ra, const Mat3T<S>& rb,
               double dt, double growth_lookahead, Eigen::Matrix<S, 12, 1>& a, S& rhs) {
  using std::sqrt;
  using V3 = Vec3T<S>;
  a.setZero();
  const bool world = row.body_a < 0;
  S c(0.0);
  switch (row.kind) {
    case JointRowKind::position: {
      const V3 e = Vec3::Unit(row.axis).cast<S>();
      const V3 ea = ra.col(0), eb = rb.col(0);
      c = ((world ? b.p_a : V3(b.p_a + row.d_a * ea)) - (b.p_b - row.d_b * eb)).dot(e);
      if (!world) {
        a.template segment<3>(0) = e;
        a.template segment<3>(3) = row.d_a * ea.cross(e);
      }
      a.template segment<3>(6) = -e;
      a.template segment<3>(9) = row.d_b * eb.cross(e);
      break;
    }
    case JointRowKind::lateral: {
      const V3 n = (row.on_b ? rb : ra).col(row.axis);
      const V3 h = b.p_b - b.p_a;
      c = n.dot(h);
      a.template segment<3>(0) = -n;
      a.template segment<3>(6) = n;
      a.template segment<3>(row.on_b ? 9 : 3) = n.cross(h);
      break;
    }
    case JointRowKind::twist: {
      const V3 phi = rotation_log(QuatT<S>(b.r_a.conjugate() * b.r_b));
      c = phi.x();
      const S coefficient = right_jacobian_inverse_coefficient(S(phi.squaredNorm()));
      const V3 w = rb * right_jacobian_inverse_transpose_times(phi, coefficient,
                                                               V3(Vec3::UnitX().cast<S>()));
      if (!world) a.template segment<3>(3) = -w;
      a.template segment<3>(9) = w;
      break;
    }
    case JointRowKind::growth: {
      const V3 h = b.p_b - b.p_a;
      const V3 hdot = b.velocity.template segment<3>(6) - b.velocity.template segment<3>(0);
      const S len = sqrt(h.squaredNorm());
      const V3 hhat = h / len;
      const V3 w = (hdot - hhat * hhat.dot(hdot)) / len;  // g_q: d(h^ . hdot)/dh
      const V3 g = hhat + (growth_lookahead * dt) * w;
      a.template segment<3>(0) = -g;
      a.template segment<3>(6) = g;
      rhs = S(0.0);  // the target u_j is added by the caller
      return S(0.0);
    }
  }
  rhs = -c / dt;
  return c;
}

/// evaluate_row with the rotation matrices computed from b's orientations.
template <class S>
S evaluate_row(const JointRow& row, const RowBodiesT<S>& b, double dt, double growth_lookahead,
               Eigen::Matrix<S, 12, 1>& a, S& rhs) {
  return evaluate_row(row, b, Mat3T<S>(b.r_a.toRotationMatrix()),
                      Mat3T<S>(b.r_b.toRotationMatrix()), dt, growth_lookahead, a, rhs);
}

}  // namespace tendril::vine3d
