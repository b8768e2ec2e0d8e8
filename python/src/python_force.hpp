#pragma once
/// A custom external force written in Python (mat_dismech 5.5): F = force(q, u, t) with an optional
/// Jacobian (dF_dq, dF_du) = jacobian(q, u, t) on the declared DOFs, wrapped as a core CustomForce
/// (forces/custom_force.hpp). The callbacks run with the GIL held (steps release it otherwise).
/// A callback that raises ends the step with that Python exception (the State stays unchanged); a
/// result of the wrong shape or dtype raises ValueError / TypeError naming the force.

#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "tendril/forces/custom_force.hpp"

namespace tendril::python {

namespace py = pybind11;

/// The Python side's description of a custom force.
struct PythonForce {
  py::object force;  ///< force(q, u, t) -> F, q and u (#dofs,) copies, F (#dofs,) [N, N m]
  py::object
      jacobian;  ///< None, or jacobian(q, u, t) -> (dF_dq, dF_du), each (k, k) on `dofs` or None
  std::vector<int> dofs;  ///< the DOFs the Jacobian couples (k); empty = all DOFs
  std::string name = "python_force";
};

/// The core term calling the Python callbacks, for a model with `num_dofs` DOFs (ValueError for a
/// DOF index out of range).
std::shared_ptr<CustomForce> make_custom_force(const PythonForce& spec, int num_dofs);

}  // namespace tendril::python
