#include "vine_simulation.hpp"

#include "numpy_views.hpp"
#include "run_call.hpp"
#include "tendril/io/scene.hpp"

namespace tendril::python {

VineSimulation VineSimulation::from_file(const std::filesystem::path& file,
                                         const std::vector<std::string>& overrides) {
  return VineSimulation(vine::load_vine_scene_file(file, overrides));
}

VineSimulation VineSimulation::from_text(const std::string& text,
                                         const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_text(text, vine::vine_schema(), overrides, "scene");
  return VineSimulation(vine::load_vine_scene(scene));
}

template <class Step>
vine::VineStepReport VineSimulation::step_locked(const Step& step) {
  py::gil_scoped_release release;
  const StepCall call(lock_, "VineSimulation.step");
  const vine::VineStepReport r = step();
  steps_ = run_.steps();
  return r;
}

vine::VineStepReport VineSimulation::step() {
  return step_locked([this] { return run_.step(); });
}

vine::VineStepReport VineSimulation::step_with_rates(const VecX& joint_rates) {
  if (joint_rates.size() != model().num_prismatic())
    throw py::value_error("rates: got " + std::to_string(joint_rates.size()) +
                          " values; allowed: one per prismatic joint (" +
                          std::to_string(model().num_prismatic()) + ")");
  return step_locked([&] { return run_.step(joint_rates); });
}

io::RunResult VineSimulation::run(const py::object& out, const py::object& progress) {
  return run_with_lock(run_, lock_, "VineSimulation.run", out, progress, steps_);
}

void VineSimulation::restore(const std::filesystem::path& run_dir, long frame) {
  const auto held = lock_.hold();
  run_.restore(run_dir, frame);
}

vine::StepDerivatives VineSimulation::derivatives() {
  const auto held = lock_.hold();
  return vine::step_derivatives(run_.stepper());
}

MatX VineSimulation::centerline() {
  const auto held = lock_.hold();
  const std::vector<Vec2> points = vine::centerline_points(model(), run_.state().q);
  MatX out(static_cast<Eigen::Index>(points.size()), 2);
  for (std::size_t i = 0; i < points.size(); ++i)
    out.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
  return out;
}

VineStateView::VineStateView(py::object owner)
    : owner_(std::move(owner)), sim_(owner_.cast<VineSimulation&>()) {}

py::array VineStateView::q() const {
  vine::VineState& s = sim_.state();
  return contiguous_view(s.q.data(), {s.q.size()}, owner_, true);
}
py::array VineStateView::v() const {
  vine::VineState& s = sim_.state();
  return contiguous_view(s.v.data(), {s.v.size()}, owner_, true);
}
py::array VineStateView::poses() const {
  vine::VineState& s = sim_.state();
  return contiguous_view(s.q.data(), {s.q.size() / 3, 3}, owner_, true);
}
double VineStateView::time() const {
  const auto held = sim_.lock().hold();
  return sim_.state().time;
}
void VineStateView::set_q(py::handle value) const {
  assign_locked(sim_.lock(), q(), value, "state.q");
}
void VineStateView::set_v(py::handle value) const {
  assign_locked(sim_.lock(), v(), value, "state.v");
}

}  // namespace tendril::python
