// The adjoint parameters of a scene by their Python names (adjoint_parameters.hpp).
#include "adjoint_parameters.hpp"

#include <memory>
#include <optional>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/adjoint/control_parameters.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/scene_key_parameters.hpp"
#include "tendril/forces/point_load.hpp"

namespace tendril::python {
namespace {

[[noreturn]] void refuse(const std::string& name, const std::string& allowed) {
  throw InputError("parameters", name, allowed);
}

/// The numbers of `name` matching `pattern` (its groups), or nothing.
std::optional<std::smatch> match(const std::string& name, const char* pattern) {
  std::smatch m;
  if (!std::regex_match(name, m, std::regex(pattern))) return std::nullopt;
  return m;
}

/// Index `k` of `what` among `count` (InputError naming the parameter otherwise).
std::size_t index_in(const std::string& name, const std::string& k, std::size_t count,
                     const std::string& what) {
  const std::size_t i = std::stoul(k);
  if (i >= count) refuse(name, fmt::format("an index of the scene's {} (it has {})", what, count));
  return i;
}

/// Component x, y or z of the force of forces.point_loads[j] (the j-th PointLoad of the model).
std::optional<adjoint::Parameter> load_parameter(const Model& model, const std::string& name) {
  const auto m = match(name, R"(point_loads\[(\d{1,9})\]\.force_([xyz]))");
  if (!m) return std::nullopt;
  std::vector<std::size_t> loads;
  for (std::size_t j = 0; j < model.forces.size(); ++j)
    if (dynamic_cast<const PointLoad*>(model.forces[j].get())) loads.push_back(j);
  const std::size_t j = loads[index_in(name, (*m)[1], loads.size(), "point loads")];
  return adjoint::point_load_component(model, j, (*m)[2].str()[0] - 'x');
}

/// The member path of the resolved scene, or null.
const io::Json* member(const io::Json& root, std::initializer_list<std::string> path) {
  const io::Json* at = &root;
  for (const std::string& key : path) {
    if (!at) return nullptr;
    if (key.front() >= '0' && key.front() <= '9') {
      const io::Json::Array* list = at->elements();
      const std::size_t i = std::stoul(key);
      at = list && i < list->size() ? &(*list)[i] : nullptr;
    } else {
      at = at->find(key);
    }
  }
  return at;
}

/// The Poisson ratio every rod and shell material of the scene gives (`nu`).
double scene_poisson_ratio(const io::Json& scene, const std::string& name) {
  std::optional<double> nu;
  for (const char* kind : {"rods", "shells"}) {
    const io::Json* list = scene.find(kind);
    for (std::size_t i = 0; list && list->elements() && i < list->elements()->size(); ++i) {
      const io::Json* value = member(scene, {kind, std::to_string(i), "material", "nu"});
      if (!value || !value->number() || (nu && *nu != *value->number()))
        refuse(name, fmt::format("a scene whose materials all give the same nu ({}[{}] gives {})",
                                 kind, i, value && value->number() ? "another" : "none"));
      nu = *value->number();
    }
  }
  if (!nu) refuse(name, "a scene with rods or shells");
  return *nu;
}

/// Replaces the rest-shape schedule model.actuators[index] (actuation `a` of `scene`, a table) by
/// the equivalent ControlSchedule, unless it is one already.
void as_control(Model& model, std::size_t index, const io::Json& scene, const std::string& a,
                const std::string& name) {
  const auto* schedule = dynamic_cast<const RestShapeSchedule*>(model.actuators[index].get());
  if (!schedule) return;  // replaced by another knot of it
  const io::Json* type = member(scene, {"actuation", a, "schedule", "type"});
  const io::Json* table = member(scene, {"actuation", a, "schedule", "table"});
  if (!type || !type->text() || *type->text() != "table" || !table || !table->elements())
    refuse(name, "a knot of an actuation with a table schedule");
  std::vector<double> times, values;
  for (const io::Json& row : *table->elements()) {
    times.push_back(*(*row.elements())[0].number());
    values.push_back(*(*row.elements())[1].number());
  }
  if (schedule->quantity() == RestQuantity::rest_length)
    refuse(name, "a knot of a natural curvature or twist schedule (not rest_length)");
  model.actuators[index] = std::make_shared<adjoint::ControlSchedule>(
      model, schedule->quantity(), schedule->targets(), std::move(times), std::move(values));
}

/// actuation[a].table[j]: the value of row j of the table schedule of the scene's actuation a
/// (natural curvature or twist), on a model whose a-th rest-shape schedule is replaced by the
/// equivalent ControlSchedule (also in a model a scene key's parameter loaded again).
std::optional<adjoint::Parameter> knot_parameter(Model& model, const io::Json& scene,
                                                 const std::string& name) {
  const auto m = match(name, R"(actuation\[(\d{1,9})\]\.table\[(\d{1,9})\])");
  if (!m) return std::nullopt;
  std::vector<std::size_t> schedules;
  for (std::size_t i = 0; i < model.actuators.size(); ++i)
    if (dynamic_cast<const RestShapeSchedule*>(model.actuators[i].get()) ||
        dynamic_cast<const adjoint::ControlSchedule*>(model.actuators[i].get()))
      schedules.push_back(i);
  const std::string a = (*m)[1];
  const std::size_t index = schedules[index_in(name, a, schedules.size(), "actuations")];
  as_control(model, index, scene, a, name);
  const auto& control = static_cast<const adjoint::ControlSchedule&>(*model.actuators[index]);
  adjoint::Parameter p = adjoint::control_knot(
      model, index, static_cast<int>(index_in(name, (*m)[2], control.values().size(), "rows")));
  p.apply = [knot = p.apply, index, scene, a, name](Model& moved, double value) {
    as_control(moved, index, scene, a, name);
    knot(moved, value);
  };
  return p;
}

/// The parameters no scene key expresses: of the rods' rest shape and Poisson ratio, single
/// springs' natural curvatures, single edges' rest lengths and single hinges' natural angles (the
/// quantities of sim.controls), single mid-edge shell edges' natural folds.
std::optional<adjoint::Parameter> model_parameter(const Model& model, const io::Json& scene,
                                                  const std::string& name, double value) {
  if (name == "rest_length_scale") return adjoint::rest_length_scale(model, 1.0);
  if (name == "poisson_ratio")
    return adjoint::poisson_ratio(model, scene_poisson_ratio(scene, name));
  if (name == "natural_curvature_1" || name == "natural_curvature_2")
    return adjoint::uniform_natural_curvature(name.back() == '1' ? 0 : 1, value);
  if (const auto m = match(name, R"(springs\[(\d{1,9})\]\.natural_curvature_([12]))"))
    return adjoint::spring_natural_curvature(model, std::stoi((*m)[1]), (*m)[2] == "1" ? 0 : 1);
  if (const auto m = match(name, R"(edges\[(\d{1,9})\]\.rest_length)"))
    return adjoint::edge_rest_length(model, std::stoi((*m)[1]));
  if (const auto m = match(name, R"(hinges\[(\d{1,9})\]\.natural_angle)"))
    return adjoint::hinge_natural_angle(model, std::stoi((*m)[1]));
  if (const auto m = match(name, R"(shell_edges\[(\d{1,9})\]\.natural_fold)"))
    return adjoint::midedge_natural_fold(model, std::stoi((*m)[1]));
  return std::nullopt;
}

/// What a parameter name may be (the InputError's "allowed").
std::string allowed_names() {
  return "a scene key tendril fit's adjoint_lm differentiates (" +
         fit::comma_separated(fit::differentiated_keys()) +
         "; an index in [] or after a dot), or rest_length_scale, poisson_ratio, "
         "natural_curvature_1, natural_curvature_2, springs[k].natural_curvature_1 or _2, "
         "edges[e].rest_length, hinges[h].natural_angle, shell_edges[e].natural_fold, "
         "point_loads[j].force_x, _y or _z, actuation[a].table[j]";
}

/// InputError unless the rest quantities Python's controls set in `facade`'s model are those of
/// `loaded` (its scene loaded again): a scene key's parameter loads the model again.
void require_scene_controls(const sim::Simulation& facade, const Model& loaded,
                            const std::string& key) {
  const Model& model = facade.model();
  bool same = model.rods.rest_length == loaded.rods.rest_length &&
              model.rods.springs.size() == loaded.rods.springs.size() &&
              model.shells.hinges.size() == loaded.shells.hinges.size();
  for (std::size_t k = 0; same && k < model.rods.springs.size(); ++k)
    same = model.rods.springs[k].natural_curvature == loaded.rods.springs[k].natural_curvature &&
           model.rods.springs[k].natural_twist == loaded.rods.springs[k].natural_twist;
  for (std::size_t h = 0; same && h < model.shells.hinges.size(); ++h)
    same = model.shells.hinges[h].natural_angle == loaded.shells.hinges[h].natural_angle;
  if (!same)
    refuse(key,
           "a scene key of a simulation whose sim.controls are as its scene sets them (the "
           "parameter loads the scene again, without the controls set from Python)");
}

}  // namespace

SceneParameters scene_parameters(const RodSimulation& simulation,
                                 const std::vector<std::pair<std::string, double>>& named) {
  const sim::Simulation& facade = simulation.constant();
  SceneParameters out{facade.model(), {}};
  std::vector<std::string> keys;
  std::vector<double> values;
  for (const auto& [name, value] : named)
    if (fit::is_differentiated_key(fit::key_schema_path(name))) {
      keys.push_back(name);
      values.push_back(value);
    }
  if (!keys.empty()) {  // first: the last of them loads the model the others apply to
    require_scene_controls(facade, simulation.reload()({}), keys.front());
    out.parameters = fit::scene_key_parameters(facade.scene(), simulation.reload(), keys, values);
  }
  const io::Json& scene = facade.scene().resolved;
  for (const auto& [name, value] : named) {
    if (fit::is_differentiated_key(fit::key_schema_path(name))) continue;
    std::optional<adjoint::Parameter> p = model_parameter(out.model, scene, name, value);
    if (!p) p = load_parameter(out.model, name);
    if (!p) p = knot_parameter(out.model, scene, name);
    if (!p) refuse(name, allowed_names());
    p->name = name;
    p->value = value;
    out.parameters.push_back(std::move(*p));
  }
  return out;
}

}  // namespace tendril::python
