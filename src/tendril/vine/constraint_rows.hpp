#pragma once
/// The linearised constraint rows of the step QP (vine paper eq. 12-15; docs/physics/vine.md).
///
/// Every row couples at most two bodies, a (proximal, or the world) and b (distal), and is
/// written as  a_row . [v_a ; v_b]  (=, >=)  b_row  on the new velocities v_{k+1}, divided by
/// Delta t where the paper's row carries it, so that every row is in velocity units [m/s]. The
/// local layout of a row is [x_a, y_a, theta_a, x_b, y_b, theta_b] (6). Rows are templates on the
/// scalar so the step derivatives can differentiate them with Eigen AutoDiff; the hot loop uses
/// double.
///
/// - pin joint (eq. 2), two rows:  c(q) = (p_a + d_a e_a) - (p_b - d_b e_b) with
///   e = (cos theta, sin theta). The paper's eq. 2 prints cos(theta_2) in its second row; the sine
///   is meant (the y coordinate of the proximal end of body 2), and is what is used here.
///   Row: dc/dq . v = -c(q_k) / Delta t  (eq. 12 divided by Delta t).
/// - prismatic joint (eq. 3), two rows: c_i(q) = b_i . h, i in {a, b}, b = (-sin theta, cos theta),
///   h = p_b - p_a. Row as for the pin.
/// - growth (eq. 6, 14), one row per prismatic joint: g(q, v) = h^ . hdot (rate of change of |h|);
///   G_bar = beta g_q Delta t + g_v (the paper's "g_q v_{k+1} Delta t" is a typo for g_q Delta t)
///   and g_bar = g - g_v v_k = 0 exactly since g is linear in v. Row: G_bar v = u_j. beta = 1 is
///   eq. 14 (the rate at the end of the step is u); beta = 1/2 makes the mean rate over the step
///   u to second order, so the length follows the integral of u
///   (docs/physics/vine.md#growth-eq-6-14).
/// - contact (eq. 5, 13): point p = p_b + s e_b, Phi = sd(p) - r_c, normal n. Row:
///   (n + sigma mu t) . dp/dq . v >= -Phi / Delta t (eq. 13 divided by Delta t), with t = (-n_y,
///   n_x) and sigma in {0} without friction, {+1, -1} with friction (the two edges of the planar
///   Coulomb cone; see docs/physics/vine.md#friction).

#include <vector>

#include <Eigen/Core>

#include "tendril/core/types.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::vine {

enum class RowKind : int { pin_x, pin_y, prismatic_a, prismatic_b, growth, contact };

/// Where a row lives: its kind, bodies, and for contact rows the point and obstacle.
struct RowSpec {
  RowKind kind = RowKind::pin_x;
  int body_a = -1;    ///< proximal body, -1 = the world
  int body_b = 0;     ///< distal body (the contact body for contact rows)
  double d_a = 0.0;   ///< half length of body a [m] (pin rows)
  double d_b = 0.0;   ///< half length of body b [m] (pin rows); contact rows: offset s [m]
  int obstacle = -1;  ///< contact rows: obstacle index
  int sigma = 0;      ///< contact rows: friction cone edge (0, +1, -1)
};

/// Which of the 6 local entries of a row kind can be nonzero.
inline constexpr bool row_entry_used(RowKind kind, int local) {
  switch (kind) {
    case RowKind::pin_x:
      return local == 0 || local == 2 || local == 3 || local == 5;
    case RowKind::pin_y:
      return local == 1 || local == 2 || local == 4 || local == 5;
    case RowKind::prismatic_a:
      return local != 5;
    case RowKind::prismatic_b:
      return local != 2;
    case RowKind::growth:
      return local != 2 && local != 5;
    case RowKind::contact:
      return local >= 3;
  }
  return false;
}

/// The joint rows of a chain whose bodies have half lengths `half_length` [m]: two per joint, base
/// to tip; joint k (body k-1 to body k, the world for k = 0) is a pin for even k, prismatic for
/// odd.
inline std::vector<RowSpec> joint_row_specs(const std::vector<double>& half_length) {
  std::vector<RowSpec> rows;
  for (int k = 0; k < static_cast<int>(half_length.size()); ++k) {
    RowSpec r;
    r.body_a = k - 1;
    r.body_b = k;
    r.d_a = k > 0 ? half_length[k - 1] : 0.0;
    r.d_b = half_length[k];
    const bool pin = k % 2 == 0;
    r.kind = pin ? RowKind::pin_x : RowKind::prismatic_a;
    rows.push_back(r);
    r.kind = pin ? RowKind::pin_y : RowKind::prismatic_b;
    rows.push_back(r);
  }
  return rows;
}

/// Data a row needs besides the local state.
struct RowContext {
  Vec2 base = Vec2::Zero();            ///< world pin point [m]
  double dt = 0.0;                     ///< Delta t [s]
  double contact_radius = 0.0;         ///< r_c [m]
  double friction = 0.0;               ///< mu
  double growth_lookahead = 1.0;       ///< beta of the growth row
  const Obstacle* obstacle = nullptr;  ///< contact rows
};

/// Evaluates one row at (q_k, v_k) given in local layout (6 each; body a entries ignored if it is
/// the world): the coefficients `a` on v_{k+1} (6) and the right-hand side `rhs`. For contact rows
/// `phi` receives Phi(q_k) [m] (other kinds leave it untouched).
template <class S>
void evaluate_row(const RowSpec& r, const RowContext& ctx, const Eigen::Matrix<S, 6, 1>& q,
                  const Eigen::Matrix<S, 6, 1>& v, Eigen::Matrix<S, 6, 1>& a, S& rhs,
                  S* phi = nullptr) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  using V2 = Eigen::Matrix<S, 2, 1>;
  a.setZero();
  const bool world = r.body_a < 0;
  const S ca = world ? S(1.0) : S(cos(q(2))), sa = world ? S(0.0) : S(sin(q(2)));
  const S cb = cos(q(5)), sb = sin(q(5));
  const V2 pa = world ? V2(ctx.base.cast<S>()) : V2(q(0), q(1));
  const V2 pb(q(3), q(4));
  const double dt = ctx.dt;
  switch (r.kind) {
    case RowKind::pin_x: {
      const S c = (world ? pa.x() : pa.x() + r.d_a * ca) - (pb.x() - r.d_b * cb);
      if (!world) {
        a(0) = S(1.0);
        a(2) = -r.d_a * sa;
      }
      a(3) = S(-1.0);
      a(5) = -r.d_b * sb;
      rhs = -c / dt;
      break;
    }
    case RowKind::pin_y: {
      const S c = (world ? pa.y() : pa.y() + r.d_a * sa) - (pb.y() - r.d_b * sb);
      if (!world) {
        a(1) = S(1.0);
        a(2) = r.d_a * ca;
      }
      a(4) = S(-1.0);
      a(5) = r.d_b * cb;
      rhs = -c / dt;
      break;
    }
    case RowKind::prismatic_a:
    case RowKind::prismatic_b: {
      const bool on_a = r.kind == RowKind::prismatic_a;
      const S ci = on_a ? ca : cb, si = on_a ? sa : sb;
      const V2 h = pb - pa;
      const S c = -si * h.x() + ci * h.y();
      a(0) = si;
      a(1) = -ci;
      a(3) = -si;
      a(4) = ci;
      a(on_a ? 2 : 5) = -(ci * h.x() + si * h.y());
      rhs = -c / dt;
      break;
    }
    case RowKind::growth: {
      const V2 h = pb - pa;
      const V2 hdot = V2(v(3), v(4)) - V2(v(0), v(1));
      const S len = sqrt(h.squaredNorm());
      const V2 hhat = h / len;
      const V2 w = (hdot - hhat * hhat.dot(hdot)) / len;  // g_q: d(h^ . hdot)/dh
      const V2 row = hhat + (ctx.growth_lookahead * dt) * w;
      a(0) = -row.x();
      a(1) = -row.y();
      a(3) = row.x();
      a(4) = row.y();
      rhs = S(0.0);  // the target u_j is added by the caller
      break;
    }
    case RowKind::contact: {
      const double s = r.d_b;
      const V2 p = pb + s * V2(cb, sb);
      V2 n;
      const S dist = signed_distance<S>(*ctx.obstacle, p, n) - ctx.contact_radius;
      const V2 dir = n + (r.sigma * ctx.friction) * V2(-n.y(), n.x());
      a(3) = dir.x();
      a(4) = dir.y();
      a(5) = s * (-sb * dir.x() + cb * dir.y());
      rhs = -dist / dt;
      if (phi) *phi = dist;
      break;
    }
  }
}

}  // namespace tendril::vine
