#pragma once
/// Work storage shared by the active-set and interior-point methods (internal to tendril_qp).

#include <vector>

#include "tendril/qp/kkt_system.hpp"

namespace tendril::qp {

/// A primal-dual point: x (n), y multipliers of A_eq (m_eq), z multipliers of A_in (m_in).
struct QpPoint {
  VecX x, y, z;
  void resize(int n, int m_eq, int m_in) {
    x.setZero(n);
    y.setZero(m_eq);
    z.setZero(m_in);
  }
};

/// KKT system and vectors reused across iterations and calls while the dimensions are unchanged.
struct QpWorkspace {
  KktSystem kkt;
  VecX rhs, u;                              // KKT right-hand side and solution (n + m_eq + m_in)
  VecX d;                                   // D block of the KKT matrix (m_in)
  VecX slack;                               // A_in x - b_in (m_in)
  QpResidualWork residual_work;             // products of the KKT residual check
  std::vector<char> row_on;                 // inequality rows present in the KKT matrix (m_in)
  std::vector<char> next_active;            // active-set update (m_in)
  std::vector<unsigned long long> visited;  // hashes of the active sets of one active-set run

  /// Writes (x, y, z) from the KKT unknowns u = (x, -y, -z).
  void unpack(QpPoint& point) const {
    const auto n = point.x.size(), m_eq = point.y.size(), m_in = point.z.size();
    point.x = u.head(n);
    point.y = -u.segment(n, m_eq);
    point.z = -u.tail(m_in);
  }
};

}  // namespace tendril::qp
