// Names of the vine simulator: VineSimulation, its state views, the stepper's constraint Jacobians
// (vine/vine_stepper.hpp) and the step derivatives (vine/step_derivatives.hpp); the vine fits of a
// fit file (fit_vine_file: vine_shooting, joint_estimation or the 3D vine's vine3d_shooting,
// docs/physics/fitting.md).
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "rod_simulation.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/fit_report.hpp"
#include "tendril/fit/vine3d_fit_file.hpp"
#include "vine_simulation.hpp"

namespace tendril::python {

using namespace pybind11::literals;

namespace {
VineSimulation vine_from_file(const std::filesystem::path& file, py::handle overrides) {
  return VineSimulation::from_file(file, override_list(overrides));
}
VineSimulation vine_from_yaml(const std::string& text, py::handle overrides) {
  return VineSimulation::from_text(text, override_list(overrides));
}
/// A VineStepper method as a method of VineStepperView (called holding the simulation's lock).
template <typename R, typename... Args>
auto locked(R (vine::VineStepper::*method)(Args...) const) {
  return [method](const VineStepperView& s, const std::decay_t<Args>&... args) {
    return s.call(method, args...);
  };
}
/// The vine fit of fit file `path` (as `tendril fit` runs it, without writing a folder): its
/// fit.json as text; `progress` (may be empty) gets every progress line.
std::string fit_vine_file(const std::filesystem::path& path,
                          const std::function<void(const fit::FitIteration&)>& progress) {
  const fit::FitFile file = fit::read_fit_file(path);
  if (!fit::is_vine_method(file.method) && !fit::is_vine3d_method(file.method))
    throw InputError(
        "method", file.method,
        "vine_shooting, joint_estimation or vine3d_shooting (tendril.fit fits the other methods)");
  fit::FitContext context;
  context.progress = progress;
  return fit::fit_json(file.method, fit::fit_method(file.method).run(file, context)).dump(-1);
}
}  // namespace

void bind_vine(py::module_& m) {
  using vine::QpStatus;
  py::enum_<QpStatus>(m, "QpStatus")
      .value("solved", QpStatus::solved)
      .value("infeasible", QpStatus::infeasible)
      .value("unbounded", QpStatus::unbounded)
      .value("max_iterations", QpStatus::max_iterations)
      .value("numerical_failure", QpStatus::numerical_failure);

  py::class_<vine::VineStepReport>(m, "VineStepReport")
      .def_property_readonly(
          "ok", [](const vine::VineStepReport& r) { return r.ok() && r.message.empty(); })
      .def_readonly("message", &vine::VineStepReport::message)
      .def_readonly("status", &vine::VineStepReport::status)
      .def_readonly("qp_iterations", &vine::VineStepReport::qp_iterations)
      .def_readonly("iterations", &vine::VineStepReport::qp_iterations)
      .def_readonly("kkt_residual", &vine::VineStepReport::kkt_residual)
      .def_readonly("joint_error", &vine::VineStepReport::joint_error)
      .def_readonly("min_distance", &vine::VineStepReport::min_distance)
      .def_readonly("active_contacts", &vine::VineStepReport::active_contacts);

  py::class_<vine::StepDerivatives>(m, "StepDerivatives")
      .def_readonly("ok", &vine::StepDerivatives::ok)
      .def_readonly("active_inequalities", &vine::StepDerivatives::active_inequalities)
      .def_readonly("dq_dq", &vine::StepDerivatives::dq_dq)
      .def_readonly("dq_dv", &vine::StepDerivatives::dq_dv)
      .def_readonly("dv_dq", &vine::StepDerivatives::dv_dq)
      .def_readonly("dv_dv", &vine::StepDerivatives::dv_dv)
      .def_readonly("dq_dK", &vine::StepDerivatives::dq_dK)
      .def_readonly("dv_dK", &vine::StepDerivatives::dv_dK)
      .def_readonly("dq_dC", &vine::StepDerivatives::dq_dC)
      .def_readonly("dv_dC", &vine::StepDerivatives::dv_dC)
      .def_readonly("dq_du", &vine::StepDerivatives::dq_du)
      .def_readonly("dv_du", &vine::StepDerivatives::dv_du)
      .def_readonly("dq_drest", &vine::StepDerivatives::dq_drest)
      .def_readonly("dv_drest", &vine::StepDerivatives::dv_drest)
      .def_readonly("dq_dradius", &vine::StepDerivatives::dq_dradius)
      .def_readonly("dv_dradius", &vine::StepDerivatives::dv_dradius)
      .def_readonly("dq_dlaw", &vine::StepDerivatives::dq_dlaw)
      .def_readonly("dv_dlaw", &vine::StepDerivatives::dv_dlaw);

  py::class_<vine::InflatedBeam>(m, "InflatedBeam")
      .def_readonly("pressure", &vine::InflatedBeam::pressure)
      .def_readonly("radius", &vine::InflatedBeam::radius)
      .def_readonly("wrinkling_strain", &vine::InflatedBeam::wrinkling_strain)
      .def_readonly("joint_length", &vine::InflatedBeam::joint_length)
      .def_property_readonly("collapse_moment", &vine::InflatedBeam::collapse_moment)
      .def_property_readonly("wrinkling_angle", &vine::InflatedBeam::wrinkling_angle)
      .def_property_readonly("bending_stiffness", &vine::InflatedBeam::bending_stiffness);

  py::class_<vine::VineModel>(m, "VineModel")
      .def_readonly("num_bodies", &vine::VineModel::num_bodies)
      .def_property_readonly("num_pins", &vine::VineModel::num_pins)
      .def_property_readonly("num_prismatic", &vine::VineModel::num_prismatic)
      .def_readonly("dt", &vine::VineModel::dt)
      .def_readonly("stiffness", &vine::VineModel::stiffness)
      .def_readonly("damping", &vine::VineModel::damping)
      .def_readonly("rest_angle", &vine::VineModel::rest_angle)
      .def_readonly("contact_radius", &vine::VineModel::contact_radius)
      .def_property_readonly(
          "bending_law",
          [](const vine::VineModel& model) {
            return model.bending_law == vine::BendingLaw::linear ? "linear" : "inflated_beam";
          })
      .def_property_readonly(
          "springs",
          [](const vine::VineModel& model) {
            return model.springs == vine::SpringIntegration::implicit ? "implicit" : "explicit";
          })
      .def_readonly("inflated_beam", &vine::VineModel::inflated_beam);

  py::class_<VineStepperView>(m, "VineStepper")
      .def(py::init<py::object>(), "simulation"_a)
      .def("joint_growth_rates", locked(&vine::VineStepper::joint_growth_rates), "time"_a)
      .def("joint_jacobian", locked(&vine::VineStepper::joint_jacobian))
      .def("growth_jacobian", locked(&vine::VineStepper::growth_jacobian))
      .def("contact_jacobian", locked(&vine::VineStepper::contact_jacobian))
      .def("joint_errors", locked(&vine::VineStepper::joint_errors))
      .def("joint_errors_at", locked(&vine::VineStepper::joint_errors_at), "q"_a)
      .def("contact_distances_at", locked(&vine::VineStepper::contact_distances_at), "q"_a)
      .def("joint_impulses", locked(&vine::VineStepper::joint_impulses))
      .def("growth_impulses", locked(&vine::VineStepper::growth_impulses))
      .def_property_readonly("last_q", locked(&vine::VineStepper::last_q))
      .def_property_readonly("last_v", locked(&vine::VineStepper::last_v))
      .def_property_readonly("last_joint_rates", locked(&vine::VineStepper::last_joint_rates));

  py::class_<VineStateView>(m, "VineState")
      .def(py::init<py::object>(), "simulation"_a)
      .def_property("q", &VineStateView::q, &VineStateView::set_q)
      .def_property("v", &VineStateView::v, &VineStateView::set_v)
      .def_property_readonly("poses", &VineStateView::poses)
      .def_property_readonly("time", &VineStateView::time);

  py::class_<VineSimulation>(m, "VineSimulation")
      .def_static("from_file", &vine_from_file, "path"_a, "overrides"_a = py::none())
      .def_static("from_yaml", &vine_from_yaml, "text"_a, "overrides"_a = py::none())
      .def("step", &VineSimulation::step)
      .def("step", &VineSimulation::step_with_rates, "rates"_a)
      .def("run", &VineSimulation::run, "out"_a = py::none(), "progress"_a = py::none())
      .def("restore", &VineSimulation::restore, "run"_a, "frame"_a = -1)
      .def("derivatives", &VineSimulation::derivatives)
      .def("centerline", &VineSimulation::centerline)
      .def_property_readonly("model", &VineSimulation::model,
                             py::return_value_policy::reference_internal)
      .def_property_readonly("stepper",
                             [](py::object self) { return VineStepperView(std::move(self)); })
      .def_property_readonly("steps_taken", &VineSimulation::steps_taken)
      .def_property_readonly("steps", &VineSimulation::steps_taken)
      .def_property_readonly("total_steps", &VineSimulation::total_steps)
      .def_property_readonly("finished", &VineSimulation::finished)
      .def_property_readonly("duration", &VineSimulation::duration)
      .def_property_readonly("time",
                             [](VineSimulation& s) {
                               const auto held = s.lock().hold();
                               return s.state().time;
                             })
      .def_property_readonly("state",
                             [](py::object self) { return VineStateView(std::move(self)); });

  m.def("fit_vine_file", &fit_vine_file, "path"_a,
        "progress"_a = std::function<void(const fit::FitIteration&)>{});
}

}  // namespace tendril::python
