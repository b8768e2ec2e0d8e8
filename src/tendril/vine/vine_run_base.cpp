#include "tendril/vine/vine_run_base.hpp"

namespace tendril::vine {

VineStepRows::VineStepRows(io::RunDirectory& run, const StepRowDocs& docs,
                           const std::function<void()>& own) {
  const auto add = [&](const char* name, io::NpyType type, const char* unit, const char* doc) {
    return &run.add_array(name, type, {}, unit, doc, "step");
  };
  time_ = add("step_time", io::NpyType::Float64, "s", "time at the end of each step");
  status_ =
      add("step_status", io::NpyType::Int64, "-",
          "QP status: 0 solved, 1 infeasible, 2 unbounded, 3 max iterations, 4 numerical failure");
  iterations_ = add("step_qp_iterations", io::NpyType::Int64, "-", "QP iterations");
  kkt_ = add("step_kkt_residual", io::NpyType::Float64, "-", "scaled KKT residual");
  joint_ = add("step_joint_error", io::NpyType::Float64, "m", docs.joint_error);
  min_distance_ = add("step_min_distance", io::NpyType::Float64, "m", docs.min_distance);
  if (own) own();
  growth_ = add("growth_rate", io::NpyType::Float64, "m/s", "commanded total growth rate u");
  achieved_ = add("achieved_growth_rate", io::NpyType::Float64, "m/s", docs.achieved);
  wall_ = add("step_wall_time", io::NpyType::Float64, "s", "wall-clock time of the step");
  active_ = add("step_active_contacts", io::NpyType::Int64, "-", docs.active);
}

}  // namespace tendril::vine
