#include "tendril/vine3d/joint_rows.hpp"

#include <cmath>

namespace tendril::vine3d {

std::vector<JointRow> chain_rows(const std::vector<double>& half_length) {
  std::vector<JointRow> rows;
  const int n = static_cast<int>(half_length.size());
  for (int k = 0; k < n; ++k) {
    JointRow r;
    r.body_a = k - 1;
    r.body_b = k;
    r.d_a = k > 0 ? half_length[k - 1] : 0.0;
    r.d_b = half_length[k];
    if (k % 2 == 0) {
      r.kind = JointRowKind::position;
      for (r.axis = 0; r.axis < 3; ++r.axis) rows.push_back(r);
    } else {
      r.kind = JointRowKind::lateral;
      for (r.axis = 1; r.axis <= 2; ++r.axis)
        for (const bool on_b : {false, true}) {
          r.on_b = on_b;
          rows.push_back(r);
        }
    }
    r.kind = JointRowKind::twist;
    r.axis = 0;
    r.on_b = false;
    rows.push_back(r);
  }
  for (int k = 1; k < n; k += 2) {
    JointRow r;
    r.kind = JointRowKind::growth;
    r.body_a = k - 1;
    r.body_b = k;
    rows.push_back(r);
  }
  return rows;
}

double evaluate_row(const JointRow& row, const RowBodies& b, double dt, double growth_lookahead,
                    VecN<12>& a, double& rhs) {
  a.setZero();
  const Mat3 ra = b.r_a.toRotationMatrix(), rb = b.r_b.toRotationMatrix();
  const bool world = row.body_a < 0;
  double c = 0.0;
  switch (row.kind) {
    case JointRowKind::position: {
      const Vec3 e = Vec3::Unit(row.axis);
      const Vec3 ea = ra.col(0), eb = rb.col(0);
      c = ((world ? b.p_a : Vec3(b.p_a + row.d_a * ea)) - (b.p_b - row.d_b * eb)).dot(e);
      if (!world) {
        a.segment<3>(0) = e;
        a.segment<3>(3) = row.d_a * ea.cross(e);
      }
      a.segment<3>(6) = -e;
      a.segment<3>(9) = row.d_b * eb.cross(e);
      break;
    }
    case JointRowKind::lateral: {
      const Vec3 n = (row.on_b ? rb : ra).col(row.axis);
      const Vec3 h = b.p_b - b.p_a;
      c = n.dot(h);
      a.segment<3>(0) = -n;
      a.segment<3>(6) = n;
      a.segment<3>(row.on_b ? 9 : 3) = n.cross(h);
      break;
    }
    case JointRowKind::twist: {
      const Vec3 phi = rotation_log(b.r_a.conjugate() * b.r_b);
      c = phi.x();
      const Vec3 w = rb * right_jacobian_inverse(phi).transpose() * Vec3::UnitX();
      if (!world) a.segment<3>(3) = -w;
      a.segment<3>(9) = w;
      break;
    }
    case JointRowKind::growth: {
      const Vec3 h = b.p_b - b.p_a;
      const Vec3 hdot = b.velocity.segment<3>(6) - b.velocity.segment<3>(0);
      const double len = h.norm();
      const Vec3 hhat = h / len;
      const Vec3 w = (hdot - hhat * hhat.dot(hdot)) / len;  // g_q: d(h^ . hdot)/dh
      const Vec3 g = hhat + (growth_lookahead * dt) * w;
      a.segment<3>(0) = -g;
      a.segment<3>(6) = g;
      rhs = 0.0;  // the target u_j is added by the caller
      return 0.0;
    }
  }
  rhs = -c / dt;
  return c;
}

}  // namespace tendril::vine3d
