#include "tendril/io/stepper.hpp"

#include <chrono>

namespace tendril::io {

RunLoopHooks loop_hooks(Stepper& stepper, RunRecord* record) {
  RunLoopHooks hooks;
  hooks.step = [&stepper, record] {
    const auto start = std::chrono::steady_clock::now();
    StepSummary step = stepper.advance();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (record) record->write_step(wall);
    return step;
  };
  hooks.save_frame = [record] {
    if (record) record->save_frame();
  };
  hooks.finished = [&stepper] { return stepper.finished(); };
  hooks.steps = [&stepper] { return stepper.steps(); };
  hooks.time = [&stepper] { return stepper.time(); };
  if (record) hooks.before_end = [record] { record->before_end(); };
  hooks.total_steps = stepper.total_steps();
  hooks.total_frames = stepper.total_frames();
  hooks.duration = stepper.duration();
  // a run restarted from a saved frame does not save that frame again
  hooks.save_initial_frame = stepper.steps() == 0;
  return hooks;
}

RunResult run(Stepper& stepper, const std::filesystem::path& out,
              const std::function<void(const RunProgress&)>& progress) {
  std::unique_ptr<RunDirectory> directory;
  std::unique_ptr<RunRecord> record;
  if (!out.empty()) {
    directory =
        std::make_unique<RunDirectory>(out, std::string(stepper.kind()), stepper.resolved_scene());
    record = stepper.begin_record(*directory);
  }
  return run_loop(directory.get(), loop_hooks(stepper, record.get()), progress);
}

}  // namespace tendril::io
