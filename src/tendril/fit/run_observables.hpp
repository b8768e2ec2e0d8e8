#pragma once
/// The observables a fit over whole runs (finite_difference_lm, adjoint_lm) compares with
/// measurements (docs/physics/fitting.md, "Observables"): the robot observables of run.json
/// info.observables (speed, head_rotation_rate, tail_rotation_rate, efficiency), the coordinate
/// of a scene node at a time, named "rods[i].nodes[j].x@t" or "shells[i].nodes[j].z@t" (x, y or z
/// [m] at t [s], a whole number of steps of integrator.dt after t = 0; in a static scene of
/// duration 0, t = 0 is its one solve's equilibrium), and the scene's energies at a time,
/// "kinetic_energy@t" and "elastic_energy@t" [J] (adjoint/energy_objective.hpp).

#include <string>
#include <vector>

#include "tendril/fit/run_least_squares.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::fit {

/// One observable of a run.
struct RunObservable {
  std::string name;    ///< as the fit file names it
  std::string robot;   ///< a robot observable's name; empty for the others
  std::string energy;  ///< "kinetic_energy" or "elastic_energy"; empty for the others
  int node = -1;       ///< a coordinate's model node
  int axis = 0;        ///< its axis: 0, 1, 2 for x, y, z
  int step = 0;        ///< the state a coordinate or an energy is read at (t = step dt)
};

/// What an observable may be, in words (for the schema and messages).
std::string run_observable_syntax();

/// Reads `name` against `scene`: a robot observable of a scene with observables, a node
/// coordinate of a node the scene has or an energy, at a time on its step grid within its
/// duration. InputError "observable" naming the value and what is allowed.
RunObservable parse_run_observable(const sim::RodScene& scene, const std::string& name);

/// Runs `simulation` to its end (no run directory) and returns `observables` of the run; a failed
/// step is a failed outcome with the reason.
RunOutcome simulate_observables(sim::Simulation& simulation,
                                const std::vector<RunObservable>& observables);

}  // namespace tendril::fit
