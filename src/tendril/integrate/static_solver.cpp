#include "tendril/integrate/static_solver.hpp"

#include <array>

#include <fmt/format.h>

#include "tendril/core/actuator.hpp"
#include "tendril/core/disjoint_sets.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/core/term.hpp"

namespace tendril {
namespace {

const NewtonOptions& validated(const StaticOptions& options) {
  options.validate();
  return options.newton;
}

/// The translation of each connected part (through the coupling pattern) along each axis that has
/// no fixed DOF in that part: ones on the part's free position DOFs along the axis.
void find_free_translations(const Model& model, const SparseMatrix& pattern,
                            std::vector<VecX>& modes, std::vector<std::string>& names) {
  const int num_nodes = model.dofs.num_nodes;
  const int position_dofs = 3 * num_nodes;
  // the node a DOF belongs to: position DOFs by index, twists and xi by their edge's first node
  auto node_of = [&](int d) {
    if (model.dofs.is_position(d)) return d / 3;
    if (model.dofs.is_twist(d)) return model.rods.edges[d - position_dofs][0];
    if (model.dofs.is_joint_twist(d))
      return model.shells.joint_edges[d - model.dofs.joint_twist(0)][0];
    return model.shells.edges[model.shells.xi_edge[d - model.dofs.xi(0)]][0];
  };
  DisjointSets parts(num_nodes);
  for (int c = 0; c < pattern.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(pattern, c); it; ++it)
      parts.merge_into(node_of(c), node_of(static_cast<int>(it.row())));
  std::vector<std::array<bool, 3>> restrained(num_nodes, {false, false, false});
  for (int i = 0; i < num_nodes; ++i)
    for (int a = 0; a < 3; ++a)
      if (model.fixed[3 * i + a]) restrained[parts.find(i)][a] = true;
  for (int root = 0; root < num_nodes; ++root) {
    if (parts.find(root) != root) continue;
    for (int a = 0; a < 3; ++a) {
      if (restrained[root][a]) continue;
      VecX mode = VecX::Zero(model.dofs.size());
      for (int i = 0; i < num_nodes; ++i)
        if (parts.find(i) == root) mode[3 * i + a] = 1.0;
      modes.push_back(std::move(mode));
      names.push_back("the part containing node " + std::to_string(root) + " along " + "xyz"[a]);
    }
  }
}

}  // namespace

StaticSolver::StaticSolver(const Model& model, const StaticOptions& options, VecX q_initial,
                           ModelWorkspace* workspace)
    : model_(model),
      path_model_(model),
      target_model_(model.actuators.empty() ? Model() : model),
      options_(options),
      q_initial_(std::move(q_initial)),
      system_(path_model_, validated(options), workspace) {
  const int n = model.dofs.size();
  TENDRIL_ASSERT(q_initial_.size() == n, "q_initial must have one entry per DOF");
  for (std::size_t m = 0; m < model.prescribed.size(); ++m)
    for (int d : model.prescribed[m].dofs) {
      if (d < 0 || d >= n || !model.fixed[d])
        throw InputError("prescribed[" + std::to_string(m) + "].dofs", std::to_string(d),
                         "indices of fixed DOFs");
      prescribed_dofs_.push_back(d);
    }
  find_free_translations(model, system_.pattern(), translations_, translation_names_);
  rest_offset_.push_back(0);
  for (const auto& energy : model.energies)
    rest_offset_.push_back(rest_offset_.back() + energy->rest_state_size(model));
  start_rest_.resize(rest_offset_.back());
  path_rest_.resize(rest_offset_.back());
}

void StaticSolver::start_path(const State& state) {
  // the caller's rod data (stiffnesses, rest shape) as it is now; vectors keep their storage
  path_model_.rods = model_.rods;
  start_q_ = state.q;
  path_end_time_ = state.time;
  // the prescribed DOFs follow their motions from the last solved time; any offset of q_s from the
  // motion there (a state set by hand) fades out linearly
  motion_q_ = state.q;
  for (const PrescribedMotion& motion : model_.prescribed)
    motion.apply(last_time_, q_initial_, motion_q_);
  start_offset_ = start_q_ - motion_q_;

  // the rest state at which q_s is stress-free (Energy::stress_free_rest_state), measured with
  // the frames of the state
  Kinematics& kin = system_.kinematics();
  compute_kinematics(model_, state.frames, state.q, kin);
  for (std::size_t t = 0; t < model_.energies.size(); ++t)
    model_.energies[t]->stress_free_rest_state(model_, kin, state.q, rest_part(start_rest_, t));
}

std::span<double> StaticSolver::rest_part(std::vector<double>& values, std::size_t energy) const {
  return std::span<double>(values).subspan(rest_offset_[energy],
                                           rest_offset_[energy + 1] - rest_offset_[energy]);
}

void StaticSolver::set_path_point(double lambda, VecX& y) {
  // rest state: (1 - lambda) stress-free at q_s + lambda Model; exactly the Model's at lambda = 1
  const double mu = 1.0 - lambda;
  // the path's time: from the last solved time to state.time, like the prescribed motions
  const double time = last_time_ + lambda * (path_end_time_ - last_time_);
  const Model* target = &model_;
  if (!model_.actuators.empty()) {
    actuated_rods(model_, time, target_model_.rods);
    target = &target_model_;
    // natural hinge angles follow their schedules along the path's time
    actuated_hinges(model_, time, path_model_.shells.hinges);
  }
  for (std::size_t t = 0; t < model_.energies.size(); ++t) {
    const Energy& energy = *model_.energies[t];
    const std::span<double> start = rest_part(start_rest_, t), path = rest_part(path_rest_, t);
    if (path.empty()) continue;
    energy.get_rest_state(*target, path);
    for (std::size_t i = 0; i < path.size(); ++i) path[i] = mu * start[i] + lambda * path[i];
    energy.set_rest_state(path, path_model_);
  }
  // prescribed DOFs along their motions, from the last solved time to state.time
  if (prescribed_dofs_.empty()) return;
  for (const PrescribedMotion& motion : model_.prescribed)
    motion.apply(time, q_initial_, motion_q_);
  for (int d : prescribed_dofs_) y[d] = motion_q_[d] + mu * start_offset_[d];
}

std::string StaticSolver::unbalanced_rigid_mode(const NewtonProblem& problem) {
  if (translations_.empty() || !system_.evaluate(problem, y_, true)) return {};
  const SparseMatrix& J = system_.jacobian();
  const VecX& f = system_.residual();
  for (std::size_t m = 0; m < translations_.size(); ++m) {
    const VecX& t = translations_[m];
    // a null mode of J (translation-invariant energies) along which the loads do not balance: every
    // row of J t within 1e-10 of that row's own scale |J| |t| (a global scale, such as the largest
    // diagonal, would call a weak anchor a null mode whenever a stiff part sits elsewhere)
    const VecX jt = J * t;
    const VecX scale = J.cwiseAbs() * t.cwiseAbs();
    bool null_mode = true;
    for (Eigen::Index i = 0; i < jt.size() && null_mode; ++i)
      null_mode = std::abs(jt[i]) <= 1e-10 * scale[i];
    const double push = std::abs(f.dot(t)) / t.norm();
    if (null_mode && push > 1e-8 * f.norm())
      return "static solve: " + translation_names_[m] +
             " is a free rigid-body translation (no fixed DOF along it) and the loads do not "
             "balance along it "
             "(net force " +
             number_text(push) +
             " N): no equilibrium exists and the stiffness matrix is "
             "singular; fix at least one DOF per direction in each connected part";
  }
  return {};
}

StaticReport StaticSolver::solve(State& state) {
  const int n = model_.dofs.size();
  TENDRIL_ASSERT(state.q.size() == n, "State q must have one entry per DOF");
  StaticReport report;
  // stencils that follow the state (contact pairs); the parts a pattern connects may change with
  // them
  if (system_.update_stencils(state)) {
    translations_.clear();
    translation_names_.clear();
    find_free_translations(model_, system_.pattern(), translations_, translation_names_);
  }
  start_path(state);
  y_ = state.q;
  frames_ = state.frames;

  NewtonProblem problem;
  problem.time = state.time;
  problem.frames = &frames_;

  double reached = 0.0;
  double increment = 1.0 / options_.initial_load_steps;
  const double min_increment = 1.0 / options_.max_load_steps;
  while (reached < 1.0) {
    const double target = std::min(1.0, reached + increment);
    problem.load_factor = target;
    stage_start_ = y_;
    set_path_point(target, y_);
    if (std::string why = unbalanced_rigid_mode(problem); !why.empty()) {
      report.status = StepStatus::singular_system;
      report.message = std::move(why);
      report.load_factor = reached;
      return report;
    }
    StepReport stage = system_.solve(problem, y_);
    report.iterations += stage.iterations;
    report.regularized_iterations += stage.regularized_iterations;
    report.chord_iterations += stage.chord_iterations;
    report.factorizations += stage.factorizations;
    report.take_last_solve(stage);
    if (stage.ok()) {
      reached = target;
      ++report.load_stages;
      compute_kinematics(path_model_, frames_, y_, system_.kinematics());
      accept_frames(system_.kinematics(), frames_);
      // a stage that converged in few iterations lets the next increment grow back
      if (stage.iterations <= options_.newton.max_iterations / 4) increment *= 2.0;
      continue;
    }
    y_ = stage_start_;
    increment *= 0.5;
    if (increment < min_increment * (1.0 - 1e-12)) {
      report.status = stage.status;
      report.message =
          fmt::format(
              "static solve failed at load factor {:.4g} (converged up to {:.4g}, smallest "
              "increment {:.3g}): ",
              target, reached, 2.0 * increment) +
          stage.message;
      report.load_factor = reached;
      return report;
    }
  }
  report.load_factor = 1.0;
  last_time_ = state.time;
  state.q = y_;
  state.u.setZero(n);
  state.frames = frames_;
  return report;
}

}  // namespace tendril
