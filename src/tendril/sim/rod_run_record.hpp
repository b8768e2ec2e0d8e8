#pragma once
/// The run record of a rod or shell run ("tendril-run 2" of kind "rod", docs/output_format.md):
/// its info (energy terms, step codes, topology) and arrays, appended per saved frame (time,
/// positions, twists, velocities, energies, xi, joint twists, robot observables, work of forces
/// and restart state, reactions, contacts) and per step (time, dt, substeps, Newton iterations,
/// residual, wall time, status, criterion). Written by Simulation through io::run (io/stepper.hpp).

#include <optional>

#include "tendril/io/npy.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/io/stepper.hpp"
#include "tendril/sim/restart_state.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {

class RodRunRecord : public io::RunRecord {
 public:
  /// Adds the info and arrays of `simulation`'s run to `run`; both must outlive the record.
  RodRunRecord(io::RunDirectory& run, const Simulation& simulation);

  void save_frame() override;
  void write_step(double wall_time) override;
  /// The observables' fits over the steady part in run.json (also of a failed run, up to the
  /// failure).
  void before_end() override;

 private:
  using Array = io::NpyAppender*;
  void add_state_arrays();
  void add_observable_arrays();
  void add_contact_arrays();
  void add_step_arrays();
  void save_observables();
  void save_contacts();

  io::RunDirectory& run_;
  const Simulation& sim_;
  Array frame_time_ = nullptr, positions_ = nullptr, twists_ = nullptr, velocities_ = nullptr,
        energies_ = nullptr, xi_ = nullptr, joint_twists_ = nullptr;
  Array robot_position_ = nullptr, head_angle_ = nullptr, tail_angle_ = nullptr;
  Array reactions_ = nullptr, contact_active_ = nullptr, contact_min_gap_ = nullptr,
        contact_forces_ = nullptr;
  std::optional<FrameStateArrays> frame_state_;  ///< work_of_forces, restart_state
  Array step_time_ = nullptr, step_dt_ = nullptr, step_substeps_ = nullptr,
        step_iterations_ = nullptr, step_residual_ = nullptr, step_wall_ = nullptr,
        step_status_ = nullptr, step_criterion_ = nullptr;
};

}  // namespace tendril::sim
