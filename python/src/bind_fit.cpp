// Names of the least-squares fit over whole runs (fit/run_least_squares.hpp): its parameter, table,
// options, outcome and result types and fit_runs itself. The batch evaluator is any Python callable
// taking a list of settings (lists of "key=value") and returning one RunOutcome per run;
// tendril.fit (python/tendril/_fit.py) passes one that runs them through tendril.sweep's executor.
// fit_runs_with_derivatives is the gradient method (adjoint_lm): the runs and their exact
// derivatives by the C++ evaluator of fit/run_derivatives.hpp on a pool of threads. run_scene is
// one run of `tendril fit`'s evaluator (fit/scene_run_evaluator.hpp), which tendril.fit's
// finite-difference runs use in the workers when an observable is a node coordinate.
#include <algorithm>

#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "tendril/fit/run_derivatives.hpp"
#include "tendril/fit/run_least_squares.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"

namespace tendril::python {

namespace py = pybind11;
using namespace pybind11::literals;

void bind_fit(py::module_& m) {
  using fit::FitParameter;
  py::class_<FitParameter>(m, "FitParameter")
      .def(py::init<std::string, double, double, double, double>(), "key"_a, "initial"_a, "lower"_a,
           "upper"_a, "scale"_a)
      .def_readonly("key", &FitParameter::key)
      .def_readonly("initial", &FitParameter::initial)
      .def_readonly("lower", &FitParameter::lower)
      .def_readonly("upper", &FitParameter::upper)
      .def_readonly("scale", &FitParameter::scale);

  py::class_<fit::RunOutcome>(m, "RunOutcome")
      .def(py::init<bool, std::string, std::vector<double>>(), "ok"_a, "message"_a, "values"_a)
      .def_readonly("ok", &fit::RunOutcome::ok)
      .def_readonly("message", &fit::RunOutcome::message)
      .def_readonly("values", &fit::RunOutcome::values);

  py::class_<fit::MeasurementTable>(m, "MeasurementTable")
      .def(py::init<>())
      .def_readwrite("observables", &fit::MeasurementTable::observables)
      .def_readwrite("experiments", &fit::MeasurementTable::experiments)
      .def_readwrite("measured", &fit::MeasurementTable::measured)
      .def_readwrite("sigma", &fit::MeasurementTable::sigma);

  py::class_<fit::RunFitOptions>(m, "RunFitOptions")
      .def(py::init<>())
      .def_readwrite("max_iterations", &fit::RunFitOptions::max_iterations)
      .def_readwrite("difference_step", &fit::RunFitOptions::difference_step)
      .def_readwrite("step_tolerance", &fit::RunFitOptions::step_tolerance)
      .def_readwrite("cost_tolerance", &fit::RunFitOptions::cost_tolerance)
      .def_readwrite("gradient_tolerance", &fit::RunFitOptions::gradient_tolerance)
      .def_readwrite("initial_damping", &fit::RunFitOptions::initial_damping)
      .def_readwrite("max_rejections", &fit::RunFitOptions::max_rejections)
      .def_readwrite("absolute_sigma", &fit::RunFitOptions::absolute_sigma);

  py::class_<fit::FitIteration>(m, "FitIteration")
      .def_readonly("iteration", &fit::FitIteration::iteration)
      .def_readonly("objective", &fit::FitIteration::objective)
      .def_readonly("constraint_violation", &fit::FitIteration::constraint_violation)
      .def_readonly("step_norm", &fit::FitIteration::step_norm)
      .def_readonly("damping", &fit::FitIteration::damping)
      .def_readonly("runs", &fit::FitIteration::runs)
      .def_readonly("values", &fit::FitIteration::values)
      .def_readonly("accepted", &fit::FitIteration::accepted);

  py::class_<fit::RunFitResult>(m, "RunFitResult")
      .def_readonly("converged", &fit::RunFitResult::converged)
      .def_readonly("message", &fit::RunFitResult::message)
      .def_readonly("iterations", &fit::RunFitResult::iterations)
      .def_readonly("values", &fit::RunFitResult::values)
      .def_readonly("sigma", &fit::RunFitResult::sigma)
      .def_readonly("covariance", &fit::RunFitResult::covariance)
      .def_readonly("initial_cost", &fit::RunFitResult::initial_cost)
      .def_readonly("cost", &fit::RunFitResult::cost)
      .def_readonly("history", &fit::RunFitResult::history)
      .def_readonly("simulated", &fit::RunFitResult::simulated)
      .def_readonly("runs", &fit::RunFitResult::runs);

  // (the runs' derivatives are not bound: RunOutcome's values come from Python evaluators)
  m.def(
      "fit_runs",
      [](const std::vector<fit::FitParameter>& parameters, const fit::MeasurementTable& data,
         const fit::RunBatchEvaluator& evaluate, const fit::RunFitOptions& options,
         const std::function<void(const fit::FitIteration&)>& progress) {
        return fit::fit_runs(parameters, data, evaluate, options, progress);
      },
      "parameters"_a, "data"_a, "evaluate"_a, "options"_a = fit::RunFitOptions{},
      "progress"_a = std::function<void(const fit::FitIteration&)>{});
  m.def(
      "fit_runs_with_derivatives",
      [](const std::vector<fit::FitParameter>& parameters, const fit::MeasurementTable& data,
         const std::string& scene_file, int jobs, const fit::RunFitOptions& options,
         const std::function<void(const fit::FitIteration&)>& progress) {
        std::vector<std::string> keys;
        for (const fit::FitParameter& p : parameters) keys.push_back(p.key);
        const fit::RunBatchEvaluator runs =
            fit::derivative_evaluator(scene_file, keys, data.observables, std::max(jobs, 1));
        return fit::fit_runs(parameters, data, runs, options, progress, runs);
      },
      "parameters"_a, "data"_a, "scene_file"_a, "jobs"_a, "options"_a = fit::RunFitOptions{},
      "progress"_a = std::function<void(const fit::FitIteration&)>{});
  m.def(
      "run_scene",
      [](const std::string& scene_file, const fit::RunSettings& settings,
         const std::vector<std::string>& observables) {
        py::gil_scoped_release released;
        return fit::run_scene(scene_file, settings, observables);
      },
      "scene_file"_a, "settings"_a, "observables"_a);
  m.def("parameter_setting", &fit::parameter_setting, "key"_a, "value"_a);
}

}  // namespace tendril::python
