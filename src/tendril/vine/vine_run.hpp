#pragma once
/// A vine scene's run as an io::Stepper (io/stepper.hpp): the stepper and state of a VineScene,
/// stepped `vine.steps` times, its frames saved every `vine.save_every` steps, driven by io::run
/// as a rod or shell simulation is. The run directory (kind "vine") holds the arrays listed at
/// run_vine (vine_scene.hpp) and qp_warm_start (run_restart.hpp).

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tendril/io/stepper.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

class VineRun : public io::Stepper {
 public:
  /// Builds the stepper (InputError for a bad model) and starts from the scene's initial state and
  /// QP warm start.
  explicit VineRun(VineScene scene);

  const VineScene& scene() const { return scene_; }
  const VineModel& model() const { return stepper_.model(); }
  const VineStepper& stepper() const { return stepper_; }
  const VineState& state() const { return state_; }
  /// Mutable state for front ends that write q or v between steps (Python's numpy views); the
  /// storage of q and v never moves.
  VineState& state() { return state_; }

  /// One step with the growth rate of the scene's schedule, counted only if it succeeded (a solved
  /// QP, no joint drift or energy blow-up, which leave the state as it was, and a finite state and
  /// impulses); otherwise the report's message says why ("step 12 at t = ...: ...").
  VineStepReport step();
  /// The same with per-prismatic-joint growth rates u_j [m/s] (#prismatic).
  VineStepReport step(const VecX& joint_rates);

  io::StepSummary advance() override;
  double time() const override { return state_.time; }
  long steps() const override { return steps_; }
  long total_steps() const override { return scene_.steps; }
  /// vine.steps dt [s] (a restarted run starts at its frame's time and runs as long).
  double duration() const override;
  long total_frames() const override { return 1 + scene_.steps / scene_.save_every; }
  std::string_view iterations_name() const override { return "contact iterations"; }
  std::string_view kind() const override { return "vine"; }
  const io::Json& resolved_scene() const override { return scene_.resolved; }
  std::unique_ptr<io::RunRecord> begin_record(io::RunDirectory& run) override;
  /// Starts from a saved frame of a vine run, as `vine.initial_state.run` and `.frame` do
  /// (InputError at those keys); the steps are then counted from it.
  void restore(const std::filesystem::path& run_dir, long frame) override;

  /// The commanded total growth rate u of the last step [m/s].
  double last_growth_command() const { return command_; }
  const VineStepReport& last_report() const { return report_; }
  /// Normal impulse of every (contact element, obstacle) pair at the last step, element-major
  /// [N s].
  const std::vector<double>& last_normal_impulses() const { return normal_; }

 private:
  /// Checks the step just taken and counts it if it succeeded.
  VineStepReport finish_step(const VineStepReport& report);

  VineScene scene_;
  VineStepper stepper_;
  VineState state_;
  long steps_ = 0;
  VineStepReport report_;
  double command_ = 0.0;  ///< [m/s]
  std::vector<double> normal_;
};

}  // namespace tendril::vine
