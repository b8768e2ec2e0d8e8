#include "tendril/fit/ipopt_nlp.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

namespace tendril::fit::detail {

namespace {

const char* status_name(Ipopt::ApplicationReturnStatus status) {
  switch (status) {
    case Ipopt::Solve_Succeeded:
      return "Solve_Succeeded";
    case Ipopt::Solved_To_Acceptable_Level:
      return "Solved_To_Acceptable_Level";
    case Ipopt::Infeasible_Problem_Detected:
      return "Infeasible_Problem_Detected";
    case Ipopt::Search_Direction_Becomes_Too_Small:
      return "Search_Direction_Becomes_Too_Small";
    case Ipopt::Diverging_Iterates:
      return "Diverging_Iterates";
    case Ipopt::User_Requested_Stop:
      return "User_Requested_Stop";
    case Ipopt::Feasible_Point_Found:
      return "Feasible_Point_Found";
    case Ipopt::Maximum_Iterations_Exceeded:
      return "Maximum_Iterations_Exceeded";
    case Ipopt::Restoration_Failed:
      return "Restoration_Failed";
    case Ipopt::Error_In_Step_Computation:
      return "Error_In_Step_Computation";
    case Ipopt::Maximum_CpuTime_Exceeded:
      return "Maximum_CpuTime_Exceeded";
    case Ipopt::Not_Enough_Degrees_Of_Freedom:
      return "Not_Enough_Degrees_Of_Freedom";
    case Ipopt::Invalid_Problem_Definition:
      return "Invalid_Problem_Definition";
    case Ipopt::Invalid_Option:
      return "Invalid_Option";
    case Ipopt::Invalid_Number_Detected:
      return "Invalid_Number_Detected";
    case Ipopt::Unrecoverable_Exception:
      return "Unrecoverable_Exception";
    case Ipopt::NonIpopt_Exception_Thrown:
      return "NonIpopt_Exception_Thrown";
    case Ipopt::Insufficient_Memory:
      return "Insufficient_Memory";
    case Ipopt::Internal_Error:
      return "Internal_Error";
  }
  return "unknown IPOPT status";
}

/// IPOPT's view of an EstimationNlp: g and its Jacobian evaluated once per new point.
class IpoptAdaptor : public Ipopt::TNLP {
 public:
  IpoptAdaptor(EstimationNlp& problem, VecX start, IpoptWarmStart warm,
               std::function<bool(const JointEstimationIteration&)> progress)
      : problem_(problem),
        start_(std::move(start)),
        warm_(std::move(warm)),
        progress_(std::move(progress)) {}

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac_g,
                    Ipopt::Index& nnz_h_lag, IndexStyleEnum& index_style) override {
    n = problem_.num_variables();
    m = problem_.num_constraints();
    nnz_jac_g = static_cast<Ipopt::Index>(problem_.jacobian_rows().size());
    nnz_h_lag = static_cast<Ipopt::Index>(problem_.hessian_rows().size());
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Ipopt::Index, Ipopt::Number* x_l, Ipopt::Number* x_u, Ipopt::Index,
                       Ipopt::Number* g_l, Ipopt::Number* g_u) override {
    problem_.bounds(x_l, x_u, g_l, g_u);
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
    try {
      return problem_.hessian(Eigen::Map<const VecX>(x, n), obj_factor,
                              Eigen::Map<const VecX>(lambda, m), values, failure_);
    } catch (const std::exception& e) {  // the model rejects the state
      failure_ = e.what();
      return false;
    }
  }

  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const Ipopt::Number* x,
                         const Ipopt::Number*, const Ipopt::Number*, Ipopt::Index,
                         const Ipopt::Number*, const Ipopt::Number*, Ipopt::Number,
                         const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    solution_ = Eigen::Map<const VecX>(x, n);
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

  const VecX& solution() const { return solution_; }
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
      } catch (const std::exception& e) {  // the model rejects the trial state (e.g. a
                                           // zero-length prismatic joint)
        failure_ = e.what();
        return false;
      }
      have_g_ = true;
      have_jac_ = with_jacobian;
    }
    return true;
  }

  EstimationNlp& problem_;
  VecX start_;  // IPOPT's starting point
  IpoptWarmStart warm_;
  std::function<bool(const JointEstimationIteration&)> progress_;
  VecX g_, jac_, solution_;
  bool have_g_ = false, have_jac_ = false;
  int iterations_ = 0;
  std::string failure_;
};

/// IPOPT's options: the tolerance and iterations, silent; after the trust-region pass a start near
/// the optimum; with multipliers a warm start.
void set_options(Ipopt::IpoptApplication& app, const JointEstimationOptions& options,
                 bool warm_start) {
  app.Options()->SetNumericValue("tol", options.tolerance);
  app.Options()->SetIntegerValue("max_iter", options.max_iterations);
  app.Options()->SetIntegerValue("print_level", 0);
  app.Options()->SetStringValue("sb", "yes");  // no banner
  if (options.trust_region_iterations > 0) {   // a warm start near the optimum (the header)
    app.Options()->SetNumericValue("constr_mult_init_max", 1e20);
    app.Options()->SetNumericValue("bound_push", 1e-9);
    app.Options()->SetNumericValue("bound_frac", 1e-9);
    app.Options()->SetNumericValue("mu_init", 1e-6);
  }
  if (warm_start) {  // the given multipliers, and the point moved into the bounds' interior by at
                     // most 1e-9
    app.Options()->SetStringValue("warm_start_init_point", "yes");
    for (const char* push :
         {"warm_start_bound_push", "warm_start_bound_frac", "warm_start_slack_bound_push",
          "warm_start_slack_bound_frac", "warm_start_mult_bound_push"})
      app.Options()->SetNumericValue(push, 1e-9);
  }
}

}  // namespace

VecX solve_with_ipopt(EstimationNlp& problem, const JointEstimationOptions& options,
                      const VecX& start, JointEstimationResult& result, IpoptWarmStart warm) {
  const bool warm_start = warm.lambda.size() > 0;
  Ipopt::SmartPtr<IpoptAdaptor> nlp =
      new IpoptAdaptor(problem, start, std::move(warm), options.progress);
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  set_options(*app, options, warm_start);
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
  return nlp->solution().size() == problem.num_variables() ? nlp->solution() : VecX();
}

}  // namespace tendril::fit::detail
