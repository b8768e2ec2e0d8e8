#pragma once
/// The state a rod or shell run saves with every frame besides its positions, twists, xi and joint
/// twists (run array `restart_state`, docs/output_format.md#restarting-a-rod-or-shell-run), so a
/// run continues from any saved frame bit-identically: the velocities, the time-parallel
/// transported reference frames and twists, the shell edges' tau, the step counter the step times
/// are computed from, the work of forces with the forces its next trapezoid starts from, and what
/// the terms' workspaces carry to the next step (the contact terms' time of their last candidate
/// update, core/model_workspace.hpp).
///
/// Layout of one frame (float64): steps, work [J], has_forces (0/1), u (#dofs), forces (#dofs) [N],
/// tangents (3 F), reference directors (3 F), reference twists (B) [rad], shell edge tau (3 Z),
/// carried values (C); F framed edges, B bend-twist springs, Z shell edges with xi, C the values
/// the model's terms carry (ModelWorkspace::carried_size).

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/core/dof_map.hpp"
#include "tendril/core/state.hpp"
#include "tendril/io/run_directory.hpp"

namespace tendril::sim {

struct RestartRecord {
  long steps = 0;     ///< steps taken
  double work = 0.0;  ///< work of forces since t = 0 [J]
  State state;        ///< t, q (from the frame arrays), u, frames
  VecX forces;        ///< the force terms' sum at the state [N] (empty: not yet evaluated)
  std::vector<double> carried;  ///< the values the terms' workspaces carry to the next step
};

/// Values per frame for a record whose sizes are those of `like` (its state's q and frames, its
/// carried values).
std::size_t restart_record_size(const RestartRecord& like);

/// The run arrays work_of_forces and restart_state of a rod run, appended per saved frame.
class FrameStateArrays {
 public:
  /// Adds both arrays to `run`, restart_state with the sizes of `like`.
  FrameStateArrays(io::RunDirectory& run, const RestartRecord& like);
  void append(const RestartRecord& record);

 private:
  io::NpyAppender* work_;
  io::NpyAppender* restart_;
  std::vector<double> values_;
};
/// Frame `frame` (< 0: from the end) of `run_dir`: t from frame_time, q from positions, twists, xi
/// and joint_twists (in the DOF order of `dofs`), the rest from restart_state, with the sizes of
/// `like` (its record's steps, work and forces are not read). Throws InputError at `key`.run if the
/// folder is not a readable rod run of the same sizes, at `key`.frame if it has no such frame.
RestartRecord read_restart(const std::filesystem::path& run_dir, long frame, const DofMap& dofs,
                           const RestartRecord& like, const std::string& key);

}  // namespace tendril::sim
