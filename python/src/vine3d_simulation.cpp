#include "vine3d_simulation.hpp"

#include "run_call.hpp"
#include "tendril/io/scene.hpp"

namespace tendril::python {

Vine3dSimulation Vine3dSimulation::from_file(const std::filesystem::path& file,
                                             const std::vector<std::string>& overrides) {
  return Vine3dSimulation(vine3d::load_vine3d_scene_file(file, overrides));
}

Vine3dSimulation Vine3dSimulation::from_text(const std::string& text,
                                             const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_text(text, vine3d::vine3d_schema(), overrides, "scene");
  return Vine3dSimulation(vine3d::load_vine3d_scene(scene));
}

template <class Step>
Vine3dStepResult Vine3dSimulation::step_locked(const Step& step) {
  py::gil_scoped_release release;
  const StepCall call(lock_, "Vine3dSimulation.step");
  Vine3dStepResult r{step(), run_.message()};
  steps_ = run_.steps();
  return r;
}

Vine3dStepResult Vine3dSimulation::step() {
  return step_locked([this] { return run_.step(); });
}

Vine3dStepResult Vine3dSimulation::step_with_rates(const VecX& joint_rates) {
  if (joint_rates.size() != model().num_prismatic())
    throw py::value_error("rates: got " + std::to_string(joint_rates.size()) +
                          " values; allowed: one per prismatic joint (" +
                          std::to_string(model().num_prismatic()) + ")");
  return step_locked([&] { return run_.step(joint_rates); });
}

io::RunResult Vine3dSimulation::run(const py::object& out, const py::object& progress) {
  return run_with_lock(run_, lock_, "Vine3dSimulation.run", out, progress, steps_);
}

void Vine3dSimulation::restore(const std::filesystem::path& run_dir, long frame) {
  const auto held = lock_.hold();
  run_.restore(run_dir, frame);
}

vine3d::Vine3dStepDerivatives Vine3dSimulation::derivatives() {
  const auto held = lock_.hold();
  if (steps_taken() == 0) return {};
  return vine3d::step_derivatives(run_.stepper());
}

vine3d::ShootingFit3Result Vine3dSimulation::fit_stiffness_damping(
    const std::vector<std::pair<int, MatX>>& frames, double stiffness, double damping,
    const vine3d::ShootingFit3Options& options) {
  std::vector<vine3d::TrackedFrame3> tracked;
  for (const auto& [step, points] : frames) tracked.push_back({step, points});
  const auto held = lock_.hold();
  py::gil_scoped_release release;
  return vine3d::fit_stiffness_damping(model(), run_.state(), tracked, stiffness, damping, options);
}

double Vine3dSimulation::time() {
  const auto held = lock_.hold();
  return run_.state().time;
}

MatX Vine3dSimulation::positions() {
  const auto held = lock_.hold();
  const vine3d::Vine3dState& s = run_.state();
  MatX out(static_cast<Eigen::Index>(s.position.size()), 3);
  for (std::size_t i = 0; i < s.position.size(); ++i)
    out.row(static_cast<Eigen::Index>(i)) = s.position[i].transpose();
  return out;
}

MatX Vine3dSimulation::orientations() {
  const auto held = lock_.hold();
  const vine3d::Vine3dState& s = run_.state();
  MatX out(static_cast<Eigen::Index>(s.orientation.size()), 4);
  for (std::size_t i = 0; i < s.orientation.size(); ++i) {
    const vine3d::Quat& r = s.orientation[i];
    out.row(static_cast<Eigen::Index>(i)) << r.w(), r.x(), r.y(), r.z();
  }
  return out;
}

MatX Vine3dSimulation::velocities() {
  const auto held = lock_.hold();
  const VecX& v = run_.state().velocity;
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor>;
  return Eigen::Map<const Rows>(v.data(), v.size() / 6, 6);
}

MatX Vine3dSimulation::centerline() {
  const auto held = lock_.hold();
  const std::vector<Vec3> points = vine3d::centerline_points(model(), run_.state());
  MatX out(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t i = 0; i < points.size(); ++i)
    out.row(static_cast<Eigen::Index>(i)) = points[i].transpose();
  return out;
}

}  // namespace tendril::python
