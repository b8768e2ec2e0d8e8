#pragma once
/// A run directory ("tendril-run 1", docs/output_format.md) read by io::read_run, as numpy arrays.

#include <pybind11/pybind11.h>

#include "tendril/io/run_reader.hpp"

namespace tendril::python {

namespace py = pybind11;

/// {name: array} of every array of the run, with the shapes of the .npy files and their dtypes
/// (float64 or int64), in run.json order.
py::dict run_arrays(const io::RunData& run);

}  // namespace tendril::python
