#include "rod_simulation.hpp"

#include <algorithm>

#include "numpy_views.hpp"
#include "run_call.hpp"

namespace tendril::python {

namespace {

/// "an int 5", "a set {1}": a value from Python as the error messages show it.
std::string shown(py::handle value) {
  const std::string type = py::str(py::type::of(value).attr("__name__"));
  const bool vowel = std::string("aeiou").find(type.empty() ? 'x' : type[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + type + " " + std::string(py::repr(value)).substr(0, 80);
}

/// The key path of a "key.path=value" override, indices after dots ("rods[0].E" -> "rods.0.E").
std::string override_path(const std::string& assignment) {
  std::string path;
  for (char c : assignment.substr(0, assignment.find('='))) {
    if (c == '[') path += '.';
    if (c != '[' && c != ']') path += c;
  }
  return path;
}

/// `given` without the overrides of the keys `more` sets, followed by `more` (a key once).
std::vector<std::string> with_overrides(const std::vector<std::string>& given,
                                        const std::vector<std::string>& more) {
  std::vector<std::string> all;
  for (const std::string& g : given)
    if (std::none_of(more.begin(), more.end(),
                     [&g](const std::string& m) { return override_path(m) == override_path(g); }))
      all.push_back(g);
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

}  // namespace

std::vector<std::string> override_list(py::handle overrides) {
  std::vector<std::string> out;
  if (overrides.is_none()) return out;
  if (py::isinstance<py::dict>(overrides)) {
    const py::object dumps = py::module_::import("json").attr("dumps");
    for (const auto& [key, value] : overrides.cast<py::dict>()) {
      const std::string path = py::str(key).cast<std::string>();
      std::string text;
      if (py::isinstance<py::str>(value)) {
        text = value.cast<std::string>();
      } else {
        try {
          text = dumps(value).cast<std::string>();
        } catch (const py::error_already_set&) {
          throw py::type_error(
              "overrides['" + path + "']: got " + shown(value) +
              "; allowed: a str (YAML text), a number, a bool, None, or a list or dict of these");
        }
      }
      out.push_back(path + "=" + text);
    }
    return out;
  }
  if (py::isinstance<py::str>(overrides) || !py::isinstance<py::iterable>(overrides))
    throw py::type_error(
        "overrides: got " + shown(overrides) +
        "; allowed: a list of \"key.path=value\" strings or a dict {key.path: value}");
  for (const auto& item : overrides) {
    if (!py::isinstance<py::str>(item))
      throw py::type_error("overrides[" + std::to_string(out.size()) + "]: got " + shown(item) +
                           "; allowed: a \"key.path=value\" string");
    out.push_back(item.cast<std::string>());
  }
  return out;
}

RodSimulation make_simulation(
    const std::function<sim::RodScene(const std::vector<std::string>& overrides)>& load,
    const std::vector<PythonForce>& forces) {
  sim::RodScene scene = load({});
  std::vector<std::shared_ptr<const ForceTerm>> added;
  for (const PythonForce& f : forces)
    added.push_back(make_custom_force(f, scene.model.dofs.size()));
  scene.model.forces.insert(scene.model.forces.end(), added.begin(), added.end());
  auto reload = [load, added](const std::vector<std::string>& overrides) {
    Model model = load(overrides).model;
    model.forces.insert(model.forces.end(), added.begin(), added.end());
    return model;
  };
  return RodSimulation(sim::Simulation(std::move(scene)), std::move(reload));
}

RodSimulation simulation_from_file(const std::filesystem::path& file, py::handle overrides,
                                   const std::vector<PythonForce>& forces) {
  return make_simulation(
      [file, given = override_list(overrides)](const std::vector<std::string>& more) {
        return sim::load_rod_scene_file(file, with_overrides(given, more));
      },
      forces);
}

RodSimulation simulation_from_yaml(const std::string& text, py::handle overrides,
                                   const std::vector<PythonForce>& forces) {
  return make_simulation(
      [text, given = override_list(overrides)](const std::vector<std::string>& more) {
        return sim::load_rod_scene_text(text, with_overrides(given, more));
      },
      forces);
}

py::dict RodSimulation::energies() {
  const auto held = lock_.hold();
  py::dict d;
  for (const auto& [name, value] : sim_.energies()) d[py::str(name)] = value;
  return d;
}

contact::ContactStatistics RodSimulation::contact_statistics() {
  const auto held = lock_.hold();
  return sim_.contact_statistics();
}

py::array RodSimulation::contact_forces() {
  VecX forces;
  {
    const auto held = lock_.hold();
    forces = sim_.contact_forces();
  }
  py::array_t<double> out({forces.size() / 3, Eigen::Index(3)});
  std::copy(forces.data(), forces.data() + forces.size(), out.mutable_data());
  return out;
}

VecX RodSimulation::reactions() {
  const auto held = lock_.hold();
  return sim_.reactions();
}

io::RunResult RodSimulation::run(const py::object& out, const py::object& progress) {
  return run_with_lock(sim_, lock_, "Simulation.run", out, progress, steps_);
}

void RodSimulation::restore(const std::filesystem::path& run_dir, long frame) {
  const auto held = lock_.hold();
  sim_.restore(run_dir, frame);
  steps_ = sim_.steps_taken();
}

StepReport RodSimulation::step() {
  py::gil_scoped_release release;
  const StepCall call(lock_, "Simulation.step");
  const StepReport report = sim_.step();
  steps_ = sim_.steps_taken();
  return report;
}

RodStateView::RodStateView(py::object owner)
    : owner_(std::move(owner)), sim_(owner_.cast<RodSimulation&>()) {}

py::array RodStateView::q() const {
  State& s = sim_.facade().state();
  return contiguous_view(s.q.data(), {s.q.size()}, owner_, true);
}
py::array RodStateView::u() const {
  State& s = sim_.facade().state();
  return contiguous_view(s.u.data(), {s.u.size()}, owner_, true);
}
py::array RodStateView::positions() const {
  return contiguous_view(sim_.facade().state().q.data(),
                         {sim_.constant().model().dofs.num_nodes, 3}, owner_, true);
}
py::array RodStateView::velocities() const {
  return contiguous_view(sim_.facade().state().u.data(),
                         {sim_.constant().model().dofs.num_nodes, 3}, owner_, true);
}
py::array RodStateView::twists() const {
  const DofMap& d = sim_.constant().model().dofs;
  return contiguous_view(sim_.facade().state().q.data() + d.twist(0), {d.num_edges}, owner_, true);
}
double RodStateView::time() const {
  const auto held = sim_.lock().hold();
  return sim_.facade().state().time;
}
void RodStateView::set_q(py::handle v) const {
  assign_locked(sim_.lock(), q(), v, "state.q");
}
void RodStateView::set_u(py::handle v) const {
  assign_locked(sim_.lock(), u(), v, "state.u");
}
void RodStateView::set_positions(py::handle v) const {
  assign_locked(sim_.lock(), positions(), v, "state.positions");
}
void RodStateView::set_velocities(py::handle v) const {
  assign_locked(sim_.lock(), velocities(), v, "state.velocities");
}
void RodStateView::set_twists(py::handle v) const {
  assign_locked(sim_.lock(), twists(), v, "state.twists");
}

RodControls::RodControls(py::object owner)
    : owner_(std::move(owner)),
      sim_(owner_.cast<RodSimulation&>()),
      model_(sim_.facade().model()) {}

py::array RodControls::natural_curvature() const {
  auto& springs = model_.rods.springs;
  const auto s = static_cast<py::ssize_t>(springs.size());
  double* data = s ? springs[0].natural_curvature.data() : nullptr;
  return double_view(data, {s, 2},
                     {static_cast<py::ssize_t>(sizeof(BendTwistSpring)), sizeof(double)}, owner_,
                     true);
}
py::array RodControls::natural_twist() const {
  auto& springs = model_.rods.springs;
  const auto s = static_cast<py::ssize_t>(springs.size());
  double* data = s ? &springs[0].natural_twist : nullptr;
  return double_view(data, {s}, {static_cast<py::ssize_t>(sizeof(BendTwistSpring))}, owner_, true);
}
py::array RodControls::rest_length() const {
  auto& l = model_.rods.rest_length;
  return contiguous_view(l.data(), {static_cast<py::ssize_t>(l.size())}, owner_, true);
}
py::array RodControls::hinge_natural_angle() const {
  auto& hinges = model_.shells.hinges;
  const auto h = static_cast<py::ssize_t>(hinges.size());
  double* data = h ? &hinges[0].natural_angle : nullptr;
  return double_view(data, {h}, {static_cast<py::ssize_t>(sizeof(ShellHinge))}, owner_, true);
}
void RodControls::set_natural_curvature(py::handle v) const {
  assign_locked(sim_.lock(), natural_curvature(), v, "controls.natural_curvature");
}
void RodControls::set_natural_twist(py::handle v) const {
  assign_locked(sim_.lock(), natural_twist(), v, "controls.natural_twist");
}
void RodControls::set_rest_length(py::handle v) const {
  assign_locked(sim_.lock(), rest_length(), v, "controls.rest_length");
}
void RodControls::set_hinge_natural_angle(py::handle v) const {
  assign_locked(sim_.lock(), hinge_natural_angle(), v, "controls.hinge_natural_angle");
}

}  // namespace tendril::python
