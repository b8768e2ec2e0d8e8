#pragma once
/// What the runs of both vine models (vine::VineRun, vine3d::Vine3dRun) share as io::Steppers
/// (io/stepper.hpp): a scene's stepper and state stepped `steps` times with the growth rate of the
/// scene's schedule or with given joint rates, a step counted only if it succeeded, a frame saved
/// every `save_every` steps, a restart from a saved frame before the first step, and the per-step
/// rows of the run directory (docs/output_format.md).

#include <filesystem>
#include <functional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/types.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/io/stepper.hpp"

namespace tendril::vine {

/// `Scene` holds `model`, `initial`, `warm_start`, `steps`, `save_every` and `resolved`;
/// `SceneStepper` is built from the model and steps a `State` (with the schedule's rate or with
/// joint rates) into a `Report`; `read_saved_state(run_dir, frame, model, key, frame_key)` of the
/// model's namespace reads a saved frame. Derived runs give kind(), iterations_name(),
/// begin_record() and check_step().
template <class Scene, class SceneStepper, class State, class Report>
class VineRunBase : public io::Stepper {
 public:
  /// Builds the stepper (InputError for a bad model) and starts from the scene's initial state and
  /// QP warm start.
  explicit VineRunBase(Scene scene)
      : scene_(std::move(scene)), stepper_(scene_.model), state_(scene_.initial) {
    stepper_.set_warm_start(scene_.warm_start);
  }

  const Scene& scene() const { return scene_; }
  const auto& model() const { return stepper_.model(); }
  const SceneStepper& stepper() const { return stepper_; }
  const State& state() const { return state_; }
  /// Mutable state for front ends that write it between steps (Python's numpy views); its storage
  /// never moves.
  State& state() { return state_; }

  /// One step with the growth rate of the scene's schedule, counted only if it succeeded;
  /// otherwise message() says why ("step 12 at t = ...: ...").
  Report step() {
    command_ = model().growth.rate(state_.time);
    return finish_step(stepper_.step(state_));
  }
  /// The same with per-prismatic-joint growth rates u_j [m/s] (#prismatic).
  Report step(const VecX& joint_rates) {
    command_ = joint_rates.sum();
    return finish_step(stepper_.step(state_, joint_rates));
  }
  /// Why the last step failed, "" if it succeeded.
  const std::string& message() const { return message_; }

  io::StepSummary advance() override {
    step();
    io::StepSummary out;
    out.iterations = report_.qp_iterations;
    out.failure = message_;
    out.save = out.ok() && steps_ % scene_.save_every == 0;
    return out;
  }
  double time() const override { return state_.time; }
  long steps() const override { return steps_; }
  long total_steps() const override { return scene_.steps; }
  /// steps dt [s] (a restarted run starts at its frame's time and runs as long).
  double duration() const override { return static_cast<double>(scene_.steps) * model().dt; }
  long total_frames() const override { return 1 + scene_.steps / scene_.save_every; }
  const io::Json& resolved_scene() const override { return scene_.resolved; }
  /// Starts from a saved frame of a run of this kind, as `<kind>.initial_state.run` and `.frame`
  /// do (InputError at those keys); the steps are then counted from it.
  void restore(const std::filesystem::path& run_dir, long frame) override {
    const std::string key = std::string(kind()) + ".initial_state";
    if (steps_ != 0)
      throw InputError(key + ".run", fmt::format("a simulation that has taken {} steps", steps_),
                       "a restart before the first step");
    auto saved = read_saved_state(run_dir, frame, model(), key + ".run", key + ".frame");
    state_ = std::move(saved.state);
    stepper_.set_warm_start(std::move(saved.warm_start));
  }

  /// The commanded total growth rate u of the last step [m/s].
  double last_growth_command() const { return command_; }
  const Report& last_report() const { return report_; }

 protected:
  /// Records what the step just taken (last_report(), ending at state()) leaves besides its report
  /// and says why it ends the run, or "" if it does not.
  virtual std::string check_step() = 0;

 private:
  /// Checks the step just taken and counts it if it succeeded.
  Report finish_step(const Report& report) {
    report_ = report;
    message_ = check_step();
    // a report that carries its message (the planar vine's, which Python reads) gets it too
    if constexpr (requires { report_.message; }) report_.message = message_;
    if (message_.empty()) ++steps_;
    return report_;
  }

  Scene scene_;
  SceneStepper stepper_;
  State state_;
  long steps_ = 0;
  Report report_;
  std::string message_;
  double command_ = 0.0;  ///< [m/s]
};

/// The docs of the per-step rows that the two vine models word differently.
struct StepRowDocs {
  const char* joint_error;   ///< step_joint_error [m]
  const char* min_distance;  ///< step_min_distance [m]
  const char* achieved;      ///< achieved_growth_rate [m/s]
  const char* active;        ///< step_active_contacts
};

/// The per-step arrays of a vine run directory: step_time, step_status, step_qp_iterations,
/// step_kkt_residual, step_joint_error, step_min_distance, then a model's own arrays, then
/// growth_rate, achieved_growth_rate, step_wall_time and step_active_contacts.
class VineStepRows {
 public:
  VineStepRows() = default;
  /// Adds the arrays to `run`, `own` adding the model's own between them (may be empty).
  VineStepRows(io::RunDirectory& run, const StepRowDocs& docs,
               const std::function<void()>& own = {});

  /// Appends the rows of a step with report `rep`, ending at time `time` [s], commanded growth rate
  /// `command` [m/s], taking `wall_time` [s].
  template <class Report>
  void append(const Report& rep, double time, double command, double wall_time) {
    io::append_scalar(*time_, time);
    io::append_scalar(*status_, static_cast<std::int64_t>(rep.status));
    io::append_scalar(*iterations_, static_cast<std::int64_t>(rep.qp_iterations));
    io::append_scalar(*kkt_, rep.kkt_residual);
    io::append_scalar(*joint_, rep.joint_error);
    io::append_scalar(*min_distance_, rep.min_distance);
    io::append_scalar(*growth_, command);
    io::append_scalar(*achieved_, rep.growth_rate);
    io::append_scalar(*wall_, wall_time);
    io::append_scalar(*active_, static_cast<std::int64_t>(rep.active_contacts));
  }

 private:
  using Array = io::NpyAppender*;
  Array time_ = nullptr, status_ = nullptr, iterations_ = nullptr, kkt_ = nullptr, joint_ = nullptr,
        min_distance_ = nullptr, growth_ = nullptr, achieved_ = nullptr, wall_ = nullptr,
        active_ = nullptr;
};

}  // namespace tendril::vine
