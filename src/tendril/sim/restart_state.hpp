#pragma once
/// The full state a rod or shell run saves with every frame (run array `restart_state`,
/// docs/output_format.md#restarting-a-rod-or-shell-run), so a run continues from any saved frame
/// bit-identically: what the positions and twists of the frame do not hold (velocities, the
/// time-parallel transported reference frames and twist, the shell edges' tau), the step counter the
/// step times are computed from, and the running sums of the output (work of forces, the forces at
/// the last state, the last step's acceleration for the reactions).
///
/// Layout of one frame (float64): steps, work [J], t [s], has_forces (0/1), q (#dofs), u (#dofs),
/// forces (#dofs) [N], acceleration (#dofs), tangents (3 F), reference directors (3 F), reference
/// twists (B) [rad], shell edge tau (3 Z), F framed edges, B bend-twist springs, Z shell edges with xi.

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/core/state.hpp"

namespace tendril::sim {

struct RestartRecord {
  long steps = 0;      ///< steps taken
  double work = 0.0;   ///< work of forces since t = 0 [J]
  State state;         ///< t, q, u, frames
  VecX forces;         ///< the force terms' sum at the state [N] (empty: not yet evaluated)
  VecX acceleration;   ///< (u - u_before) / dt of the last step (#dofs)
};

/// Values per frame for a record whose sizes are those of `like` (its state's q and frames).
std::size_t restart_record_size(const State& like);
/// `record` flattened into `out` (restart_record_size values).
void pack_restart(const RestartRecord& record, std::vector<double>& out);
/// Frame `frame` (< 0: from the end) of `run_dir`'s restart_state, with the sizes of `like`. Throws
/// InputError at `key`.run if the folder is not a readable rod run of the same sizes, at `key`.frame
/// if it has no such frame.
RestartRecord read_restart(const std::filesystem::path& run_dir, long frame, const State& like, const std::string& key);

}  // namespace tendril::sim
