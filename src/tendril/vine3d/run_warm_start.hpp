#pragma once
/// The 3D vine's QP warm start in its run folder, so a restart from any saved frame continues
/// bit-identically (docs/physics/vine3d.md#running-output-and-restarts): per frame
/// qp_warm_start, the planar vine's record of the active set (vine/run_restart.hpp), and
/// qp_warm_start_pairs, the (body, obstacle) pairs whose contact rows those flags are on.

#include <cstddef>
#include <string>

#include "tendril/io/run_directory.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {

/// The two arrays of a run's warm start.
struct WarmStartArrays {
  io::NpyAppender* active = nullptr;  ///< qp_warm_start
  io::NpyAppender* pairs = nullptr;   ///< qp_warm_start_pairs
};

/// Adds qp_warm_start and qp_warm_start_pairs for `stepper`'s steps to `run`.
WarmStartArrays add_warm_start_arrays(io::RunDirectory& run, const Vine3dStepper& stepper);
/// Appends the warm start the stepper's next step starts from.
void append_warm_start(const WarmStartArrays& arrays, const Vine3dStepper& stepper);
/// The warm start saved with frame `frame` of `run` for `model` (empty if the run saved no active
/// set there or has another obstacle count). Throws InputError at `key` for a run that saved the
/// active set without its pairs (written before qp_warm_start_pairs existed).
Vine3dWarmStart saved_warm_start(const io::RunData& run, std::size_t frame,
                                 const Vine3dModel& model, const std::string& key);

}  // namespace tendril::vine3d
