#pragma once
/// A 3D vine scene's run as an io::Stepper (io/stepper.hpp): the stepper and state of a
/// Vine3dScene, stepped `vine3d.steps` times, its frames saved every `vine3d.save_every` steps,
/// driven by io::run as every other run (progress, stop signals, failed and interrupted runs,
/// restarts). The run directory (kind "vine3d", docs/output_format.md) holds, for F saved frames,
/// S steps and n bodies:
///   frame_time (F) [s], body_position (F, n, 3) [m], body_orientation (F, n, 4) (unit quaternion
///   w, x, y, z, body to world), body_velocity (F, n, 6) [m/s, rad/s] (v, omega in the world
///   frame), centerline (F, n + 1, 3) [m] (base, proximal ends of bodies 1..n-1, tip),
///   qp_warm_start (F, ...), qp_warm_start_pairs (F, ...), step_time (S) [s], step_status (S),
///   step_qp_iterations (S), step_kkt_residual (S), step_joint_error (S) [m], step_min_distance (S)
///   [m], growth_rate (S) [m/s], achieved_growth_rate (S) [m/s], step_wall_time (S) [s],
///   step_active_contacts (S).
/// The obstacles are in the scene record (run.json "scene").

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tendril/vine/vine_run_base.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {

class Vine3dRun
    : public vine::VineRunBase<Vine3dScene, Vine3dStepper, Vine3dState, Vine3dStepReport> {
 public:
  /// Builds the stepper (InputError for a bad model) and starts from the scene's initial state and
  /// QP warm start. A step fails on a QP not solved, joint drift or a non-finite state.
  explicit Vine3dRun(Vine3dScene scene) : VineRunBase(std::move(scene)) {}

  std::string_view iterations_name() const override { return "QP iterations"; }
  std::string_view kind() const override { return "vine3d"; }
  std::unique_ptr<io::RunRecord> begin_record(io::RunDirectory& run) override;

 protected:
  std::string check_step() override;
};

}  // namespace tendril::vine3d
