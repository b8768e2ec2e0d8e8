#include "tendril/integrate/step_report.hpp"

namespace tendril {

std::string_view to_string(StepStatus status) {
  switch (status) {
    case StepStatus::converged:
      return "converged";
    case StepStatus::max_iterations:
      return "max_iterations";
    case StepStatus::line_search_failed:
      return "line_search_failed";
    case StepStatus::non_finite:
      return "non_finite";
    case StepStatus::linear_solve_failed:
      return "linear_solve_failed";
    case StepStatus::singular_system:
      return "singular_system";
  }
  return "unknown";
}

std::string_view to_string(StopCriterion criterion) {
  switch (criterion) {
    case StopCriterion::none:
      return "none";
    case StopCriterion::residual:
      return "residual";
    case StopCriterion::round_off:
      return "round_off";
    case StopCriterion::relative_residual:
      return "relative_residual";
    case StopCriterion::velocity_change:
      return "velocity_change";
  }
  return "unknown";
}

}  // namespace tendril
