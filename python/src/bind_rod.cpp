// Names of the rod simulation: Simulation (sim/simulation.hpp), its State views and controls,
// StepReport, Progress, RunResult and CustomForce.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"
#include "rod_simulation.hpp"

namespace tendril::python {

using namespace pybind11::literals;

void bind_rod(py::module_& m) {
  py::enum_<StepStatus>(m, "StepStatus")
      .value("converged", StepStatus::converged)
      .value("max_iterations", StepStatus::max_iterations)
      .value("line_search_failed", StepStatus::line_search_failed)
      .value("non_finite", StepStatus::non_finite)
      .value("linear_solve_failed", StepStatus::linear_solve_failed)
      .value("singular_system", StepStatus::singular_system);

  py::enum_<StopCriterion>(m, "StopCriterion")
      .value("none", StopCriterion::none)
      .value("residual", StopCriterion::residual)
      .value("round_off", StopCriterion::round_off)
      .value("relative_residual", StopCriterion::relative_residual)
      .value("velocity_change", StopCriterion::velocity_change);

  py::class_<StepReport>(m, "StepReport")
      .def_property_readonly("ok", &StepReport::ok)
      .def_readonly("status", &StepReport::status)
      .def_readonly("iterations", &StepReport::iterations)
      .def_readonly("residual_history", &StepReport::residual_history)
      .def_readonly("line_search_steps", &StepReport::line_search_steps)
      .def_readonly("dt", &StepReport::dt)
      .def_readonly("dt_halvings", &StepReport::dt_halvings)
      .def_readonly("substeps", &StepReport::substeps)
      .def_readonly("regularized_iterations", &StepReport::regularized_iterations)
      .def_readonly("chord_iterations", &StepReport::chord_iterations)
      .def_readonly("factorizations", &StepReport::factorizations)
      .def_readonly("criterion", &StepReport::criterion)
      .def_readonly("tolerance", &StepReport::tolerance)
      .def_readonly("round_off_excess", &StepReport::round_off_excess)
      .def_readonly("message", &StepReport::message)
      .def_property_readonly("linear_solver",
                             [](const StepReport& r) { return std::string(r.linear_solver); })
      .def_property_readonly("final_residual", &StepReport::final_residual);

  py::class_<contact::ContactStatistics>(m, "ContactStatistics")
      .def_readonly("active", &contact::ContactStatistics::active)
      .def_readonly("min_gap", &contact::ContactStatistics::min_gap);

  py::class_<io::RunProgress>(m, "Progress")
      .def_readonly("step", &io::RunProgress::step)
      .def_readonly("total_steps", &io::RunProgress::total_steps)
      .def_readonly("time", &io::RunProgress::time)
      .def_readonly("duration", &io::RunProgress::duration)
      .def_readonly("iterations", &io::RunProgress::iterations);

  py::class_<io::RunResult>(m, "RunResult")
      .def_readonly("ok", &io::RunResult::ok)
      .def_readonly("message", &io::RunResult::message)
      .def_readonly("path", &io::RunResult::path)
      .def_readonly("steps", &io::RunResult::steps)
      .def_readonly("frames", &io::RunResult::frames);

  py::class_<PythonForce>(m, "CustomForce")
      .def(py::init<py::object, py::object, std::vector<int>, std::string>(), "force"_a,
           "jacobian"_a = py::none(), "dofs"_a = std::vector<int>{}, "name"_a = "python_force")
      .def_readonly("force", &PythonForce::force)
      .def_readonly("jacobian", &PythonForce::jacobian)
      .def_readonly("dofs", &PythonForce::dofs)
      .def_readonly("name", &PythonForce::name);

  py::class_<RodStateView>(m, "RodState")
      .def(py::init<py::object>(), "simulation"_a)
      .def_property("q", &RodStateView::q, &RodStateView::set_q)
      .def_property("u", &RodStateView::u, &RodStateView::set_u)
      .def_property("positions", &RodStateView::positions, &RodStateView::set_positions)
      .def_property("velocities", &RodStateView::velocities, &RodStateView::set_velocities)
      .def_property("twists", &RodStateView::twists, &RodStateView::set_twists)
      .def_property_readonly("time", &RodStateView::time);

  py::class_<RodControls>(m, "RodControls")
      .def(py::init<py::object>(), "simulation"_a)
      .def_property("natural_curvature", &RodControls::natural_curvature,
                    &RodControls::set_natural_curvature)
      .def_property("natural_twist", &RodControls::natural_twist, &RodControls::set_natural_twist)
      .def_property("rest_length", &RodControls::rest_length, &RodControls::set_rest_length)
      .def_property("hinge_natural_angle", &RodControls::hinge_natural_angle,
                    &RodControls::set_hinge_natural_angle);

  py::class_<RodSimulation>(m, "Simulation")
      .def_static("from_file", &simulation_from_file, "path"_a, "overrides"_a = py::none(),
                  "forces"_a = std::vector<PythonForce>{})
      .def_static("from_yaml", &simulation_from_yaml, "text"_a, "overrides"_a = py::none(),
                  "forces"_a = std::vector<PythonForce>{})
      .def("step", &RodSimulation::step)
      .def("run", &RodSimulation::run, "out"_a = py::none(), "progress"_a = py::none())
      .def("restore", &RodSimulation::restore, "run"_a, "frame"_a = -1)
      .def("energies", &RodSimulation::energies)
      .def("contact_statistics", &RodSimulation::contact_statistics)
      .def("contact_forces", &RodSimulation::contact_forces)
      .def("reactions", &RodSimulation::reactions)
      .def_property_readonly("reaction_dofs",
                             [](const RodSimulation& s) { return s.constant().reaction_dofs(); })
      .def_property_readonly("steps_taken", &RodSimulation::steps_taken)
      .def_property_readonly("steps", &RodSimulation::steps_taken)
      .def_property_readonly("time",
                             [](RodSimulation& s) {
                               const auto held = s.lock().hold();
                               return s.facade().time();
                             })
      .def_property_readonly("total_steps",
                             [](const RodSimulation& s) { return s.constant().total_steps(); })
      .def_property_readonly("finished", &RodSimulation::finished)
      .def_property_readonly(
          "num_nodes", [](const RodSimulation& s) { return s.constant().model().dofs.num_nodes; })
      .def_property_readonly(
          "num_edges", [](const RodSimulation& s) { return s.constant().model().dofs.num_edges; })
      .def_property_readonly(
          "num_dofs", [](const RodSimulation& s) { return s.constant().model().dofs.size(); })
      .def_property_readonly("dt", [](const RodSimulation& s) { return s.constant().scene().dt; })
      .def_property_readonly("duration",
                             [](const RodSimulation& s) { return s.constant().scene().duration; })
      .def_property_readonly("state", [](py::object self) { return RodStateView(std::move(self)); })
      .def_property_readonly("controls",
                             [](py::object self) { return RodControls(std::move(self)); });
}

}  // namespace tendril::python
