#pragma once
/// The outcome of one time step or static solve (ARCHITECTURE principle 5): numerical failure is a
/// status the caller handles, never an exception and never a silently wrong State.

#include <string>
#include <string_view>
#include <vector>

namespace tendril {

enum class StepStatus {
  converged,            ///< force residual or Newton step below tolerance
  max_iterations,       ///< Newton did not converge within NewtonOptions::max_iterations
  line_search_failed,   ///< no step fraction >= LineSearchOptions::min_step decreased the merit
                        ///< function
  non_finite,           ///< NaN/Inf in forces, energies or the Newton step
  linear_solve_failed,  ///< the Newton matrix could not be factorized even after diagonal shifts
  singular_system,      ///< unrestrained rigid-body modes make the static problem singular
};

std::string_view to_string(StepStatus status);

/// Which test ended a converged Newton solve (NewtonOptions, docs/physics/time_integration.md).
enum class StopCriterion {
  none,  ///< not converged
  /// ||f_free|| <= the force tolerance (StoppingRule::dismech: ||f_free|| < tol before the last
  /// update)
  residual,
  round_off,  ///< a negligible Newton step, and the residual within its round-off floor up to the
              ///< tolerance
  /// StoppingRule::dismech: the residual before the last update below ftol times the initial
  /// residual
  relative_residual,
  /// StoppingRule::dismech: the last update changed no velocity by dtol or more
  velocity_change,
};

std::string_view to_string(StopCriterion criterion);

struct StepReport {
  StepStatus status = StepStatus::converged;
  int iterations = 0;  ///< Newton iterations (linear solves) over all attempts and substeps
  std::vector<double>
      residual_history;  ///< ||f_free||_2 [N] at each accepted iterate of the last Newton solve
  std::vector<double>
      line_search_steps;  ///< step fraction alpha of each iteration of the last Newton solve
  double dt = 0.0;        ///< smallest (sub)step used [s]; 0 for a static solve
  int dt_halvings = 0;    ///< how many times dt was halved within the step
  int substeps = 0;       ///< converged substeps that covered the step (1 without halving)
  int regularized_iterations =
      0;  ///< iterations whose matrix needed a diagonal shift (indefinite/singular)
  /// iterations (counted in `iterations`) that solved with an earlier iterate's factorization
  /// (NewtonOptions::chord_contraction)
  int chord_iterations = 0;
  /// factorizations of the Newton matrix over all attempts and substeps (one per fresh iteration,
  /// more when diagonal shifts were tried; none for chord iterations)
  int factorizations = 0;
  StopCriterion criterion =
      StopCriterion::none;  ///< what ended the last Newton solve (none if it failed)
  double tolerance = 0.0;   ///< the force tolerance at the last iterate of the last solve [N]
  /// ||(|f_i| - phi_i)_+|| at the last negligible step [N], phi the round-off floor (0 if none)
  double round_off_excess = 0.0;
  /// the linear solver of the last Newton solve's factorizations (LinearSolver::name():
  /// "banded_ldlt", "sparse_ldlt", "banded_lu", "sparse_lu"); empty when it factorized nothing (no
  /// free DOF)
  std::string_view linear_solver;
  std::string message;  ///< what happened, in words (empty when converged plainly)

  bool ok() const { return status == StepStatus::converged; }
  /// Takes the details of the last Newton solve (`solve`: one attempt, substep or load stage):
  /// residual history and line-search steps (moved out of `solve`), criterion, tolerance and
  /// round-off excess.
  void take_last_solve(StepReport& solve) {
    residual_history = std::move(solve.residual_history);
    line_search_steps = std::move(solve.line_search_steps);
    criterion = solve.criterion;
    tolerance = solve.tolerance;
    round_off_excess = solve.round_off_excess;
    // (a last solve that started converged factorized nothing: the solver of the one before stands)
    if (!solve.linear_solver.empty()) linear_solver = solve.linear_solver;
  }
  /// ||f_free|| at the last accepted iterate, or 0 if none was recorded.
  double final_residual() const { return residual_history.empty() ? 0.0 : residual_history.back(); }
};

}  // namespace tendril
