#include "object_lock.hpp"

#include <stdexcept>
#include <string>

#include "numpy_views.hpp"

namespace tendril::python {

StepCall::StepCall(ObjectLock& lock, const char* what) : lock_(lock), held_(lock.mutex_) {
  if (lock_.stepping_)
    throw std::runtime_error(std::string(what) +
                             ": called from a callback inside a step of the same simulation; "
                             "allowed: reading it there, stepping it after the step returns");
  lock_.stepping_ = true;
}

void assign_locked(ObjectLock& lock, pybind11::array target, pybind11::handle value,
                   const std::string& name) {
  const auto held = lock.hold();
  assign_checked(std::move(target), value, name);
}

}  // namespace tendril::python
