#pragma once
/// The loop that drives every run (io/stepper.hpp builds its hooks from a simulation): step until
/// the end, save frames, report progress, stop after the current step on SIGINT/SIGTERM, and end
/// the run directory as completed, failed or interrupted. What a step is and what a frame holds
/// belongs to the simulation (RunLoopHooks).

#include <functional>
#include <string>

#include "tendril/io/run_directory.hpp"

namespace tendril::io {

/// Output size [bytes] above which a run is warned about before it starts (docs/limits.md).
constexpr double kOutputWarningBytes = 1e9;

/// One step as every simulation reports it to the run loop (io::Stepper::advance).
struct StepSummary {
  std::string failure;  ///< why the step failed, the whole message ("step 12 ...: ..."); empty: ok
  int iterations = 0;   ///< solver iterations of the step (Newton iterations, QP iterations)
  int substeps = 1;     ///< substeps that covered the step (more than 1 after dt halving)
  bool save = false;    ///< the state the step reached is saved as a frame (the output schedule)
  bool ok() const { return failure.empty(); }
};

/// The simulation's side of a run.
struct RunLoopHooks {
  std::function<StepSummary()> step;  ///< advances one step and appends its per-step rows
  std::function<void()> save_frame;   ///< appends one frame to the arrays
  std::function<bool()> finished;     ///< the run has reached its duration
  std::function<long()> steps;        ///< steps done so far
  std::function<double()> time;       ///< simulated time now [s]
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
