#pragma once
/// Restarting a vine run from one of its saved frames (docs/physics/vine.md#restarting-a-run): the
/// frame's (q, v, t) in full precision and the QP warm start the next step starts from
/// (qp_warm_start, docs/output_format.md), so the restarted run continues bit-identically.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tendril/vine/vine_model.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

/// Int64 values per frame of the run array qp_warm_start for a step with at most `max_rows`
/// inequality rows: row count (-1: no warm start), the rows' key in two 32-bit halves, then the
/// active flags packed 32 per value (every value exact in a float64).
std::size_t warm_start_record_size(int max_rows);
/// `warm_start` packed as above into warm_start_record_size(max_rows) values.
std::vector<std::int64_t> pack_warm_start(const VineWarmStart& warm_start, int max_rows);

struct SavedVineState {
  VineState state;            ///< q, v and t of the frame
  VineWarmStart warm_start;   ///< empty active set if the run did not save it
  long frame = 0;             ///< the frame read (>= 0)
};

/// Frame `frame` (< 0: counted from the end, -1 the last) of the vine run in `run_dir`, for `model`.
/// Throws InputError at `key` if the folder is not a readable vine run or has a different number of
/// bodies, at `frame_key` if it has no such frame.
SavedVineState read_saved_state(const std::filesystem::path& run_dir, long frame, const VineModel& model,
                                const std::string& key, const std::string& frame_key);

}  // namespace tendril::vine
