#pragma once
/// The Simulation facade (ARCHITECTURE principle 8): one object that front ends (CLI, Python,
/// fitting) use to build a rod simulation from a scene, step it and write a run directory.
///
///   auto sim = sim::Simulation::from_file("examples/cantilever_gravity.yaml", {"duration=0.1"});
///   sim::RunResult r = sim.run("runs/cantilever");   // writes "tendril-run 2"
///   (docs/output_format.md)
///
/// A step that fails (after the integrator's own dt halving) ends run(): the partial run directory
/// is kept as "<out>.failed" with status "failed" and the reason, and RunResult::ok is false.
/// Simulation is an io::Stepper: run() is io::run(*this, ...), the path every run takes.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tendril/contact/contact_parameters.hpp"
#include "tendril/core/model_workspace.hpp"
#include "tendril/core/state.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/integrate/step_report.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/sim/restart_state.hpp"
#include "tendril/sim/robot_observables.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::sim {

using Progress = io::RunProgress;
using io::RunResult;

class Simulation : public io::Stepper {
 public:
  /// Builds the stepper (or static solver) for a loaded scene and sets the initial State.
  explicit Simulation(RodScene scene);
  /// Loads a scene file with "key.path=value" overrides (InputError on bad input).
  static Simulation from_file(const std::filesystem::path& file,
                              const std::vector<std::string>& overrides = {});

  const RodScene& scene() const { return *scene_; }
  const Model& model() const { return scene_->model; }
  /// Mutable model for actuation between steps (natural curvature / twist); not its topology.
  Model& model() { return scene_->model; }
  const State& state() const { return state_; }
  /// Mutable state for front ends that write q or u between steps (Python's numpy views). The
  /// storage of q and u never moves: step() copies into it, so a pointer to q.data() stays valid.
  State& state() { return state_; }
  /// The workspaces of the model's terms for this simulation (core/model_workspace.hpp): the
  /// contact terms' candidate pairs, the element values of the threaded evaluation. The Model's
  /// terms are read-only: several Simulations of one Model may step on several threads.
  const ModelWorkspace& workspace() const { return *workspace_; }
  /// The robot observables recorded at every step, or null if the scene has no `observables`.
  const RobotObservables* observables() const { return observables_.get(); }

  long steps_taken() const { return steps_; }
  long steps() const override { return steps_; }
  /// Steps of a full run: ceil(T / dt) (the last one shortened to end at T); 1 for a static solve
  /// at T = 0.
  long total_steps() const override { return total_steps_; }
  double time() const override { return state_.time; }
  double duration() const override { return scene_->duration; }
  /// The initial and last frames, and one per output interval (every step if it is not longer
  /// than dt) or every output.every_steps steps.
  long total_frames() const override;
  std::string_view iterations_name() const override { return "Newton iterations"; }

  /// One time step, or one quasi-static solve at the next time. On failure the State is unchanged.
  StepReport step();
  /// step() as the run loop sees it: the failure message with the step number and status, and
  /// whether the output schedule saves the state reached.
  io::StepSummary advance() override;
  /// The report of the last step and the time it started from [s] (the run record's step rows).
  const StepReport& last_report() const { return last_report_; }
  double last_step_start() const { return last_step_start_; }

  /// Energy of every term at the current state (rest quantities actuated at its time), named by
  /// Energy::name(), then "kinetic" (u^T M u / 2) [J].
  std::vector<std::pair<std::string, double>> energies() const;

  /// Work done on the model by its ForceTerms (point loads and moments, drag, custom forces) since
  /// t = 0, summed over the steps by the trapezoidal rule W += (F_k + F_{k+1}) . (q_{k+1} - q_k) /
  /// 2 [J]. Loads that are Energy terms (gravity) are in energies() as potentials instead. Saved
  /// per frame as the run array `work_of_forces`.
  double work_of_forces() const { return work_of_forces_; }

  /// Reaction forces at the fixed DOFs (reaction_dofs()) at the current state: the generalised
  /// force the supports exert on the model, R = dE/dq - F + M a [N for positions, N m for twists],
  /// with rest quantities actuated at the state's time and a = (u - u_before) / dt of the last step
  /// (0 at t = 0 and in static solves). docs/output_format.md.
  VecX reactions() const;
  /// The fixed DOFs, in increasing order (#fixed): 3 n + c for component c of node n, 3 N + e for
  /// twist e.
  const std::vector<int>& reaction_dofs() const { return reaction_dofs_; }

  /// Contacts of every contact energy at the current state: the number with gap below delta and the
  /// smallest gap [m] (+inf without contact terms or close pairs). docs/physics/contact.md.
  contact::ContactStatistics contact_statistics() const;
  /// Contact force on every node at the current state (#nodes x 3, flattened) [N]: minus the
  /// contact energies' gradient plus the contact friction forces, on the position DOFs. Saved per
  /// frame as the run array `contact_forces`.
  VecX contact_forces() const;
  /// True if the model has a contact energy (the run then saves contact arrays).
  bool has_contact() const;

  /// Runs the remaining steps (io::run); writes a run directory to `out` unless `out` is empty.
  /// `progress` is called after every step.
  RunResult run(const std::filesystem::path& out,
                const std::function<void(const Progress&)>& progress = {});

  std::string_view kind() const override { return "rod"; }
  const io::Json& resolved_scene() const override { return scene_->resolved; }
  /// The arrays of sim/rod_run_record.hpp.
  std::unique_ptr<io::RunRecord> begin_record(io::RunDirectory& run) override;
  /// What a saved frame keeps to continue from it (restart_state.hpp).
  RestartRecord restart_record() const {
    return {steps_, work_of_forces_, state_, forces_, workspace_->carried_values(scene_->model)};
  }
  /// Continues from a saved frame (the scene's `restart.run` and `restart.frame` do this when it is
  /// built); InputError at `restart` for a scene with observables (their history is not saved),
  /// a run of another scene or a frame past the scene's duration.
  void restore(const std::filesystem::path& run_dir, long frame) override;

 private:
  std::unique_ptr<RodScene>
      scene_;  ///< owned on the heap: the steppers keep a reference to its Model
  std::unique_ptr<ModelWorkspace> workspace_;  ///< on the heap too: the steppers keep a reference
  State state_;
  std::unique_ptr<TimeStepper> stepper_;
  std::unique_ptr<StaticSolver> static_solver_;
  std::unique_ptr<RobotObservables> observables_;
  long steps_ = 0;
  long total_steps_ = 0;
  Kinematics kin_;  ///< record_observables' kinematics when it is given none
  std::vector<int> reaction_dofs_;
  VecX
      acceleration_;  ///< (u - u_before) / dt of the last step; zero at t = 0 and for static solves
  VecX
      forces_;  ///< sum of the ForceTerms at the current state (#dofs; empty before the first step)
  double work_of_forces_ = 0.0;  ///< [J]
  StepReport last_report_;
  double last_step_start_ = 0.0;  ///< [s]
  /// Sum of the ForceTerms' forces at the current state, rest quantities actuated at its time.
  VecX force_terms() const;
  /// At the current state, rest quantities actuated at its time: each term's energy and the kinetic
  /// energy (appended to `energies`), dE/dq (`gradient`) and the ForceTerms' sum (`force`); null:
  /// skipped.
  void evaluate(std::vector<std::pair<std::string, double>>* energies, VecX* gradient,
                VecX* force) const;
  /// Records the current state in observables_ (if any), with `kin` (the kinematics at the current
  /// state) or, when null, kinematics computed here.
  void record_observables(const Kinematics* kin = nullptr);
};

}  // namespace tendril::sim
