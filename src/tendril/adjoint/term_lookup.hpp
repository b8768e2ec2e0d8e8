#pragma once
/// The term a parameter acts on, looked up by its index in Model::energies, Model::forces or
/// Model::actuators, with a clear error when the index is not such a term.

#include <cstddef>
#include <string>

#include "tendril/core/error.hpp"

namespace tendril::adjoint {

/// The term of type T at terms[index] (a list of shared pointers: Model::energies, forces or
/// actuators); InputError `key` naming the index, and "the index of `what`" as allowed, otherwise.
template <class T, class Terms>
const T& term_at(const Terms& terms, std::size_t index, const std::string& key,
                 const std::string& what) {
  const T* term = index < terms.size() ? dynamic_cast<const T*>(terms[index].get()) : nullptr;
  if (!term) throw InputError(key, std::to_string(index), "the index of " + what);
  return *term;
}

}  // namespace tendril::adjoint
