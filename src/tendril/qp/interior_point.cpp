#include "tendril/qp/interior_point.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "tendril/qp/active_set.hpp"

namespace tendril::qp {
namespace {

// interior-point iterations without a better KKT residual before giving up
constexpr int kStallIterations = 10;

double max_abs(const SparseMatrix& m) {
  double r = 0.0;
  for (int k = 0; k < m.nonZeros(); ++k) r = std::max(r, std::abs(m.valuePtr()[k]));
  return r;
}

// largest alpha in [0, cap] with v + alpha dv >= 0 (v > 0)
double step_to_boundary(const VecX& v, const VecX& dv, double cap) {
  double alpha = cap;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (dv[i] < 0.0) alpha = std::min(alpha, -v[i] / dv[i]);
  return alpha;
}

// Farkas certificate of primal infeasibility: z >= 0, A_eq^T y + A_in^T z ~ 0, b_eq^T y + b_in^T z
// > 0
bool is_infeasibility_certificate(const QpProblem& p, const VecX& y, const VecX& z, double tol) {
  const double norm = std::max(inf_norm(y), inf_norm(z));
  if (norm == 0.0 || !std::isfinite(norm)) return false;
  if (z.size() > 0 && z.minCoeff() < -tol * norm) return false;
  const double a_max = std::max({max_abs(p.A_eq), max_abs(p.A_in), 1e-300});
  const double b_max = std::max(inf_norm(p.b_eq), inf_norm(p.b_in));
  const VecX aty = p.A_eq.transpose() * y + p.A_in.transpose() * z;
  return inf_norm(aty) <= tol * norm * a_max &&
         p.b_eq.dot(y) + p.b_in.dot(z) > std::sqrt(tol) * norm * b_max;
}

// direction of unboundedness: P d ~ 0, A_eq d ~ 0, A_in d >= ~0, c^T d < 0
bool is_unboundedness_certificate(const QpProblem& p, const VecX& d, double tol) {
  const double norm = inf_norm(d);
  if (norm == 0.0 || !std::isfinite(norm)) return false;
  const double a_max = std::max({max_abs(p.A_eq), max_abs(p.A_in), 1e-300});
  const double p_max = std::max(max_abs(p.P), 1e-300);
  if (inf_norm(p.P * d) > tol * norm * p_max) return false;
  if (inf_norm(p.A_eq * d) > tol * norm * a_max) return false;
  if (p.num_inequalities() > 0 && (p.A_in * d).minCoeff() < -tol * norm * a_max) return false;
  return p.c.dot(d) < -std::sqrt(tol) * norm * inf_norm(p.c);
}

/// The iterate's slacks s = A_in x - b_in and the vectors of one Newton step: residuals r_d, r_eq,
/// r_in, complementarity target r_c, the direction (dx, dy, dz, ds) and the affine one.
struct Steps {
  VecX s, r_d, r_eq, r_in, r_c, dx, dy, dz, ds, ds_aff, dz_aff;
  Steps(int n, int m_eq, int m_in)
      : r_d(n),
        r_eq(m_eq),
        r_in(m_in),
        r_c(m_in),
        dx(n),
        dy(m_eq),
        dz(m_in),
        ds(m_in),
        ds_aff(m_in),
        dz_aff(m_in) {}
};

/// Starting point: the KKT solution with D = I, then slacks and multipliers shifted into the
/// interior. False (with the status set) if the KKT matrix does not factorise.
bool start_point(const QpProblem& problem, const QpOptions& options, QpWorkspace& work,
                 QpPoint& point, VecX& s, InteriorPointResult& result) {
  const int m_in = problem.num_inequalities();
  work.d.setOnes(m_in);
  work.kkt.set_inequality_rows(problem, work.row_on, work.d);
  ++result.factorizations;
  if (!work.kkt.factorize()) {
    result.status = QpStatus::numerical_failure;
    return false;
  }
  work.rhs << -problem.c, problem.b_eq, problem.b_in;
  work.kkt.solve(work.rhs, work.u, options.max_refinement_steps, options.refinement_target(), true);
  if (!work.u.allFinite()) {
    result.status = QpStatus::numerical_failure;
    return false;
  }
  work.unpack(point);
  s = problem.A_in * point.x - problem.b_in;
  VecX& z = point.z;
  if (m_in > 0) {
    s.array() += std::max(-1.5 * s.minCoeff(), 0.0);
    z.array() += std::max(-1.5 * z.minCoeff(), 0.0);
    const double sz = s.dot(z);
    if (sz > 1e-12 * std::max(1.0, inf_norm(s) * inf_norm(z)) && s.sum() > 0.0 && z.sum() > 0.0) {
      s.array() += 0.5 * sz / z.sum();
      z.array() += 0.5 * sz / s.sum();
    }
    if (s.minCoeff() <= 0.0 || z.minCoeff() <= 0.0) {
      s = s.cwiseMax(1.0);
      z = z.cwiseMax(1.0);
    }
  }
  return true;
}

/// Polish: once the iterate is close, the active-set method from a guess of the active set usually
/// ends in one step. Guesses: rows with s_i / z_i < kappa for kappa = 1 (strictly active rows) and
/// kappa = 1 / sqrt(mu) (also the weakly active rows, s_i ~ z_i ~ sqrt(mu)), which singular P may
/// need. True (with `point` the solution) if a guess solves the problem; `tried` holds the guesses
/// already polished.
bool polish(const QpProblem& problem, const QpOptions& options, QpWorkspace& work, const VecX& s,
            QpPoint& point, std::vector<std::vector<char>>& tried, QpPoint& polished,
            InteriorPointResult& result) {
  const int m_in = problem.num_inequalities();
  const double mu = s.dot(point.z) / m_in;
  for (const double kappa : {1.0, 1.0 / std::sqrt(mu)}) {
    for (int i = 0; i < m_in; ++i) result.active[i] = s[i] < kappa * point.z[i];
    if (std::find(tried.begin(), tried.end(), result.active) != tried.end()) continue;
    tried.push_back(result.active);
    const ActiveSetResult as = solve_active_set(problem, options, 3, work, result.active, polished);
    result.factorizations += as.factorizations;
    if (as.converged &&
        qp_residuals(problem, polished.x, polished.y, polished.z).kkt <= options.tolerance) {
      point = polished;
      return true;
    }
  }
  return false;
}

/// One Newton direction for the complementarity target r_c (s o z - sigma mu), into dx, dy, dz, ds.
void newton_direction(const QpOptions& options, QpWorkspace& work, const VecX& z, Steps& st) {
  const auto n = st.dx.size(), m_eq = st.dy.size(), m_in = st.dz.size();
  work.rhs.head(n) = -st.r_d;
  work.rhs.segment(n, m_eq) = -st.r_eq;
  work.rhs.tail(m_in) = -st.r_in - st.r_c.cwiseQuotient(z);
  work.kkt.solve(work.rhs, work.u, options.max_refinement_steps, options.refinement_target(), true);
  st.dx = work.u.head(n);
  st.dy = -work.u.segment(n, m_eq);
  st.dz = -work.u.tail(m_in);
  st.ds = -(st.r_c + st.s.cwiseProduct(st.dz)).cwiseQuotient(z);
}

/// The residuals of the Newton system with slack s (P x + c - A_eq^T y - A_in^T z, A_eq x - b_eq,
/// A_in x - s - b_in), the KKT matrix with D = S Z^-1 and the direction: the predictor (affine
/// scaling), then Mehrotra's centring and second-order corrector. False (with the status set) if
/// the KKT matrix does not factorise.
bool predictor_corrector(const QpProblem& problem, const QpOptions& options, QpWorkspace& work,
                         const QpPoint& point, Steps& st, InteriorPointResult& result) {
  const int m_in = problem.num_inequalities();
  const VecX& z = point.z;
  const VecX& s = st.s;
  st.r_d = problem.P * point.x + problem.c - problem.A_eq.transpose() * point.y -
           problem.A_in.transpose() * z;
  st.r_eq = problem.A_eq * point.x - problem.b_eq;
  st.r_in = problem.A_in * point.x - s - problem.b_in;
  const double mu = m_in > 0 ? s.dot(z) / m_in : 0.0;

  work.d = s.cwiseQuotient(z);
  work.kkt.set_inequality_rows(problem, work.row_on, work.d);
  ++result.factorizations;
  if (!work.kkt.factorize()) {
    result.status = QpStatus::numerical_failure;
    return false;
  }
  st.r_c = s.cwiseProduct(z);
  newton_direction(options, work, z, st);
  if (m_in > 0) {
    const double alpha_aff =
        std::min(step_to_boundary(s, st.ds, 1.0), step_to_boundary(z, st.dz, 1.0));
    const double mu_aff = (s + alpha_aff * st.ds).dot(z + alpha_aff * st.dz) / m_in;
    const double sigma = std::pow(mu_aff / mu, 3);
    st.ds_aff = st.ds;
    st.dz_aff = st.dz;
    st.r_c =
        s.cwiseProduct(z) + st.ds_aff.cwiseProduct(st.dz_aff) - VecX::Constant(m_in, sigma * mu);
    newton_direction(options, work, z, st);
  }
  return true;
}

/// Infeasibility or unboundedness from the Newton direction: true (with the status and the
/// certificate in `point`) if the direction is a certificate.
bool direction_certificate(const QpProblem& problem, const QpOptions& options, const Steps& st,
                           QpPoint& point, InteriorPointResult& result) {
  if (is_infeasibility_certificate(problem, st.dy, st.dz, options.certificate_tolerance)) {
    point.y = st.dy;
    point.z = st.dz;
    result.status = QpStatus::infeasible;
    return true;
  }
  if (is_unboundedness_certificate(problem, st.dx, options.certificate_tolerance)) {
    point.x = st.dx;
    result.status = QpStatus::unbounded;
    return true;
  }
  return false;
}

/// Step 99 % of the way to the boundary of s, z >= 0 (a full step without inequalities). False
/// (with the status set) if the iterate is no longer finite.
bool take_step(const Steps& st, QpPoint& point, VecX& s, InteriorPointResult& result) {
  const bool bounded = st.dz.size() > 0;
  const double alpha = bounded
                           ? std::min(1.0, 0.99 * std::min(step_to_boundary(s, st.ds, 2.0),
                                                           step_to_boundary(point.z, st.dz, 2.0)))
                           : 1.0;
  point.x += alpha * st.dx;
  point.y += alpha * st.dy;
  point.z += alpha * st.dz;
  s += alpha * st.ds;
  if (!point.x.allFinite() || !point.y.allFinite() || !point.z.allFinite()) {
    result.status = QpStatus::numerical_failure;
    return false;
  }
  return true;
}

/// The status if the iterate solves the problem (to the tolerance) or certifies that it is
/// infeasible or unbounded.
std::optional<QpStatus> point_status(const QpProblem& problem, const QpOptions& options,
                                     const QpPoint& point, double kkt) {
  if (kkt <= options.tolerance) return QpStatus::solved;
  if (is_infeasibility_certificate(problem, point.y, point.z, options.certificate_tolerance))
    return QpStatus::infeasible;
  if (is_unboundedness_certificate(problem, point.x, options.certificate_tolerance))
    return QpStatus::unbounded;
  return std::nullopt;
}

}  // namespace

InteriorPointResult solve_interior_point(const QpProblem& problem, const QpOptions& options,
                                         QpWorkspace& work, QpPoint& point) {
  const int n = problem.num_variables();
  const int m_eq = problem.num_equalities();
  const int m_in = problem.num_inequalities();
  InteriorPointResult result;
  point.resize(n, m_eq, m_in);
  work.rhs.resize(n + m_eq + m_in);
  work.row_on.assign(m_in, 1);
  result.active.assign(m_in, 0);
  Steps st(n, m_eq, m_in);
  if (!start_point(problem, options, work, point, st.s, result)) return result;

  std::vector<std::vector<char>> tried;  // active-set guesses already polished
  QpPoint polished, best;
  VecX best_s;
  double best_kkt = HUGE_VAL;
  int best_iteration = 0;
  for (; result.iterations < options.max_iterations; ++result.iterations) {
    const QpResiduals res = qp_residuals(problem, point.x, point.y, point.z);
    if (const std::optional<QpStatus> status = point_status(problem, options, point, res.kkt)) {
      if (*status == QpStatus::solved)
        for (int i = 0; i < m_in; ++i) result.active[i] = point.z[i] > st.s[i];
      result.status = *status;
      return result;
    }
    if (res.kkt <= 1e-5 && m_in > 0 &&
        polish(problem, options, work, st.s, point, tried, polished, result)) {
      result.status = QpStatus::solved;
      return result;
    }
    // keep the best iterate; stop when the residual has not improved for a while
    if (res.kkt < best_kkt) {
      best_kkt = res.kkt;
      best = point;
      best_s = st.s;
      best_iteration = result.iterations;
    } else if (result.iterations - best_iteration >= kStallIterations) {
      break;
    }
    if (!predictor_corrector(problem, options, work, point, st, result)) return result;
    if (direction_certificate(problem, options, st, point, result)) return result;
    if (!take_step(st, point, st.s, result)) return result;
  }
  if (best_kkt < HUGE_VAL) {
    point = best;
    for (int i = 0; i < m_in; ++i) result.active[i] = best_s[i] < point.z[i];
  }
  result.status = QpStatus::max_iterations;
  return result;
}

}  // namespace tendril::qp
