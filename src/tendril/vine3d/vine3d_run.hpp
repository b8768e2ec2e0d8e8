#pragma once
/// A 3D vine scene's run as an io::Stepper (io/stepper.hpp): the stepper and state of a
/// Vine3dScene, stepped `vine3d.steps` times, its frames saved every `vine3d.save_every` steps,
/// driven by io::run as every other run (progress, stop signals, failed and interrupted runs,
/// restarts). The run directory (kind "vine3d", docs/output_format.md) holds, for F saved frames,
/// S steps and n bodies:
///   frame_time (F) [s], body_position (F, n, 3) [m], body_orientation (F, n, 4) (unit quaternion
///   w, x, y, z, body to world), body_velocity (F, n, 6) [m/s, rad/s] (v, omega in the world
///   frame), centerline (F, n + 1, 3) [m] (base, proximal ends of bodies 1..n-1, tip),
///   qp_warm_start (F, ...), step_time (S) [s], step_status (S), step_qp_iterations (S),
///   step_kkt_residual (S), step_joint_error (S) [m], step_min_distance (S) [m], growth_rate (S)
///   [m/s], achieved_growth_rate (S) [m/s], step_wall_time (S) [s], step_active_contacts (S).
/// The obstacles are in the scene record (run.json "scene").

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tendril/io/stepper.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {

/// The joint points of a state: the base, the proximal end of bodies 1..n-1 and the tip (#bodies
/// + 1) [m].
std::vector<Vec3> centerline_points(const Vine3dModel& model, const Vine3dState& state);

class Vine3dRun : public io::Stepper {
 public:
  /// Builds the stepper (InputError for a bad model) and starts from the scene's initial state and
  /// QP warm start.
  explicit Vine3dRun(Vine3dScene scene);

  const Vine3dScene& scene() const { return scene_; }
  const Vine3dModel& model() const { return stepper_.model(); }
  const Vine3dStepper& stepper() const { return stepper_; }
  const Vine3dState& state() const { return state_; }
  Vine3dState& state() { return state_; }

  /// One step with the growth rate of the scene's schedule, counted only if it succeeded (a solved
  /// QP, no joint drift, a finite state); otherwise message() says why.
  Vine3dStepReport step();
  /// The same with per-prismatic-joint growth rates u_j [m/s] (#prismatic).
  Vine3dStepReport step(const VecX& joint_rates);
  /// Why the last step failed ("step 12 at t = ...: ..."), "" if it succeeded.
  const std::string& message() const { return message_; }

  io::StepSummary advance() override;
  double time() const override { return state_.time; }
  long steps() const override { return steps_; }
  long total_steps() const override { return scene_.steps; }
  double duration() const override;
  long total_frames() const override { return 1 + scene_.steps / scene_.save_every; }
  std::string_view iterations_name() const override { return "QP iterations"; }
  std::string_view kind() const override { return "vine3d"; }
  const io::Json& resolved_scene() const override { return scene_.resolved; }
  std::unique_ptr<io::RunRecord> begin_record(io::RunDirectory& run) override;
  /// Starts from a saved frame of a vine3d run, as `vine3d.initial_state.run` and `.frame` do
  /// (InputError at those keys); the steps are then counted from it.
  void restore(const std::filesystem::path& run_dir, long frame) override;

  /// The commanded total growth rate u of the last step [m/s].
  double last_growth_command() const { return command_; }
  const Vine3dStepReport& last_report() const { return report_; }

 private:
  /// Checks the step just taken and counts it if it succeeded.
  Vine3dStepReport finish_step(const Vine3dStepReport& report);

  Vine3dScene scene_;
  Vine3dStepper stepper_;
  Vine3dState state_;
  long steps_ = 0;
  Vine3dStepReport report_;
  std::string message_;
  double command_ = 0.0;  ///< [m/s]
};

}  // namespace tendril::vine3d
