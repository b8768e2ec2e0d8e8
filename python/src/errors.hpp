#pragma once
/// Tendril's InputError as the Python exception tendril.InputError (a ValueError) with the CLI's
/// message (str(e) is what `tendril` prints after "error: ") and the attributes key_path, value and
/// allowed (empty for free-form messages).

#include <exception>

#include <pybind11/pybind11.h>

namespace tendril::python {

/// Creates tendril.InputError in `m` and registers the translator.
void register_input_error(pybind11::module_& m);

/// Translates a thrown tendril::InputError (others pass through).
void translate_input_error(std::exception_ptr error);

}  // namespace tendril::python
