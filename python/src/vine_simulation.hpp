#pragma once
/// The vine simulator for Python: a VineScene's run (vine/vine_run.hpp), stepped one QP at a time
/// or run as a whole like Simulation, with numpy views of q and v and the last step's derivatives
/// and constraint Jacobians (the vine paper's "low-level access for planning"). Threads that share
/// one VineSimulation take turns (its ObjectLock, object_lock.hpp): every call that reads or writes
/// its state, its stepper's last step included, holds the lock.

#include <atomic>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "object_lock.hpp"
#include "tendril/vine/step_derivatives.hpp"
#include "tendril/vine/vine_run.hpp"
#include "tendril/vine/vine_scene.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::python {

namespace py = pybind11;

class VineSimulation {
 public:
  explicit VineSimulation(vine::VineScene scene) : run_(std::move(scene)) {}
  VineSimulation(VineSimulation&& other) noexcept
      : run_(std::move(other.run_)), lock_(std::move(other.lock_)), steps_(other.steps_.load()) {}
  /// A scene file with "key.path=value" overrides (InputError on bad input).
  static VineSimulation from_file(const std::filesystem::path& file,
                                  const std::vector<std::string>& overrides);
  /// A scene given as YAML text.
  static VineSimulation from_text(const std::string& text,
                                  const std::vector<std::string>& overrides);

  /// The model (constant after construction).
  const vine::VineModel& model() const { return run_.model(); }
  /// The stepper and the state, for a caller that holds lock().hold() (or only takes addresses,
  /// which never move).
  const vine::VineStepper& stepper() const { return run_.stepper(); }
  vine::VineState& state() { return run_.state(); }
  ObjectLock& lock() { return lock_; }
  /// Steps taken, readable while another thread steps or runs the simulation.
  long steps_taken() const { return steps_.load(); }
  /// The run's steps (`vine.steps`), its simulated time [s], and whether they are done.
  long total_steps() const { return run_.total_steps(); }
  double duration() const { return run_.duration(); }
  bool finished() const { return steps_taken() >= total_steps(); }

  /// One step with the scene's growth schedule (GIL released).
  vine::VineStepReport step();
  /// One step with per-prismatic-joint growth rates u_j [m/s] (#prismatic) (GIL released).
  vine::VineStepReport step_with_rates(const VecX& joint_rates);
  /// Runs the remaining steps as Simulation.run does (run_call.hpp).
  io::RunResult run(const py::object& out, const py::object& progress);
  /// Continues from a saved frame of a vine run (vine::VineRun::restore), before the first step.
  void restore(const std::filesystem::path& run_dir, long frame);
  /// Derivatives of the last step (call after a solved step).
  vine::StepDerivatives derivatives();
  /// The joint points base .. tip at the current q (#bodies + 1, 2) [m] (vine::centerline_points).
  MatX centerline();

 private:
  /// step() (a callable stepping run_) with the GIL released, holding the lock.
  template <class Step>
  vine::VineStepReport step_locked(const Step& step);

  vine::VineRun run_;
  ObjectLock lock_;
  std::atomic<long> steps_{0};
};

/// The stepper of a VineSimulation (VineSimulation.stepper): its methods called holding the
/// simulation's lock, their results copied (a view would alias storage the next step overwrites).
class VineStepperView {
 public:
  explicit VineStepperView(py::object owner)
      : owner_(std::move(owner)), sim_(owner_.cast<VineSimulation&>()) {}
  /// (stepper.*method)(args...) holding the lock.
  template <typename R, typename... Args, typename... Given>
  std::decay_t<R> call(R (vine::VineStepper::*method)(Args...) const, const Given&... args) const {
    const auto held = sim_.lock().hold();
    return (sim_.stepper().*method)(args...);
  }

 private:
  py::object owner_;
  VineSimulation& sim_;
};

/// Views of a VineSimulation's state (B bodies), kept alive by and aliasing it. time() and the
/// setters hold the simulation's lock; the arrays alias the state and numpy reads them without it.
class VineStateView {
 public:
  explicit VineStateView(py::object owner);
  py::array q() const;      ///< (3B,) (x, y, theta) per body [m, m, rad], writable
  py::array v() const;      ///< (3B,) dq/dt [m/s, m/s, rad/s], writable
  py::array poses() const;  ///< (B, 3) view of q
  double time() const;      ///< t [s]
  void set_q(py::handle value) const;
  void set_v(py::handle value) const;

 private:
  py::object owner_;
  VineSimulation& sim_;
};

}  // namespace tendril::python
