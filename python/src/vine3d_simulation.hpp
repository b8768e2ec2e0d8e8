#pragma once
/// The 3D vine simulator for Python: a Vine3dScene's run (vine3d/vine3d_run.hpp), stepped one QP at
/// a time or run as a whole like Simulation and VineSimulation (run_call.hpp), with copies of the
/// bodies' positions, orientations and velocities. Threads that share one Vine3dSimulation take
/// turns (its ObjectLock, object_lock.hpp): every call that reads or writes its state holds it.

#include <atomic>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "object_lock.hpp"
#include "tendril/vine3d/shooting_fit3d.hpp"
#include "tendril/vine3d/step_derivatives3d.hpp"
#include "tendril/vine3d/vine3d_run.hpp"

namespace tendril::python {

namespace py = pybind11;

/// A step's report and, if it failed, why ("" if it succeeded).
struct Vine3dStepResult {
  vine3d::Vine3dStepReport report;
  std::string message;
};

class Vine3dSimulation {
 public:
  explicit Vine3dSimulation(vine3d::Vine3dScene scene) : run_(std::move(scene)) {}
  Vine3dSimulation(Vine3dSimulation&& other) noexcept
      : run_(std::move(other.run_)), lock_(std::move(other.lock_)), steps_(other.steps_.load()) {}
  /// A scene file with "key.path=value" overrides (InputError on bad input).
  static Vine3dSimulation from_file(const std::filesystem::path& file,
                                    const std::vector<std::string>& overrides);
  /// A scene given as YAML text.
  static Vine3dSimulation from_text(const std::string& text,
                                    const std::vector<std::string>& overrides);

  /// The model (constant after construction, but for the steered rest bends).
  const vine3d::Vine3dModel& model() const { return run_.model(); }
  ObjectLock& lock() { return lock_; }
  long steps_taken() const { return steps_.load(); }
  long total_steps() const { return run_.total_steps(); }
  double duration() const { return run_.duration(); }
  bool finished() const { return steps_taken() >= total_steps(); }

  /// One step with the scene's growth schedule (GIL released).
  Vine3dStepResult step();
  /// One step with per-prismatic-joint growth rates u_j [m/s] (#prismatic) (GIL released).
  Vine3dStepResult step_with_rates(const VecX& joint_rates);
  /// Runs the remaining steps as Simulation.run does (run_call.hpp).
  io::RunResult run(const py::object& out, const py::object& progress);
  /// Continues from a saved frame of a vine3d run (Vine3dRun::restore), before the first step.
  void restore(const std::filesystem::path& run_dir, long frame);

  /// Derivatives of the last step (vine3d/step_derivatives3d.hpp; ok = false before a step).
  vine3d::Vine3dStepDerivatives derivatives();
  /// Shooting fit of one K and one C for every bending joint (vine3d/shooting_fit3d.hpp) to tracked
  /// joint points, (step, (B + 1) x 3 points [m]) per frame, steps counted from the current state,
  /// which is the fit's start; from the guesses `stiffness`, `damping` (GIL released). The
  /// simulation is not advanced.
  vine3d::ShootingFit3Result fit_stiffness_damping(const std::vector<std::pair<int, MatX>>& frames,
                                                   double stiffness, double damping,
                                                   const vine3d::ShootingFit3Options& options);

  double time();
  MatX positions();     ///< (B, 3) centres of mass [m]
  MatX orientations();  ///< (B, 4) unit quaternions (w, x, y, z), body to world
  MatX velocities();    ///< (B, 6) (v [m/s], omega [rad/s]) in the world frame
  MatX centerline();    ///< (B + 1, 3) base, proximal ends of bodies 1..B-1, tip [m]

 private:
  template <class Step>
  Vine3dStepResult step_locked(const Step& step);

  vine3d::Vine3dRun run_;
  ObjectLock lock_;
  std::atomic<long> steps_{0};
};

}  // namespace tendril::python
