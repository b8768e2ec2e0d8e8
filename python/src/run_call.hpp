#pragma once
/// Python's run(out=None, progress=None), the same for Simulation and VineSimulation: io::run
/// (tendril/io/stepper.hpp) with the GIL released and the object's lock held.

#include <atomic>

#include <pybind11/pybind11.h>

#include "object_lock.hpp"
#include "tendril/io/stepper.hpp"

namespace tendril::python {

namespace py = pybind11;

/// Runs `simulation`'s remaining steps holding `lock` (StepCall named `what`). `out`: None (no run
/// directory) or a path; `progress`: None or a callable taking a Progress, called with the GIL held
/// after every step (an exception it raises ends the run, whose partial directory is kept as
/// <out>.failed, and propagates). `steps` follows the steps done, for readers on other threads.
io::RunResult run_with_lock(io::Stepper& simulation, ObjectLock& lock, const char* what,
                            const py::object& out, const py::object& progress,
                            std::atomic<long>& steps);

}  // namespace tendril::python
