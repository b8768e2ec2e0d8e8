#pragma once
/// What the Python `Simulation` class needs beyond the facade (sim/simulation.hpp): building one
/// with Python custom forces, `--set` overrides from a list or dict, a lock that serialises the
/// calls of threads sharing it (object_lock.hpp), and the numpy views of its State and of the rest
/// quantities a controller changes between steps.

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "object_lock.hpp"
#include "python_force.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::python {

namespace py = pybind11;

/// ["key.path=value", ...] from a list of such strings, or from a dict {key.path: value} (values
/// other than str are written as JSON, which is YAML).
std::vector<std::string> override_list(py::handle overrides);

/// The Python `Simulation`: the facade and its lock. Every call that reads or writes the state
/// holds the lock; the model's sizes, dt and duration never change and are read without it.
class RodSimulation {
 public:
  /// The model of the simulation's scene loaded again with further "key=value" overrides (after
  /// its own), the Python forces added: how a scene key's adjoint parameter sets its value
  /// (adjoint_parameters.hpp).
  using SceneReload = std::function<Model(const std::vector<std::string>& overrides)>;

  RodSimulation(sim::Simulation sim, SceneReload reload)
      : sim_(std::move(sim)), reload_(std::move(reload)), steps_(sim_.steps_taken()) {}
  RodSimulation(RodSimulation&& other) noexcept
      : sim_(std::move(other.sim_)),
        reload_(std::move(other.reload_)),
        lock_(std::move(other.lock_)),
        steps_(other.steps_.load()) {}

  /// One step with the GIL released.
  StepReport step();
  /// Runs the remaining steps (run_call.hpp: GIL released; `out` None or a path, `progress` None or
  /// a callable taking a Progress).
  io::RunResult run(const py::object& out, const py::object& progress);
  /// Continues from a saved frame of a rod or shell run (sim::Simulation::restore), before the
  /// first step.
  void restore(const std::filesystem::path& run_dir, long frame);
  /// {term name: energy [J]} in the facade's order (Simulation::energies()).
  py::dict energies();
  /// Contacts at the current state (Simulation::contact_statistics; the run's `contact_active`,
  /// `contact_min_gap`).
  contact::ContactStatistics contact_statistics();
  /// Contact force on every node at the current state, (N, 3) [N] (the run's `contact_forces`).
  py::array contact_forces();
  /// Reaction forces at the fixed DOFs (reaction_dofs) [N, N m] (the run's `reactions`).
  VecX reactions();

  /// Steps taken, readable while another thread steps or runs the simulation (updated after each
  /// step).
  long steps_taken() const { return steps_.load(); }
  bool finished() const { return steps_taken() >= sim_.total_steps(); }
  /// The facade for what never changes after construction (sizes, dt, duration, total steps).
  const sim::Simulation& constant() const { return sim_; }
  /// The facade for a caller that holds lock().hold() (or only takes addresses that never move).
  sim::Simulation& facade() { return sim_; }
  ObjectLock& lock() { return lock_; }
  const SceneReload& reload() const { return reload_; }

 private:
  sim::Simulation sim_;
  SceneReload reload_;
  ObjectLock lock_;
  std::atomic<long> steps_;
};

/// A RodSimulation of the scene `load` gives (with no further overrides) with the Python forces
/// added to its model before the solver is built.
RodSimulation make_simulation(
    const std::function<sim::RodScene(const std::vector<std::string>& overrides)>& load,
    const std::vector<PythonForce>& forces);
/// The same from a scene file, or from YAML text; `overrides` as in override_list().
RodSimulation simulation_from_file(const std::filesystem::path& file, py::handle overrides,
                                   const std::vector<PythonForce>& forces);
RodSimulation simulation_from_yaml(const std::string& text, py::handle overrides,
                                   const std::vector<PythonForce>& forces);

/// Views of a Simulation's State (aliasing it; valid while the Simulation lives: the views keep
/// it). N nodes, E rod edges, Z shell edges with a mid-edge DOF; n = 3N + E + Z DOFs. time() and
/// the setters hold the simulation's lock; the arrays alias the state and numpy reads them without
/// it.
class RodStateView {
 public:
  explicit RodStateView(py::object owner);
  py::array q() const;           ///< (n,) DOFs [m, rad], writable
  py::array u() const;           ///< (n,) velocities [m/s, rad/s], writable
  py::array positions() const;   ///< (N, 3) node positions [m], writable
  py::array velocities() const;  ///< (N, 3) node velocities [m/s], writable
  py::array twists() const;      ///< (E,) edge twists theta_e [rad], writable
  double time() const;           ///< t [s]
  void set_q(py::handle v) const;
  void set_u(py::handle v) const;
  void set_positions(py::handle v) const;
  void set_velocities(py::handle v) const;
  void set_twists(py::handle v) const;

 private:
  py::object owner_;
  RodSimulation& sim_;
};

/// Writable views of the rest quantities of a Simulation's Model (S bend-twist springs, E edges,
/// H shell hinges). Changes act from the next step on; actuators in the scene overwrite the
/// quantities they schedule. The setters hold the simulation's lock.
class RodControls {
 public:
  explicit RodControls(py::object owner);
  py::array natural_curvature() const;  ///< (S, 2) (kappa_bar_1, kappa_bar_2) integrated [-]
  py::array natural_twist() const;      ///< (S,) m_bar integrated [rad]
  py::array rest_length()
      const;  ///< (E,) |e_bar| [m] (stretching only; Voronoi lengths and masses stay)
  py::array hinge_natural_angle() const;  ///< (H,) phi_bar [rad]
  void set_natural_curvature(py::handle v) const;
  void set_natural_twist(py::handle v) const;
  void set_rest_length(py::handle v) const;
  void set_hinge_natural_angle(py::handle v) const;

 private:
  py::object owner_;
  RodSimulation& sim_;
  Model& model_;
};

}  // namespace tendril::python
