#pragma once
/// One lock per simulation object, so Python threads that share the object take turns: every call
/// that reads or writes its state holds the lock, and waits for it with the GIL released (the
/// holder may need the GIL: a custom force or a progress callback runs Python inside a step), so no
/// thread waits for the lock while holding the GIL. Separate objects have separate locks and step
/// in parallel. The lock is recursive, so a callback may read the object it is called from (its
/// thread already holds the lock), but a step or run started from inside one of the object's own
/// steps is refused (StepCall).

#include <mutex>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace tendril::python {

class ObjectLock {
 public:
  ObjectLock() = default;
  /// A new, unheld lock: objects are moved only while they are built, before any thread shares
  /// them.
  ObjectLock(ObjectLock&&) noexcept {}
  ObjectLock& operator=(ObjectLock&&) = delete;

  /// Holds the lock until the result goes out of scope. Call with the GIL held: it is released
  /// while waiting and held again on return.
  std::unique_lock<std::recursive_mutex> hold() {
    pybind11::gil_scoped_release release;
    return std::unique_lock(mutex_);
  }

 private:
  std::recursive_mutex mutex_;
  bool stepping_ = false;  ///< a StepCall holds the lock (guarded by mutex_)

  friend class StepCall;
};

/// Holds an object's lock for a call that changes its state without the GIL (a step, a run),
/// marking it as stepping for the call's duration. Construct with the GIL released.
class StepCall {
 public:
  /// std::runtime_error (RuntimeError in Python) naming `what` when this thread is already inside a
  /// step of the same object (a callback calling step() or run() on the object that called it).
  StepCall(ObjectLock& lock, const char* what);
  ~StepCall() { lock_.stepping_ = false; }
  StepCall(const StepCall&) = delete;
  StepCall& operator=(const StepCall&) = delete;

 private:
  ObjectLock& lock_;
  std::unique_lock<std::recursive_mutex> held_;
};

/// assign_checked(target, value, name) (numpy_views.hpp) holding `lock`.
void assign_locked(ObjectLock& lock, pybind11::array target, pybind11::handle value,
                   const std::string& name);

}  // namespace tendril::python
