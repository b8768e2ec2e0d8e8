#pragma once
/// The IPOPT side of the joint estimation (fit/vine_joint_estimation.hpp), shared by its
/// formulations (the step map's, r eliminated, and the transcribed one,
/// fit/vine_transcribed_estimation.hpp): the TNLP adapter, the solve and the evaluation for the
/// derivative checks. A Problem provides num_variables, num_constraints, the Jacobian and Hessian
/// patterns (lower triangle), objective, constraints (false with a message where the model fails),
/// gauss_newton and optionally exact_hessian (EstimationHessian::exact) and bounds (default: K, C
/// in [0, their maxima], the rest free, equalities but for the held impulses' rows >= 0). Internal
/// to src/tendril/fit.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#include "tendril/core/error.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/fit/vine_joint_estimation.hpp"

namespace tendril::fit::detail {

using Triplet = Eigen::Triplet<double, int>;

/// Multiplier estimates for IPOPT's warm start (warm_start_init_point): lambda (one per constraint,
/// IPOPT's sign: L = f + lambda . g) and the bound multipliers z_L, z_U >= 0 (one per variable).
struct IpoptWarmStart {
  VecX lambda, z_lower, z_upper;
};

const char* status_name(Ipopt::ApplicationReturnStatus status);

/// The trust-region pass's trials as progress lines (options.progress; trust_region set, the
/// objective the pass's least squares |e|^2, d_norm its step, regularization its lambda, the
/// infeasibilities NaN); the callback's false stops the pass.
inline SparseLmProgress trust_region_progress(const JointEstimationOptions& options) {
  if (!options.progress) return {};
  return [&options](const SparseLmIteration& i) {
    JointEstimationIteration line;
    line.iteration = i.iteration;
    line.objective = 2.0 * i.cost;
    line.inf_pr = line.inf_du = std::numeric_limits<double>::quiet_NaN();
    line.d_norm = i.step;
    line.regularization = i.damping;
    line.trust_region = true;
    line.accepted = i.accepted;
    return options.progress(line);
  };
}

/// IPOPT's view of the problem (EstimationProblem or EliminatedProblem): x, g evaluated once per
/// new point, the Jacobian on demand.
template <class Problem>
class EstimationNlp : public Ipopt::TNLP {
 public:
  EstimationNlp(Problem& problem, EstimationHessian hessian, VecX start)
      : problem_(problem), hessian_(hessian), start_(std::move(start)) {}

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac_g,
                    Ipopt::Index& nnz_h_lag, IndexStyleEnum& index_style) override {
    n = problem_.num_variables();
    m = problem_.num_constraints();
    nnz_jac_g = static_cast<Ipopt::Index>(problem_.jacobian_rows().size());
    nnz_h_lag = static_cast<Ipopt::Index>(problem_.hessian_rows().size());
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Ipopt::Index n, Ipopt::Number* x_l, Ipopt::Number* x_u, Ipopt::Index m,
                       Ipopt::Number* g_l, Ipopt::Number* g_u) override {
    if constexpr (requires { problem_.bounds(x_l, x_u, g_l, g_u); }) {
      problem_.bounds(x_l, x_u, g_l, g_u);
    } else {
      for (int i = 0; i < n; ++i) {
        x_l[i] = i >= problem_.k(0) ? 0.0 : -2e19;  // 0 <= K, C <= their maxima; the rest free
        x_u[i] = i >= problem_.c(0)   ? std::min(problem_.damping_upper(), 2e19)
                 : i >= problem_.k(0) ? std::min(problem_.stiffness_upper(), 2e19)
                                      : 2e19;
      }
      std::fill(g_l, g_l + m, 0.0);
      std::fill(g_u, g_u + m, 0.0);
      std::fill(g_u + problem_.first_held_row(), g_u + m, 2e19);  // held impulses >= 0
    }
    return true;
  }

  bool get_starting_point(Ipopt::Index n, bool init_x, Ipopt::Number* x, bool init_z,
                          Ipopt::Number* z_l, Ipopt::Number* z_u, Ipopt::Index m, bool init_lambda,
                          Ipopt::Number* lambda) override {
    if (init_x) std::copy(start_.data(), start_.data() + n, x);
    if ((init_z || init_lambda) && warm_.lambda.size() != m)
      return false;  // a warm start asked for without estimates
    if (init_z) {
      std::copy(warm_.z_lower.data(), warm_.z_lower.data() + n, z_l);
      std::copy(warm_.z_upper.data(), warm_.z_upper.data() + n, z_u);
    }
    if (init_lambda) std::copy(warm_.lambda.data(), warm_.lambda.data() + m, lambda);
    return true;
  }

  bool eval_f(Ipopt::Index n, const Ipopt::Number* x, bool, Ipopt::Number& obj_value) override {
    obj_value = problem_.objective(Eigen::Map<const VecX>(x, n), nullptr);
    return std::isfinite(obj_value);
  }

  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number* x, bool, Ipopt::Number* grad_f) override {
    VecX g;
    problem_.objective(Eigen::Map<const VecX>(x, n), &g);
    std::copy(g.data(), g.data() + n, grad_f);
    return g.allFinite();
  }

  bool eval_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index m,
              Ipopt::Number* g) override {
    if (!update(n, x, new_x, false)) return false;
    std::copy(g_.data(), g_.data() + m, g);
    return true;
  }

  bool eval_jac_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index,
                  Ipopt::Index nele_jac, Ipopt::Index* i_row, Ipopt::Index* j_col,
                  Ipopt::Number* values) override {
    if (!values) {
      std::copy(problem_.jacobian_rows().begin(), problem_.jacobian_rows().end(), i_row);
      std::copy(problem_.jacobian_cols().begin(), problem_.jacobian_cols().end(), j_col);
      return true;
    }
    if (!update(n, x, new_x, true)) return false;
    std::copy(jac_.data(), jac_.data() + nele_jac, values);
    return true;
  }

  bool eval_h(Ipopt::Index n, const Ipopt::Number* x, bool, Ipopt::Number obj_factor,
              Ipopt::Index m, const Ipopt::Number* lambda, bool, Ipopt::Index, Ipopt::Index* i_row,
              Ipopt::Index* j_col, Ipopt::Number* values) override {
    if (!values) {
      std::copy(problem_.hessian_rows().begin(), problem_.hessian_rows().end(), i_row);
      std::copy(problem_.hessian_cols().begin(), problem_.hessian_cols().end(), j_col);
      return true;
    }
    if constexpr (requires(std::string & m) {
                    problem_.exact_hessian(VecX(), 1.0, VecX(), values, m);
                  }) {
      if (hessian_ == EstimationHessian::exact) {
        try {
          return problem_.exact_hessian(Eigen::Map<const VecX>(x, n), obj_factor,
                                        Eigen::Map<const VecX>(lambda, m), values, failure_);
        } catch (const std::exception& e) {  // the model rejects the state
          failure_ = e.what();
          return false;
        }
      }
    }
    problem_.gauss_newton(Eigen::Map<const VecX>(x, n), obj_factor, values);
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const Ipopt::Number* x,
                         const Ipopt::Number*, const Ipopt::Number*, Ipopt::Index m,
                         const Ipopt::Number*, const Ipopt::Number* lambda, Ipopt::Number,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    solution_ = Eigen::Map<const VecX>(x, n);
    multipliers_ = Eigen::Map<const VecX>(lambda, m);
  }

  bool intermediate_callback(Ipopt::AlgorithmMode mode, Ipopt::Index iter, Ipopt::Number obj_value,
                             Ipopt::Number inf_pr, Ipopt::Number inf_du, Ipopt::Number mu,
                             Ipopt::Number d_norm, Ipopt::Number regularization_size,
                             Ipopt::Number alpha_du, Ipopt::Number alpha_pr, Ipopt::Index ls_trials,
                             const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    iterations_ = iter;
    return !progress_ ||
           progress_({iter, obj_value, inf_pr, inf_du, mu, d_norm, regularization_size, alpha_du,
                      alpha_pr, ls_trials, mode == Ipopt::RestorationPhaseMode});
  }

  void set_progress(std::function<bool(const JointEstimationIteration&)> progress) {
    progress_ = std::move(progress);
  }
  void set_warm_start(IpoptWarmStart warm) { warm_ = std::move(warm); }

  const VecX& solution() const { return solution_; }
  /// The constraint multipliers at the last point (IPOPT's sign, L = f + lambda . g).
  const VecX& multipliers() const { return multipliers_; }
  int iterations() const { return iterations_; }
  const std::string& failure() const { return failure_; }

 private:
  // g (and the Jacobian values) at x, recomputed when x is new or the Jacobian is wanted and
  // missing
  bool update(Ipopt::Index n, const Ipopt::Number* x, bool new_x, bool with_jacobian) {
    if (new_x || !have_g_ || (with_jacobian && !have_jac_)) {
      have_g_ = have_jac_ = false;
      try {
        if (!problem_.constraints(Eigen::Map<const VecX>(x, n), g_, with_jacobian ? &jac_ : nullptr,
                                  failure_))
          return false;
      } catch (const std::exception&
                   e) {  // the model rejects the trial state (e.g. a zero-length prismatic joint)
        failure_ = e.what();
        return false;
      }
      have_g_ = true;
      have_jac_ = with_jacobian;
    }
    return true;
  }

  Problem& problem_;
  EstimationHessian hessian_;
  VecX start_;  // IPOPT's starting point
  VecX g_, jac_, solution_, multipliers_;
  bool have_g_ = false, have_jac_ = false;
  int iterations_ = 0;
  std::string failure_;
  std::function<bool(const JointEstimationIteration&)> progress_;
  IpoptWarmStart warm_;
};

/// Runs IPOPT on `problem` from `start` (with `warm`'s multipliers, if given, as a warm start);
/// fills the result's status, iterations and time and returns IPOPT's last point (empty if it gave
/// none), its constraint multipliers into `multipliers` if given.
template <class Problem>
VecX solve_with_ipopt(Problem& problem, const JointEstimationOptions& options, const VecX& start,
                      JointEstimationResult& result, IpoptWarmStart warm = {},
                      VecX* multipliers = nullptr) {
  Ipopt::SmartPtr<EstimationNlp<Problem>> nlp =
      new EstimationNlp<Problem>(problem, options.hessian, start);
  nlp->set_progress(options.progress);
  const bool warm_start = warm.lambda.size() > 0;
  nlp->set_warm_start(std::move(warm));
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetNumericValue("tol", options.tolerance);
  app->Options()->SetIntegerValue("max_iter", options.max_iterations);
  app->Options()->SetIntegerValue("print_level", options.print_level);
  app->Options()->SetStringValue("sb", "yes");  // no banner
  if (options.trust_region_iterations > 0) {    // a warm start near the optimum (the header)
    app->Options()->SetNumericValue("constr_mult_init_max", 1e20);
    app->Options()->SetNumericValue("bound_push", 1e-9);
    app->Options()->SetNumericValue("bound_frac", 1e-9);
    app->Options()->SetNumericValue("mu_init", 1e-6);
  }
  if (warm_start) {  // the given multipliers, and the point moved into the bounds' interior by at
                     // most 1e-9
    app->Options()->SetStringValue("warm_start_init_point", "yes");
    for (const char* push :
         {"warm_start_bound_push", "warm_start_bound_frac", "warm_start_slack_bound_push",
          "warm_start_slack_bound_frac", "warm_start_mult_bound_push"})
      app->Options()->SetNumericValue(push, 1e-9);
  }
  if (app->Initialize() != Ipopt::Solve_Succeeded)
    throw std::runtime_error("IPOPT failed to initialise");
  const auto t0 = std::chrono::steady_clock::now();
  const Ipopt::ApplicationReturnStatus status =
      app->OptimizeTNLP(Ipopt::SmartPtr<Ipopt::TNLP>(GetRawPtr(nlp)));
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.status = status_name(status);
  if (!nlp->failure().empty() && status != Ipopt::Solve_Succeeded)
    result.status += " (last model failure: " + nlp->failure() + ")";
  result.converged =
      status == Ipopt::Solve_Succeeded || status == Ipopt::Solved_To_Acceptable_Level;
  result.iterations = nlp->iterations();
  if (multipliers) *multipliers = nlp->multipliers();
  return nlp->solution().size() == problem.num_variables() ? nlp->solution() : VecX();
}

/// The problem's objective, gradient, constraints and sparse constraint Jacobian at x.
template <class Problem>
JointEstimationProblemEvaluation evaluate_at(Problem& problem, const VecX& x,
                                             const VecX& multipliers = {}) {
  JointEstimationProblemEvaluation out;
  out.x = x;
  TENDRIL_ASSERT(out.x.size() == problem.num_variables(), "x has the problem's size");
  out.objective = problem.objective(out.x, &out.gradient);
  VecX values;
  std::string message;
  if (!problem.constraints(out.x, out.constraints, &values, message))
    throw std::runtime_error("joint estimation: the model fails at x: " + message);
  std::vector<Triplet> t;
  for (std::size_t e = 0; e < problem.jacobian_rows().size(); ++e)
    t.emplace_back(problem.jacobian_rows()[e], problem.jacobian_cols()[e],
                   values(static_cast<Eigen::Index>(e)));
  out.jacobian.resize(problem.num_constraints(), problem.num_variables());
  out.jacobian.setFromTriplets(t.begin(), t.end());
  if constexpr (requires(double* v) { problem.exact_hessian(VecX(), 1.0, VecX(), v, message); }) {
    if (multipliers.size() > 0) {
      std::vector<double> h(problem.hessian_rows().size());
      if (!problem.exact_hessian(out.x, 1.0, multipliers, h.data(), message))
        throw std::runtime_error("joint estimation: the model fails at x: " + message);
      t.clear();
      for (std::size_t e = 0; e < h.size(); ++e) {
        t.emplace_back(problem.hessian_rows()[e], problem.hessian_cols()[e], h[e]);
        if (problem.hessian_rows()[e] != problem.hessian_cols()[e])
          t.emplace_back(problem.hessian_cols()[e], problem.hessian_rows()[e], h[e]);
      }
      out.hessian.resize(problem.num_variables(), problem.num_variables());
      out.hessian.setFromTriplets(t.begin(), t.end());
    }
  }
  return out;
}

/// Fills the result's K, C (with `sigma`, the scaled parameters' uncertainties), trajectory, model
/// residuals and observed points from the problem's point x.
template <class Problem>
void fill_estimate(const Problem& problem, const VecX& x, const VecX& sigma,
                   JointEstimationResult& result) {
  const int nk = problem.num_parameters();
  for (int j = 0; j < nk; ++j) {
    result.stiffness.push_back(std::max(0.0, x(problem.k(j)) * problem.stiffness_scale()));
    result.damping.push_back(std::max(0.0, x(problem.c(j)) * problem.damping_scale()));
    result.stiffness_sigma.push_back(sigma(j) * problem.stiffness_scale());
    result.damping_sigma.push_back(sigma(nk + j) * problem.damping_scale());
  }
  const int n = problem.dofs();
  for (int i = 0; i <= problem.steps(); ++i)
    result.trajectory.push_back(
        {problem.time(i), x.segment(problem.z(i), n), x.segment(problem.z(i) + n, n)});
  for (int i = 0; i < problem.steps(); ++i)
    result.model_residuals.push_back(x.segment(problem.r(i), 2 * n));
  result.simulated = problem.observed(x);
}

}  // namespace tendril::fit::detail
