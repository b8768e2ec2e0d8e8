#pragma once
/// The binding functions of the _tendril module, one per area (names only; the logic they map lives
/// in the core and in this folder's helpers).

#include <pybind11/pybind11.h>

namespace tendril::python {

void bind_rod(pybind11::module_& m);
void bind_vine(pybind11::module_& m);
void bind_vine3d(pybind11::module_& m);
void bind_run(pybind11::module_& m);
void bind_fit(pybind11::module_& m);
void bind_adjoint(pybind11::module_& m);

}  // namespace tendril::python
