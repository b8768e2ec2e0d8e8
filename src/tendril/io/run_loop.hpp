#pragma once
/// The loop that drives a run, shared by the rod and shell simulation (sim::Simulation::run) and
/// the vine simulation (vine::run_vine): step until the end, save frames, report progress, stop
/// after the current step on SIGINT/SIGTERM, and end the run directory as completed, failed or
/// interrupted. What a step is and what a frame holds belongs to the caller (RunLoopHooks).

#include <functional>
#include <string>

#include "tendril/io/run_directory.hpp"

namespace tendril::io {

/// Output size [bytes] above which a run is warned about before it starts (docs/limits.md).
constexpr double kOutputWarningBytes = 1e9;

/// One step as the run loop sees it.
struct LoopStep {
  std::string failure;  ///< why the step failed, the whole message ("step 12 ...: ..."); empty: it
                        ///< succeeded
  int iterations = 0;   ///< solver iterations of the step, for the progress callback
  bool save = false;    ///< save a frame after this step
};

/// The simulation's side of a run.
struct RunLoopHooks {
  std::function<LoopStep()> step;    ///< advances one step and appends its per-step rows
  std::function<void()> save_frame;  ///< appends one frame to the arrays
  std::function<bool()> finished;    ///< the run has reached its duration
  std::function<long()> steps;       ///< steps done so far
  std::function<double()> time;      ///< simulated time now [s]
  /// Writes what also a run that ends early keeps (e.g. the robot observables' fits); may be empty.
  std::function<void()> before_end;
  long total_steps = 0;  ///< steps planned
  long total_frames =
      0;  ///< frames planned, the initial one included (for the output size estimate)
  double duration = 0.0;           ///< simulated time planned [s]
  bool save_initial_frame = true;  ///< save a frame before the first step
};

/// Runs `hooks` to the end. `run` may be null (no output: frames are still counted). A failed step
/// or a failed output write (InputError, e.g. a full disk) ends the run as failed in
/// "<out>.failed"; any other exception does too and is then rethrown to the caller; a stop signal
/// (io::stop_signal()) ends it as interrupted after the current step. Before the first step, a run
/// whose output is estimated above kOutputWarningBytes gets a warning on stderr stating the
/// estimate.
RunResult run_loop(RunDirectory* run, const RunLoopHooks& hooks,
                   const std::function<void(const RunProgress&)>& progress);

}  // namespace tendril::io
