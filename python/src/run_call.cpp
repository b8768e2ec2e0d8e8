#include "run_call.hpp"

#include <filesystem>
#include <functional>
#include <string>

namespace tendril::python {

namespace {

/// Calls a Python progress callable with the GIL held.
class ProgressCall {
 public:
  explicit ProgressCall(py::object f) : f_(std::move(f)) {}
  void operator()(const io::RunProgress& p) const {
    py::gil_scoped_acquire gil;
    f_(p);
  }

 private:
  py::object f_;
};

}  // namespace

io::RunResult run_with_lock(io::Stepper& simulation, ObjectLock& lock, const char* what,
                            const py::object& out, const py::object& progress,
                            std::atomic<long>& steps) {
  std::filesystem::path dir;
  if (!out.is_none()) dir = py::module_::import("os").attr("fspath")(out).cast<std::string>();
  std::function<void(const io::RunProgress&)> python;
  if (!progress.is_none()) python = ProgressCall(progress);
  const auto count = [&](const io::RunProgress& p) {
    steps = p.step;
    if (python) python(p);
  };
  py::gil_scoped_release release;
  const StepCall call(lock, what);
  io::RunResult result = io::run(simulation, dir, count);
  steps = simulation.steps();
  return result;
}

}  // namespace tendril::python
