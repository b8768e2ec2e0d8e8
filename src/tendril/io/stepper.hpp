#pragma once
/// One way to run (docs/conventions.md#how-a-run-is-driven): the stepping interface that the rod
/// and shell simulation (sim::Simulation) and the vine simulation (vine::VineRun) implement, and
/// the one function that drives either of them through run_loop into a run directory. The `tendril
/// run` command, Python's run() and the tests run both kinds through run(), so restarts, progress,
/// stop signals and the records of failed or interrupted runs are the same for both.
///
///   std::unique_ptr<io::Stepper> s = std::make_unique<sim::Simulation>(std::move(scene));
///   io::RunResult r = io::run(*s, "runs/out", progress);

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "tendril/io/json.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/io/run_loop.hpp"

namespace tendril::io {

/// The arrays of one run directory, appended to while the run goes (docs/output_format.md).
class RunRecord {
 public:
  virtual ~RunRecord() = default;
  /// Appends the current state as one frame, with the restart record a run continues from
  /// (Stepper::restore).
  virtual void save_frame() = 0;
  /// Appends the per-step rows of the step just taken (also of a failed one); `wall_time` [s] is
  /// the wall-clock time of Stepper::advance.
  virtual void write_step(double wall_time) = 0;
  /// Writes what also a run that ends early keeps (e.g. the robot observables' fits).
  virtual void before_end() {}
};

/// A simulation stepped from its state to the end of its run.
class Stepper {
 public:
  virtual ~Stepper() = default;

  /// Takes the next step and says whether it failed; a failed step is not counted and ends a run.
  virtual StepSummary advance() = 0;
  /// Simulated time now [s].
  virtual double time() const = 0;
  /// Steps done so far (after a restart: counted as the scene counts them).
  virtual long steps() const = 0;
  /// Steps of the whole run.
  virtual long total_steps() const = 0;
  bool finished() const { return steps() >= total_steps(); }
  /// Simulated time of the whole run [s] (for the progress report).
  virtual double duration() const = 0;
  /// Frames a whole run saves, the initial one included (for the output size estimate).
  virtual long total_frames() const = 0;
  /// What the progress report's iterations count ("Newton iterations").
  virtual std::string_view iterations_name() const = 0;

  /// The run directory's kind ("rod", "vine") and the scene as used (run.json).
  virtual std::string_view kind() const = 0;
  virtual const Json& resolved_scene() const = 0;
  /// Adds the run's info and arrays to `run`; the record appends to them.
  virtual std::unique_ptr<RunRecord> begin_record(RunDirectory& run) = 0;
  /// Continues from frame `frame` (< 0: from the end) of the run in `run_dir`, written by the same
  /// scene, so that the steps that follow equal those of the run that did not stop, bit for bit.
  /// Only before the first step. Throws InputError naming the scene's restart keys.
  virtual void restore(const std::filesystem::path& run_dir, long frame) = 0;

 protected:
  Stepper() = default;
  Stepper(const Stepper&) = default;
  Stepper(Stepper&&) = default;
  Stepper& operator=(const Stepper&) = default;
  Stepper& operator=(Stepper&&) = default;
};

/// The run loop's side of `stepper`: its steps (each timed, its rows written to `record`), its
/// frames saved to `record` (null: nothing is written) and its plan.
RunLoopHooks loop_hooks(Stepper& stepper, RunRecord* record);

/// Runs `stepper` to its end through run_loop: a run directory of its kind at `out` (empty: no
/// output; frames are still counted); `progress` is called after every step.
RunResult run(Stepper& stepper, const std::filesystem::path& out,
              const std::function<void(const RunProgress&)>& progress = {});

}  // namespace tendril::io
