// Names of the run-directory reader (io/run_reader.hpp).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "run_data.hpp"

namespace tendril::python {

using namespace pybind11::literals;

void bind_run(py::module_& m) {
  py::class_<io::RunData>(m, "RunData")
      .def_readonly("directory", &io::RunData::directory)
      .def_readonly("kind", &io::RunData::kind)
      .def_readonly("status", &io::RunData::status)
      .def_property_readonly("arrays", &run_arrays);
  m.def("_read_run", &io::read_run, "directory"_a);
}

}  // namespace tendril::python
