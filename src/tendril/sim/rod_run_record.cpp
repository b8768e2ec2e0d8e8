#include "tendril/sim/rod_run_record.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tendril::sim {

namespace {

/// info.step_status_codes and info.step_criterion_codes: the names of the per-step codes.
void set_step_code_names(io::RunDirectory& run) {
  io::Json codes = io::Json::object();
  for (int c = 0; c <= static_cast<int>(StepStatus::singular_system); ++c)
    codes[std::to_string(c)] = std::string(to_string(static_cast<StepStatus>(c)));
  run.set_info("step_status_codes", std::move(codes));
  io::Json criteria = io::Json::object();
  for (int c = 0; c <= static_cast<int>(StopCriterion::velocity_change); ++c)
    criteria[std::to_string(c)] = std::string(to_string(static_cast<StopCriterion>(c)));
  run.set_info("step_criterion_codes", std::move(criteria));
}

/// Lists of index lists as JSON arrays of arrays.
template <class Rows>
io::Json int_rows(const Rows& rows) {
  io::Json json = io::Json::array();
  for (const auto& row : rows) {
    io::Json list = io::Json::array();
    for (int i : row) list.push_back(i);
    json.push_back(std::move(list));
  }
  return json;
}

/// The run's topology in info: node and edge counts, edges, each rod's nodes, the fixed DOFs whose
/// reactions are saved; for shells (format version 2) the triangles, each shell's nodes, the shell
/// edge of each xi and the shell edges at rod-shell joints.
void set_topology_info(io::RunDirectory& run, const RodScene& s,
                       const std::vector<int>& reaction_dofs) {
  const Model& m = s.model;
  run.set_info("num_nodes", static_cast<std::size_t>(m.dofs.num_nodes));
  run.set_info("num_edges", static_cast<std::size_t>(m.dofs.num_edges));
  run.set_info("edges", int_rows(m.rods.edges));
  run.set_info("rod_nodes", int_rows(s.rod_nodes));
  io::Json fixed = io::Json::array();
  for (int d : reaction_dofs) fixed.push_back(d);
  run.set_info("reaction_dofs", std::move(fixed));
  if (!m.shells.triangles.empty()) {
    run.set_info("triangles", int_rows(m.shells.triangles));
    run.set_info("shell_nodes", int_rows(s.shell_nodes));
    std::vector<std::array<int, 2>> xi_edges;
    for (int k : m.shells.xi_edge) xi_edges.push_back(m.shells.edges[static_cast<std::size_t>(k)]);
    run.set_info("xi_edges", int_rows(xi_edges));
  }
  if (m.dofs.num_joint_edges > 0) run.set_info("joint_edges", int_rows(m.shells.joint_edges));
}

}  // namespace

RodRunRecord::RodRunRecord(io::RunDirectory& run, const Simulation& simulation)
    : run_(run), sim_(simulation) {
  add_state_arrays();
  if (sim_.observables()) add_observable_arrays();
  frame_state_.emplace(run_, sim_.restart_record());
  if (!sim_.reaction_dofs().empty())
    reactions_ = &run_.add_array(
        "reactions", io::NpyType::Float64, {sim_.reaction_dofs().size()}, "N, N m",
        "reaction forces at the fixed DOFs (info.reaction_dofs): R = dE/dq - F + M a");
  if (sim_.has_contact()) add_contact_arrays();
  add_step_arrays();
  set_step_code_names(run_);
  set_topology_info(run_, sim_.scene(), sim_.reaction_dofs());
  const DofMap& d = sim_.model().dofs;
  const auto z = static_cast<std::size_t>(d.num_shell_edges);
  const auto nj = static_cast<std::size_t>(d.num_joint_edges);
  if (z > 0)
    xi_ = &run_.add_array("xi", io::NpyType::Float64, {z}, "-",
                          "mid-edge normal DOFs xi_k (info.xi_edges)");
  if (nj > 0)
    joint_twists_ =
        &run_.add_array("joint_twists", io::NpyType::Float64, {nj}, "rad",
                        "twist angles of the shell edges at rod-shell joints (info.joint_edges)");
}

void RodRunRecord::add_state_arrays() {
  const DofMap& d = sim_.model().dofs;
  const auto n = static_cast<std::size_t>(d.num_nodes);
  const auto e = static_cast<std::size_t>(d.num_edges);
  const auto terms = sim_.energies();
  frame_time_ =
      &run_.add_array("frame_time", io::NpyType::Float64, {}, "s", "time of each saved frame");
  positions_ =
      &run_.add_array("positions", io::NpyType::Float64, {n, 3}, "m", "node positions x_i");
  twists_ =
      &run_.add_array("twists", io::NpyType::Float64, {e}, "rad", "edge twist angles theta_e");
  velocities_ =
      &run_.add_array("velocities", io::NpyType::Float64, {n, 3}, "m/s", "node velocities dx_i/dt");
  energies_ = &run_.add_array("energies", io::NpyType::Float64, {terms.size()}, "J",
                              "energy of each term (names in info.energy_terms)");
  io::Json names = io::Json::array();
  for (const auto& t : terms) names.push_back(t.first);
  run_.set_info("energy_terms", std::move(names));
}

void RodRunRecord::add_observable_arrays() {
  robot_position_ = &run_.add_array("robot_position", io::NpyType::Float64, {}, "m",
                                    "position of the head edge's midpoint along observables.axis");
  head_angle_ =
      &run_.add_array("head_angle", io::NpyType::Float64, {}, "rad",
                      "spin angle of the head edge's material frame about the axis (unwrapped)");
  tail_angle_ = &run_.add_array(
      "tail_angle", io::NpyType::Float64, {}, "rad",
      "spin angle of observables.tail_edge's material frame about the axis (unwrapped)");
}

void RodRunRecord::add_contact_arrays() {
  const auto n = static_cast<std::size_t>(sim_.model().dofs.num_nodes);
  contact_active_ = &run_.add_array("contact_active", io::NpyType::Int64, {}, "-",
                                    "contacts with gap below delta (nodes on obstacles + edge "
                                    "pairs + node-triangle pairs)");
  contact_min_gap_ = &run_.add_array("contact_min_gap", io::NpyType::Float64, {}, "m",
                                     "smallest contact gap (negative: overlap; inf: nothing near)");
  contact_forces_ = &run_.add_array("contact_forces", io::NpyType::Float64, {n, 3}, "N",
                                    "contact force on each node (normal and friction)");
}

void RodRunRecord::add_step_arrays() {
  step_time_ = &run_.add_array("step_time", io::NpyType::Float64, {}, "s",
                               "time at the end of each step", "step");
  step_dt_ = &run_.add_array("step_dt", io::NpyType::Float64, {}, "s",
                             "time step used (after halving)", "step");
  step_substeps_ = &run_.add_array("step_substeps", io::NpyType::Int64, {}, "-",
                                   "substeps that covered the step (1 without halving)", "step");
  step_iterations_ = &run_.add_array("step_iterations", io::NpyType::Int64, {}, "-",
                                     "Newton iterations of the step", "step");
  step_residual_ = &run_.add_array("step_residual", io::NpyType::Float64, {}, "N",
                                   "final force residual norm", "step");
  step_wall_ = &run_.add_array("step_wall_time", io::NpyType::Float64, {}, "s",
                               "wall-clock time of the step", "step");
  step_status_ = &run_.add_array("step_status", io::NpyType::Int64, {}, "-",
                                 "0 converged; see info.step_status_codes", "step");
  step_criterion_ = &run_.add_array(
      "step_criterion", io::NpyType::Int64, {}, "-",
      "what ended the step's last Newton solve; see info.step_criterion_codes", "step");
}

void RodRunRecord::save_frame() {
  const State& state = sim_.state();
  const DofMap& d = sim_.model().dofs;
  const auto n = static_cast<std::size_t>(d.num_nodes);
  io::append_scalar(*frame_time_, state.time);
  positions_->append(std::span<const double>(state.q.data(), 3 * n));
  twists_->append(
      std::span<const double>(state.q.data() + 3 * n, static_cast<std::size_t>(d.num_edges)));
  velocities_->append(std::span<const double>(state.u.data(), 3 * n));
  if (xi_)
    xi_->append(std::span<const double>(state.q.data() + d.xi(0),
                                        static_cast<std::size_t>(d.num_shell_edges)));
  if (joint_twists_)
    joint_twists_->append(std::span<const double>(state.q.data() + d.joint_twist(0),
                                                  static_cast<std::size_t>(d.num_joint_edges)));
  std::vector<double> values;
  for (const auto& term : sim_.energies()) values.push_back(term.second);
  energies_->append(values);
  if (sim_.observables()) save_observables();
  frame_state_->append(sim_.restart_record());
  if (reactions_) {
    const VecX r = sim_.reactions();
    reactions_->append(std::span<const double>(r.data(), static_cast<std::size_t>(r.size())));
  }
  if (contact_active_) save_contacts();
}

void RodRunRecord::save_observables() {
  const RobotObservables& o = *sim_.observables();
  io::append_scalar(*robot_position_, o.position());
  io::append_scalar(*head_angle_, o.head_angle());
  io::append_scalar(*tail_angle_, o.tail_angle());
}

void RodRunRecord::save_contacts() {
  const contact::ContactStatistics stats = sim_.contact_statistics();
  io::append_scalar(*contact_active_, static_cast<std::int64_t>(stats.active));
  io::append_scalar(*contact_min_gap_, stats.min_gap);
  const VecX f = sim_.contact_forces();
  contact_forces_->append(std::span<const double>(f.data(), static_cast<std::size_t>(f.size())));
}

void RodRunRecord::write_step(double wall_time) {
  const StepReport& report = sim_.last_report();
  io::append_scalar(*step_time_, report.ok() ? sim_.state().time : sim_.last_step_start());
  io::append_scalar(*step_dt_, report.dt);
  io::append_scalar(*step_substeps_, static_cast<std::int64_t>(report.substeps));
  io::append_scalar(*step_iterations_, static_cast<std::int64_t>(report.iterations));
  io::append_scalar(*step_residual_, report.final_residual());
  io::append_scalar(*step_wall_, wall_time);
  io::append_scalar(*step_status_, static_cast<std::int64_t>(report.status));
  io::append_scalar(*step_criterion_, static_cast<std::int64_t>(report.criterion));
}

void RodRunRecord::before_end() {
  const RobotObservables* observables = sim_.observables();
  if (!observables) return;
  const RobotObservables::Summary o = observables->summary();
  io::Json j = io::Json::object();
  for (const auto& [name, value] : RobotObservables::named_values(o)) j[name] = value;
  j["steady_start"] = o.steady_start;
  j["samples"] = o.samples;
  const Vec3& axis = observables->spec().axis;
  j["axis"] = io::Json(io::Json::Array{axis.x(), axis.y(), axis.z()});
  run_.set_info("observables", std::move(j));
}

}  // namespace tendril::sim
