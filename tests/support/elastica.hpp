#pragma once
/// Reference solution of the planar elastica (Kirchhoff rod without shear), used to validate the
/// rod model beyond the small-deflection range of Euler-Bernoulli theory.
///
/// A rod of length L [m] (reference arc length s), bending stiffness EI [N m^2] and axial stiffness
/// EA [N] (0: inextensible) is clamped at s = 0 with tangent angle theta_0 in the (x, z) plane and
/// loaded by dead loads: a uniform force per length w [N/m] and a tip force F [N]. With natural
/// curvature kappa_bar [1/m], bending moment m = EI (theta' - kappa_bar), the resultant of the
/// loads beyond s, N(s) = F + w (L - s), and the axial strain eps = N . t / EA:
///   EI theta'' = m' = -(1 + eps) (cos(theta) N_z - sin(theta) N_x),  theta(0) = theta_0, m(L) = 0,
///   r' = (1 + eps) (cos(theta), sin(theta)).
/// Solved as a boundary value problem: second-order finite differences on a uniform grid, Newton
/// with a tridiagonal Jacobian, and continuation (loads ramped from the natural shape, or the
/// natural curvature ramped at full load) so the solution stays on one branch; positions by the
/// trapezoidal rule. Shooting is avoided on purpose: near a strongly pulled clamp m(L) depends on
/// m(0) like exp(L sqrt(F / EI)).
/// Reference: Timoshenko & Gere, Theory of Elastic Stability, ch. 2 (the elastica).

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace tendril::testing {

struct ElasticaProblem {
  double length = 1.0;                              ///< L [m]
  double bend_stiffness = 1.0;                      ///< EI [N m^2]
  double natural_curvature = 0.0;                   ///< kappa_bar [1/m]
  double clamp_angle = 0.0;                         ///< theta_0 [rad]
  double axial_stiffness = 0.0;                     ///< EA [N]; 0 means inextensible
  std::array<double, 2> load_per_length{0.0, 0.0};  ///< w (x, z) [N/m]
  std::array<double, 2> tip_force{0.0, 0.0};        ///< F (x, z) [N]
};

struct ElasticaTip {
  double x = 0.0, z = 0.0;  ///< tip position relative to the clamp [m]
  double angle = 0.0;       ///< tip tangent angle [rad]
};

/// Tangent angles theta_i at s_i = i L / n (n + 1 values) of the elastica on a grid.
class ElasticaSolver {
 public:
  explicit ElasticaSolver(int intervals = 20000) : n_(intervals) {}

  /// Newton from the current angles (the natural shape when first called); false if it fails.
  bool solve(const ElasticaProblem& p) {
    if (theta_.empty()) {
      theta_.resize(n_ + 1);
      for (int i = 0; i <= n_; ++i)
        theta_[i] = p.clamp_angle + p.natural_curvature * spacing(p) * i;
    }
    const double h = spacing(p);
    std::vector<double> r(n_ + 1), diag(n_ + 1), lower(n_ + 1), upper(n_ + 1), step(n_ + 1);
    for (int iteration = 0; iteration < 50; ++iteration) {
      // residual R_i = EI (theta_{i+1} - 2 theta_i + theta_{i-1}) / h^2 + g(theta_i, s_i), with the
      // ghost value theta_{n+1} = theta_{n-1} + 2 h kappa_bar from m(L) = 0, and theta_0 fixed
      double norm = 0.0;
      const double k = p.bend_stiffness / (h * h);
      for (int i = 1; i <= n_; ++i) {
        const double s = i * h;
        double g = 0.0, dg = 0.0;
        load_term(p, theta_[i], s, g, dg);
        const double next = i < n_ ? theta_[i + 1] : theta_[n_ - 1] + 2.0 * h * p.natural_curvature;
        r[i] = k * (next - 2.0 * theta_[i] + theta_[i - 1]) + g;
        diag[i] = -2.0 * k + dg;
        lower[i] = i > 1 ? (i < n_ ? k : 2.0 * k) : 0.0;
        upper[i] = i < n_ ? k : 0.0;
        norm = std::max(norm, std::abs(r[i]) * h);
      }
      if (norm <= 1e-13 * (p.bend_stiffness / p.length + load_scale(p) * p.length)) return true;
      // Thomas algorithm on J step = -r
      for (int i = 1; i <= n_; ++i) step[i] = -r[i];
      for (int i = 2; i <= n_; ++i) {
        const double f = lower[i] / diag[i - 1];
        diag[i] -= f * upper[i - 1];
        step[i] -= f * step[i - 1];
      }
      step[n_] /= diag[n_];
      for (int i = n_ - 1; i >= 1; --i) step[i] = (step[i] - upper[i] * step[i + 1]) / diag[i];
      double largest = 0.0;
      for (int i = 1; i <= n_; ++i) {
        theta_[i] += step[i];
        largest = std::max(largest, std::abs(step[i]));
      }
      if (!std::isfinite(largest)) return false;
      if (largest < 1e-14) return true;
    }
    return false;
  }

  /// The tip of the current solution.
  ElasticaTip tip(const ElasticaProblem& p) const {
    const double h = spacing(p);
    double x = 0.0, z = 0.0;
    for (int i = 0; i < n_; ++i) {
      for (int j : {i, i + 1}) {
        const double s = j * h, c = std::cos(theta_[j]), sn = std::sin(theta_[j]);
        const std::array<double, 2> nn = resultant(p, s);
        const double stretch =
            1.0 + (p.axial_stiffness > 0.0 ? (c * nn[0] + sn * nn[1]) / p.axial_stiffness : 0.0);
        x += 0.5 * h * stretch * c;
        z += 0.5 * h * stretch * sn;
      }
    }
    return {x, z, theta_[n_]};
  }

 private:
  double spacing(const ElasticaProblem& p) const { return p.length / n_; }
  static double load_scale(const ElasticaProblem& p) {
    return std::abs(p.tip_force[0]) + std::abs(p.tip_force[1]) +
           (std::abs(p.load_per_length[0]) + std::abs(p.load_per_length[1])) * p.length;
  }
  static std::array<double, 2> resultant(const ElasticaProblem& p, double s) {
    return {p.tip_force[0] + p.load_per_length[0] * (p.length - s),
            p.tip_force[1] + p.load_per_length[1] * (p.length - s)};
  }
  /// g = (1 + eps)(cos(theta) N_z - sin(theta) N_x) and dg/dtheta.
  static void load_term(const ElasticaProblem& p, double theta, double s, double& g, double& dg) {
    const std::array<double, 2> nn = resultant(p, s);
    const double c = std::cos(theta), sn = std::sin(theta);
    const double a = c * nn[1] - sn * nn[0];  // N x t
    const double b = c * nn[0] + sn * nn[1];  // N . t
    const double inv_ea = p.axial_stiffness > 0.0 ? 1.0 / p.axial_stiffness : 0.0;
    g = (1.0 + b * inv_ea) * a;
    dg = a * a * inv_ea - b * (1.0 + b * inv_ea);
  }

  int n_;
  std::vector<double> theta_;
};

namespace detail {
/// Ramps the loads of p from zero to full in `steps` increments, solving each with `solver`.
inline void ramp_loads(ElasticaSolver& solver, const ElasticaProblem& p, int steps) {
  ElasticaProblem stage = p;
  for (int k = 1; k <= steps; ++k) {
    const double factor = static_cast<double>(k) / steps;
    for (int i = 0; i < 2; ++i) {
      stage.load_per_length[i] = p.load_per_length[i] * factor;
      stage.tip_force[i] = p.tip_force[i] * factor;
    }
    if (!solver.solve(stage))
      throw std::runtime_error("elastica Newton did not converge (loading)");
  }
}
}  // namespace detail

/// Solves the clamped-free elastica by load continuation from the natural shape (loads ramped in
/// `load_steps` increments). Throws std::runtime_error if an increment does not converge.
inline ElasticaTip solve_cantilever_elastica(const ElasticaProblem& p, int load_steps = 50) {
  ElasticaSolver solver;
  detail::ramp_loads(solver, p, load_steps);
  return solver.tip(p);
}

/// Solves p with the loads applied to the rod with natural curvature `start_curvature` [1/m] first,
/// then the natural curvature ramped to p.natural_curvature at full load in `stages` increments
/// (actuating the rod while it is loaded).
inline ElasticaTip solve_actuated_elastica(const ElasticaProblem& p, double start_curvature,
                                           int stages = 50) {
  ElasticaSolver solver;
  ElasticaProblem stage = p;
  stage.natural_curvature = start_curvature;
  detail::ramp_loads(solver, stage, stages);
  for (int k = 1; k <= stages; ++k) {
    stage.natural_curvature =
        start_curvature + (p.natural_curvature - start_curvature) * k / stages;
    if (!solver.solve(stage))
      throw std::runtime_error("elastica Newton did not converge (actuation)");
  }
  return solver.tip(p);
}

}  // namespace tendril::testing
