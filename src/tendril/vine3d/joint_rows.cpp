#include "tendril/vine3d/joint_rows.hpp"

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

}  // namespace tendril::vine3d
