// The adjoint parameters of a scene by their Python names (adjoint_parameters.hpp).
#include "adjoint_parameters.hpp"

#include <memory>
#include <optional>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/control_parameters.hpp"
#include "tendril/adjoint/medium_parameter.hpp"
#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/adjoint/section_parameters.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/point_load.hpp"

namespace tendril::python {
namespace {

const char* const kAllowed =
    "youngs_modulus_scale, density_scale, shear_modulus_scale, radius_scale, thickness_scale, "
    "rest_length_scale, poisson_ratio, natural_curvature_1, natural_curvature_2, "
    "springs[k].natural_curvature_1 or _2, contact.stiffness, contact.obstacle_friction[k], "
    "contact.self.friction, point_loads[j].force_x, _y or _z, actuation[a].table[j], C1, C2, mu "
    "or motor_rpm";

[[noreturn]] void refuse(const std::string& name, const std::string& allowed) {
  throw InputError("parameters", name, allowed);
}

/// The index of the model's head drag term (InputError naming the parameter without one).
std::size_t head_drag_index(const Model& model, const std::string& name) {
  for (std::size_t j = 0; j < model.forces.size(); ++j)
    if (dynamic_cast<const HeadDrag*>(model.forces[j].get())) return j;
  refuse(name, "a parameter of the scene's forces (it has no head_drag)");
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

/// One parameter that sets every one of `parts` (parameters of one quantity at one value).
adjoint::Parameter all_of(std::vector<adjoint::Parameter> parts, const std::string& name) {
  if (parts.empty()) refuse(name, "a parameter of the scene's contacts (it has none of them)");
  adjoint::Parameter p{name, parts.front().value, [parts](Model& m, double value) {
                         for (const adjoint::Parameter& part : parts) part.apply(m, value);
                       }};
  return p;
}

/// The contact parameters: k_c of every contact, mu of the k-th obstacle contact (the ground
/// first when enabled, then contact.obstacles in order) or of the rod-rod and rod-shell contact.
std::optional<adjoint::Parameter> contact_parameter(const Model& model, const std::string& name) {
  const std::vector<adjoint::ContactTerm> terms = adjoint::contact_terms(model);
  std::vector<adjoint::Parameter> parts;
  if (name == "contact.stiffness") {
    for (const adjoint::ContactTerm& t : terms)
      parts.push_back(adjoint::contact_stiffness(model, t.energy, t.friction));
    return all_of(std::move(parts), name);
  }
  std::vector<adjoint::ContactTerm> obstacles, pairs;
  for (const adjoint::ContactTerm& t : terms)
    (dynamic_cast<const contact::ObstacleContact*>(model.energies[t.energy].get()) ? obstacles
                                                                                   : pairs)
        .push_back(t);
  const auto friction = [&](const adjoint::ContactTerm& t) {
    if (t.friction < 0) refuse(name, "the friction of a contact with friction > 0 in the scene");
    return adjoint::friction_coefficient(model, t.energy, static_cast<std::size_t>(t.friction));
  };
  if (name == "contact.self.friction") {
    for (const adjoint::ContactTerm& t : pairs) parts.push_back(friction(t));
    return all_of(std::move(parts), name);
  }
  if (const auto m = match(name, R"(contact\.obstacle_friction\[(\d{1,9})\])"))
    return friction(obstacles[index_in(name, (*m)[1], obstacles.size(), "obstacle contacts")]);
  return std::nullopt;
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

/// actuation[a].table[j]: the value of row j of the table schedule of the scene's actuation a
/// (natural curvature or twist), on a model whose a-th rest-shape schedule is replaced by the
/// equivalent ControlSchedule.
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
  const io::Json* type = member(scene, {"actuation", a, "schedule", "type"});
  const io::Json* table = member(scene, {"actuation", a, "schedule", "table"});
  if (!type || !type->text() || *type->text() != "table" || !table || !table->elements())
    refuse(name, "a knot of an actuation with a table schedule");
  const auto* schedule = dynamic_cast<const RestShapeSchedule*>(model.actuators[index].get());
  if (schedule) {  // not yet replaced by another knot of it
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
  const auto& control = static_cast<const adjoint::ControlSchedule&>(*model.actuators[index]);
  return adjoint::control_knot(
      model, index, static_cast<int>(index_in(name, (*m)[2], control.values().size(), "rows")));
}

/// The parameters of the model's materials, medium and rest shape (scales start at 1).
std::optional<adjoint::Parameter> material_parameter(const Model& model, const io::Json& scene,
                                                     const std::string& name, double value) {
  if (name == "youngs_modulus_scale") return adjoint::youngs_modulus(model, 1.0);
  if (name == "density_scale") return adjoint::density(model, 1.0);
  if (name == "shear_modulus_scale") return adjoint::shear_modulus(model, 1.0);
  if (name == "radius_scale") return adjoint::rod_radius(model, 1.0);
  if (name == "thickness_scale") return adjoint::shell_thickness(model, 1.0);
  if (name == "rest_length_scale") return adjoint::rest_length_scale(model, 1.0);
  if (name == "poisson_ratio")
    return adjoint::poisson_ratio(model, scene_poisson_ratio(scene, name));
  if (name == "natural_curvature_1" || name == "natural_curvature_2")
    return adjoint::uniform_natural_curvature(name.back() == '1' ? 0 : 1, value);
  if (const auto m = match(name, R"(springs\[(\d{1,9})\]\.natural_curvature_([12]))"))
    return adjoint::spring_natural_curvature(model, std::stoi((*m)[1]), (*m)[2] == "1" ? 0 : 1);
  if (name == "C1") return adjoint::head_drag_c1(model, head_drag_index(model, name));
  if (name == "C2") return adjoint::head_drag_c2(model, head_drag_index(model, name));
  if (name == "mu") {
    const auto& head = dynamic_cast<const HeadDrag&>(*model.forces[head_drag_index(model, name)]);
    return adjoint::medium_mu(model, head.parameters().mu);
  }
  if (name == "motor_rpm") return adjoint::motor_rpm(model, 0);
  return std::nullopt;
}

}  // namespace

SceneParameters scene_parameters(const sim::Simulation& facade,
                                 const std::vector<std::pair<std::string, double>>& named) {
  SceneParameters out{facade.model(), {}};
  const io::Json& scene = facade.scene().resolved;
  for (const auto& [name, value] : named) {
    std::optional<adjoint::Parameter> p = material_parameter(out.model, scene, name, value);
    if (!p) p = contact_parameter(out.model, name);
    if (!p) p = load_parameter(out.model, name);
    if (!p) p = knot_parameter(out.model, scene, name);
    if (!p) refuse(name, kAllowed);
    p->name = name;
    p->value = value;
    out.parameters.push_back(std::move(*p));
  }
  return out;
}

}  // namespace tendril::python
