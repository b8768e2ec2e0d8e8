// Names of the 3D vine simulator: Vine3dSimulation, its step report, model, step derivatives and
// shooting fit of K and C.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "rod_simulation.hpp"
#include "vine3d_simulation.hpp"

namespace tendril::python {

using namespace pybind11::literals;

namespace {
Vine3dSimulation vine3d_from_file(const std::filesystem::path& file, py::handle overrides) {
  return Vine3dSimulation::from_file(file, override_list(overrides));
}
Vine3dSimulation vine3d_from_yaml(const std::string& text, py::handle overrides) {
  return Vine3dSimulation::from_text(text, override_list(overrides));
}
/// A field of the step's report as a read-only property.
template <class T>
auto field(T vine3d::Vine3dStepReport::*member) {
  return [member](const Vine3dStepResult& r) { return r.report.*member; };
}
}  // namespace

void bind_vine3d(py::module_& m) {
  using R = vine3d::Vine3dStepReport;
  py::class_<Vine3dStepResult>(m, "Vine3dStepReport")
      .def_property_readonly(
          "ok", [](const Vine3dStepResult& r) { return r.report.ok() && r.message.empty(); })
      .def_readonly("message", &Vine3dStepResult::message)
      .def_property_readonly("status", field(&R::status))
      .def_property_readonly("qp_iterations", field(&R::qp_iterations))
      .def_property_readonly("kkt_residual", field(&R::kkt_residual))
      .def_property_readonly("joint_error", field(&R::joint_error))
      .def_property_readonly("growth_rate", field(&R::growth_rate))
      .def_property_readonly("kinetic_energy", field(&R::kinetic_energy))
      .def_property_readonly("min_distance", field(&R::min_distance))
      .def_property_readonly("active_contacts", field(&R::active_contacts));

  py::class_<vine3d::Vine3dModel>(m, "Vine3dModel")
      .def_readonly("num_bodies", &vine3d::Vine3dModel::num_bodies)
      .def_property_readonly("num_bending", &vine3d::Vine3dModel::num_bending)
      .def_property_readonly("num_prismatic", &vine3d::Vine3dModel::num_prismatic)
      .def_readonly("dt", &vine3d::Vine3dModel::dt)
      .def_readonly("stiffness", &vine3d::Vine3dModel::stiffness)
      .def_readonly("damping", &vine3d::Vine3dModel::damping)
      .def_readonly("contact_radius", &vine3d::Vine3dModel::contact_radius)
      .def_property_readonly(
          "num_obstacles", [](const vine3d::Vine3dModel& model) { return model.obstacles.size(); });

  using D = vine3d::Vine3dStepDerivatives;
  py::class_<D>(m, "Vine3dStepDerivatives")
      .def_readonly("ok", &D::ok)
      .def_readonly("active_inequalities", &D::active_inequalities)
      .def_readonly("dx_dx", &D::dx_dx)
      .def_readonly("dx_dK", &D::dx_dK)
      .def_readonly("dx_dC", &D::dx_dC)
      .def_readonly("dx_du", &D::dx_du);

  using F = vine3d::ShootingFit3Result;
  py::class_<F>(m, "Vine3dShootingFit")
      .def_readonly("stiffness", &F::stiffness)
      .def_readonly("damping", &F::damping)
      .def_readonly("stiffness_sigma", &F::stiffness_sigma)
      .def_readonly("damping_sigma", &F::damping_sigma)
      .def_readonly("rms_error", &F::rms_error)
      .def_readonly("iterations", &F::iterations)
      .def_readonly("converged", &F::converged);

  py::class_<Vine3dSimulation>(m, "Vine3dSimulation")
      .def_static("from_file", &vine3d_from_file, "path"_a, "overrides"_a = py::none())
      .def_static("from_yaml", &vine3d_from_yaml, "text"_a, "overrides"_a = py::none())
      .def("step", &Vine3dSimulation::step)
      .def("step", &Vine3dSimulation::step_with_rates, "rates"_a)
      .def("run", &Vine3dSimulation::run, "out"_a = py::none(), "progress"_a = py::none())
      .def("restore", &Vine3dSimulation::restore, "run"_a, "frame"_a = -1)
      .def("positions", &Vine3dSimulation::positions)
      .def("orientations", &Vine3dSimulation::orientations)
      .def("velocities", &Vine3dSimulation::velocities)
      .def("centerline", &Vine3dSimulation::centerline)
      .def("derivatives", &Vine3dSimulation::derivatives)
      .def(
          "fit_stiffness_damping",
          [](Vine3dSimulation& sim, const std::vector<std::pair<int, MatX>>& frames,
             double stiffness, double damping, int max_iterations, double step_tolerance) {
            vine3d::ShootingFit3Options options;
            options.max_iterations = max_iterations;
            options.step_tolerance = step_tolerance;
            return sim.fit_stiffness_damping(frames, stiffness, damping, options);
          },
          "frames"_a, "stiffness"_a, "damping"_a, "max_iterations"_a = 40,
          "step_tolerance"_a = 1e-10)
      .def_property_readonly("model", &Vine3dSimulation::model,
                             py::return_value_policy::reference_internal)
      .def_property_readonly("steps_taken", &Vine3dSimulation::steps_taken)
      .def_property_readonly("steps", &Vine3dSimulation::steps_taken)
      .def_property_readonly("total_steps", &Vine3dSimulation::total_steps)
      .def_property_readonly("finished", &Vine3dSimulation::finished)
      .def_property_readonly("duration", &Vine3dSimulation::duration)
      .def_property_readonly("time", &Vine3dSimulation::time);
}

}  // namespace tendril::python
