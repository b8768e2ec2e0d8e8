#pragma once
/// numpy arrays that alias C++ storage (no copy) and checked assignment into that storage.
/// A view keeps its owner (the Python object holding the C++ storage) alive through numpy's base.

#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace tendril::python {

namespace py = pybind11;

/// A float64 view of `data` with `shape` and byte `strides` (one each per dimension), kept alive by
/// `owner`; read-only unless `writable`.
py::array double_view(double* data, std::vector<py::ssize_t> shape,
                      std::vector<py::ssize_t> strides, py::handle owner, bool writable);

/// A C-ordered float64 view of `data` with `shape`.
py::array contiguous_view(double* data, std::vector<py::ssize_t> shape, py::handle owner,
                          bool writable);

/// `value` as an array of real numbers (float or integer dtype) of exactly `shape`: TypeError for
/// another type or dtype, ValueError for another shape, each starting with `what` and saying what
/// was given and what is allowed.
py::array checked_real_array(py::handle value, const std::vector<py::ssize_t>& shape,
                             const std::string& what);

/// Copies `value` into `target` (a view from double_view). `value` must be real numbers (float or
/// integer dtype) of exactly target's shape: TypeError for another dtype, ValueError for another
/// shape, both naming `name`, the shape given and the shape allowed.
void assign_checked(py::array target, py::handle value, const std::string& name);

/// The text "(a, b)" of a shape ("(a,)" in one dimension).
std::string shape_text(const std::vector<py::ssize_t>& shape);

}  // namespace tendril::python
