// The _tendril extension module; the package `tendril` (python/tendril) re-exports it.
#include "bindings.hpp"
#include "errors.hpp"

PYBIND11_MODULE(_tendril, m) {
  m.doc() = "Tendril: soft robots from slender parts (Discrete Elastic Rods, shells, vine robots)";
  tendril::python::register_input_error(m);
  tendril::python::bind_rod(m);
  tendril::python::bind_adjoint(m);
  tendril::python::bind_vine(m);
  tendril::python::bind_vine3d(m);
  tendril::python::bind_run(m);
  tendril::python::bind_fit(m);
}
