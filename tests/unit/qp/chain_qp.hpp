#pragma once
// A QP shaped like the vine step (vine paper, eq. 15): planar chain of rigid links, velocities as
// unknowns, pin joints between neighbours as equalities and ground contacts as inequalities.
// Shared by the QP solver tests and bench/vine/bench_qp.cpp.

#include <cmath>
#include <vector>

#include "tendril/qp/qp_problem.hpp"

namespace tendril::qp::test {

/// Chain of `bodies` links (state x, y, theta each, n = 3 bodies) hanging from a pinned base:
///   P = M = diag(m, m, I) per link, c = -(M v_k + F dt) with gravity F and a swinging velocity
///   v_k, A_eq = joint Jacobian J (2 rows per joint, 2 bodies each; 2 rows for the base pin), b_eq
///   = -c(q)/dt (drift), A_in = ground rows of `contacts` evenly spaced links (tip height rate),
///   b_in = -gap/dt.
/// `phase` moves the configuration and velocities slowly, so consecutive phases give nearby
/// problems.
inline QpProblem chain_qp(int bodies, int contacts, double phase) {
  const double mass = 0.05;                                              // m [kg]
  const double half_length = 0.025;                                      // h [m]
  const double inertia = mass * 4.0 * half_length * half_length / 12.0;  // I [kg m^2]
  const double dt = 1e-3;                                                // time step [s]
  const double gravity = 9.81;                                           // [m/s^2]
  const int n = 3 * bodies;
  std::vector<double> theta(bodies);
  for (int i = 0; i < bodies; ++i) theta[i] = 0.4 * std::sin(0.2 * i + phase) - 1.2;

  QpProblem qp;
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int i = 0; i < bodies; ++i) {
    entries.emplace_back(3 * i, 3 * i, mass);
    entries.emplace_back(3 * i + 1, 3 * i + 1, mass);
    entries.emplace_back(3 * i + 2, 3 * i + 2, inertia);
  }
  qp.P.resize(n, n);
  qp.P.setFromTriplets(entries.begin(), entries.end());
  qp.c.resize(n);
  for (int i = 0; i < bodies; ++i) {
    const double swing = std::cos(0.15 * i + 3.0 * phase);
    qp.c[3 * i] = -mass * 0.3 * swing;
    qp.c[3 * i + 1] = -mass * (-0.5 + 0.4 * swing) + mass * gravity * dt;
    qp.c[3 * i + 2] = -inertia * 2.0 * std::sin(0.1 * i + phase);
  }

  // joints: tip of link i (or the base pin) = base of link i + 1, linearised: J v = -c(q) / dt
  entries.clear();
  qp.b_eq.resize(2 * bodies);
  for (int k = 0; k < bodies; ++k) {
    const int row = 2 * k;
    const int b =
        k;  // link whose base is pinned to the tip of link k - 1 (or to the ground for k = 0)
    entries.emplace_back(row, 3 * b, -1.0);
    entries.emplace_back(row + 1, 3 * b + 1, -1.0);
    entries.emplace_back(row, 3 * b + 2, -half_length * std::sin(theta[b]));
    entries.emplace_back(row + 1, 3 * b + 2, half_length * std::cos(theta[b]));
    if (k > 0) {
      const int a = k - 1;
      entries.emplace_back(row, 3 * a, 1.0);
      entries.emplace_back(row + 1, 3 * a + 1, 1.0);
      entries.emplace_back(row, 3 * a + 2, -half_length * std::sin(theta[a]));
      entries.emplace_back(row + 1, 3 * a + 2, half_length * std::cos(theta[a]));
    }
    qp.b_eq[row] = -1e-6 * std::sin(3.0 * k + phase) / dt;
    qp.b_eq[row + 1] = -1e-6 * std::cos(2.0 * k + phase) / dt;
  }
  qp.A_eq.resize(2 * bodies, n);
  qp.A_eq.setFromTriplets(entries.begin(), entries.end());

  // ground contacts at the tips of evenly spaced links: d/dt (y + h sin theta) >= -gap / dt
  entries.clear();
  qp.b_in.resize(contacts);
  for (int j = 0; j < contacts; ++j) {
    const int i = (j + 1) * bodies / (contacts + 1);
    entries.emplace_back(j, 3 * i + 1, 1.0);
    entries.emplace_back(j, 3 * i + 2, half_length * std::cos(theta[i]));
    qp.b_in[j] = -2e-4 * (1.0 + std::sin(0.7 * j + 2.0 * phase)) / dt;
  }
  qp.A_in.resize(contacts, n);
  qp.A_in.setFromTriplets(entries.begin(), entries.end());
  qp.P.makeCompressed();
  qp.A_eq.makeCompressed();
  qp.A_in.makeCompressed();
  return qp;
}

}  // namespace tendril::qp::test
