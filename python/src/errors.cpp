#include "errors.hpp"

#include "tendril/core/error.hpp"

namespace tendril::python {

namespace py = pybind11;

namespace {
/// The Python class tendril.InputError (alive as long as the interpreter: never released).
PyObject* input_error_type = nullptr;
}  // namespace

void register_input_error(py::module_& m) {
  input_error_type = PyErr_NewExceptionWithDoc(
      "tendril.InputError",
      "Bad input (a scene key, a value): str() is the CLI's message; key_path, value, allowed.",
      PyExc_ValueError, nullptr);
  m.add_object("InputError", py::handle(input_error_type));
  py::register_exception_translator(&translate_input_error);
}

void translate_input_error(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const InputError& e) {
    py::object instance = py::handle(input_error_type)(py::str(e.what()));
    instance.attr("key_path") = e.key_path();
    instance.attr("value") = e.value();
    instance.attr("allowed") = e.allowed();
    PyErr_SetObject(input_error_type, instance.ptr());
  }
}

}  // namespace tendril::python
