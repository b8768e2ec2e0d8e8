#pragma once
/// Restarting a vine run from one of its saved frames (docs/physics/vine.md#restarting-a-run): the
/// frame's (q, v, t) in full precision and the QP warm start the next step starts from
/// (qp_warm_start, docs/output_format.md), so the restarted run continues bit-identically.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tendril/io/run_directory.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/vine/vine_model.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

/// Adds the run array qp_warm_start for `stepper`'s steps to `run` (per frame: row count, -1 for no
/// warm start; the rows' key in two 32-bit halves; the active flags packed 32 per value, every
/// value exact in a float64).
io::NpyAppender& add_warm_start_array(io::RunDirectory& run, const VineStepper& stepper);
/// Appends the warm start the stepper's next step starts from to the array of add_warm_start_array.
void append_warm_start(io::NpyAppender& array, const VineStepper& stepper);

/// The same for any stepper whose steps have at most `max_rows` inequality rows (the 3D vine's).
io::NpyAppender& add_warm_start_array(io::RunDirectory& run, int max_rows);
void append_warm_start(io::NpyAppender& array, const VineWarmStart& warm_start, int max_rows);
/// The warm start saved with frame `frame` of a run's qp_warm_start (empty if the run has none).
VineWarmStart saved_warm_start(const io::RunData& run, std::size_t frame);
/// Writes `flags` as bits, 32 per value (bit r % 32 of value first + r / 32 set for flags[r] != 0,
/// so every value is exact in a float64), into `values` from `first` on, which must hold
/// ceil(#flags / 32) zeroed values there.
void pack_flags(const std::vector<char>& flags, std::vector<std::int64_t>& values,
                std::size_t first);
/// Flag r of flags pack_flags wrote from `values[0]` on, read back from a run array.
bool packed_flag(const double* values, std::size_t r);

/// A saved frame of a run to restart from: the run and the frame's index.
struct RestartFrame {
  io::RunData run;
  std::size_t frame = 0;
};
/// The run in `run_dir` (of kind `kind`, its per-body array `arrays[0]` of `bodies` bodies) and the
/// index of its frame `frame` (< 0: counted from the end) among those that frame_time and every
/// array in `arrays` hold. Throws InputError at `key` for a folder that is not such a run, at
/// `frame_key` for a frame it does not have.
RestartFrame read_restart_frame(const std::filesystem::path& run_dir, long frame,
                                const std::string& kind, int bodies,
                                const std::vector<std::string>& arrays, const std::string& key,
                                const std::string& frame_key);

struct SavedVineState {
  VineState state;           ///< q, v and t of the frame
  VineWarmStart warm_start;  ///< empty active set if the run did not save it
};

/// Frame `frame` (< 0: counted from the end, -1 the last) of the vine run in `run_dir`, for
/// `model`. Throws InputError at `key` if the folder is not a readable vine run or has a different
/// number of bodies, at `frame_key` if it has no such frame.
SavedVineState read_saved_state(const std::filesystem::path& run_dir, long frame,
                                const VineModel& model, const std::string& key,
                                const std::string& frame_key);

}  // namespace tendril::vine
