#include "tendril/io/run_loop.hpp"

#include <cstdio>
#include <exception>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::io {

namespace {

void warn_of_large_output(double bytes, const std::filesystem::path& out) {
  if (bytes <= kOutputWarningBytes) return;
  std::fprintf(
      stderr,
      "warning: this run will write about %.3g GB to %s (output.interval or output.every_steps, or "
      "vine.save_every, saves fewer frames)\n",
      bytes / 1e9, out.string().c_str());
}

}  // namespace

RunResult run_loop(RunDirectory* run, const RunLoopHooks& hooks,
                   const std::function<void(const RunProgress&)>& progress) {
  RunResult result;
  const auto save = [&] {
    hooks.save_frame();
    ++result.frames;
  };
  // a run that ends early keeps what was written in <out>.failed, saying why and how far it got
  const auto end_early = [&](const std::string& status, const std::string& message) {
    result.message = message;
    result.steps = hooks.steps();
    if (hooks.before_end) hooks.before_end();
    if (run) result.path = run->stop(status, message, result.steps, hooks.time());
    return result;
  };
  const auto step_text = [&] { return "step " + std::to_string(hooks.steps() + 1) + ": "; };
  try {
    if (hooks.save_initial_frame) save();
    if (run)
      warn_of_large_output(run->estimated_bytes(hooks.total_steps, hooks.total_frames),
                           run->final_path());
    while (!hooks.finished()) {
      const StepSummary step = hooks.step();
      if (!step.ok()) return end_early("failed", step.failure);
      if (step.save) save();
      if (progress)
        progress({hooks.steps(), hooks.total_steps, hooks.time(), hooks.duration, step.iterations});
      if (stop_signal() != 0 && !hooks.finished()) {
        result.signal = stop_signal();
        return end_early("interrupted", "stopped by signal " + std::to_string(result.signal) +
                                            " after step " + std::to_string(hooks.steps()) +
                                            " at t = " + number_text(hooks.time()) + " s");
      }
    }
  } catch (const InputError& error) {
    // an output write that failed (a full disk)
    return end_early("failed", step_text() + error.what());
  } catch (const std::exception& error) {
    // anything else (a user callback that raised): the partial run is kept as failed and the error
    // goes on to the caller
    end_early("failed", step_text() + error.what());
    throw;
  }
  if (hooks.before_end) hooks.before_end();
  if (run) result.path = run->finish();
  result.ok = true;
  result.steps = hooks.steps();
  return result;
}

}  // namespace tendril::io
