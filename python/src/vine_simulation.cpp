#include "vine_simulation.hpp"

#include "numpy_views.hpp"
#include "tendril/io/scene.hpp"

namespace tendril::python {

VineSimulation::VineSimulation(vine::VineScene scene)
    : scene_(std::move(scene)), stepper_(scene_.model), state_(scene_.initial) {}

VineSimulation VineSimulation::from_file(const std::filesystem::path& file,
                                         const std::vector<std::string>& overrides) {
  return VineSimulation(vine::load_vine_scene_file(file, overrides));
}

VineSimulation VineSimulation::from_text(const std::string& text,
                                         const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_text(text, vine::vine_schema(), overrides, "scene");
  return VineSimulation(vine::load_vine_scene(scene));
}

long VineSimulation::steps_taken() {
  const auto held = lock_.hold();
  return steps_;
}

vine::VineStepReport VineSimulation::step() {
  py::gil_scoped_release release;
  const StepCall call(lock_, "VineSimulation.step");
  const vine::VineStepReport r = stepper_.step(state_);
  steps_ += r.status == vine::QpStatus::solved;
  return r;
}

vine::VineStepReport VineSimulation::step_with_rates(const VecX& joint_rates) {
  if (joint_rates.size() != model().num_prismatic())
    throw py::value_error("rates: got " + std::to_string(joint_rates.size()) +
                          " values; allowed: one per prismatic joint (" +
                          std::to_string(model().num_prismatic()) + ")");
  py::gil_scoped_release release;
  const StepCall call(lock_, "VineSimulation.step");
  const vine::VineStepReport r = stepper_.step(state_, joint_rates);
  steps_ += r.status == vine::QpStatus::solved;
  return r;
}

vine::StepDerivatives VineSimulation::derivatives() {
  const auto held = lock_.hold();
  return vine::step_derivatives(stepper_);
}

MatX VineSimulation::centerline() {
  const auto held = lock_.hold();
  const std::vector<Vec2> points = vine::centerline_points(model(), state_.q);
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
