#include "tendril/fit/scene_key_parameters.hpp"

#include <memory>

#include <fmt/format.h>

#include "tendril/adjoint/rest_shape_parameters.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/term.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"

namespace tendril::fit {
namespace {

/// A scene key whose runs adjoint_lm differentiates: the step's residual is a polynomial of
/// `degree` in its value (docs/physics/fitting.md, "Method adjoint_lm").
struct DifferentiatedKey {
  const char* path;  ///< schema path
  int degree;
};

/// The keys. Degree 1: stiffnesses, masses and drag coefficients proportional to the value, rest
/// twists and actuation values (affine in time's schedule), loads (the components of gravity and of
/// point loads, moments and surface loads), contact stiffness and friction.
/// A rod's radius (EA and masses ~ r^2, EI, GJ and rotational inertias ~ r^4) and a shell's
/// thickness (membranes and masses ~ h, bending ~ h^3) are polynomials only where no contact or
/// medium reads them (check_differentiable).
const std::vector<DifferentiatedKey>& key_table() {
  static const std::vector<DifferentiatedKey> keys = {
      {"rods[].material.E", 1},
      {"rods[].material.G", 1},
      {"rods[].material.density", 1},
      {"rods[].material.radius", 4},
      {"rods[].natural_twist", 1},
      {"rods[].rest_shape[].natural_twist", 1},
      {"rods[].stiffness_overrides[].stretch_stiffness", 1},
      {"rods[].stiffness_overrides[].bend_stiffness", 1},
      {"rods[].stiffness_overrides[].twist_stiffness", 1},
      {"shells[].material.E", 1},
      {"shells[].material.density", 1},
      {"shells[].material.thickness", 3},
      {"shells[].material.nu", 1},  // along its tangent, degree 2 with mid-edge bending
      {"shells[].edge_spring_stiffness", 1},
      {"shells[].hinge_stiffness", 1},
      {"forces.gravity[]", 1},  // a component of [x, y, z], as the keys below
      {"forces.point_loads[].force[]", 1},
      {"forces.point_moments[].moment[]", 1},
      {"forces.surface_loads[].load[]", 1},
      {"forces.follower_loads[].force", 1},
      {"forces.viscous_drag[].viscosity", 1},
      {"forces.rft[].eta_t", 1},
      {"forces.rft[].eta_n", 1},
      {"forces.rft[].mu", 1},
      {"forces.head_drag.C1", 1},
      {"forces.head_drag.C2", 1},
      {"forces.head_drag.mu", 1},
      {"contact.stiffness", 1},
      {"contact.ground.friction", 1},
      {"contact.obstacles[].friction", 1},
      {"contact.self.friction", 1},
      {"actuation[].schedule.rate", 1},
      {"actuation[].schedule.start", 1},
      {"actuation[].schedule.mean", 1},
      {"actuation[].schedule.amplitude", 1},
      {"flagellated_robot.C1", 1},
      {"flagellated_robot.C2", 1},
      {"flagellated_robot.mu", 1},
      {"flagellated_robot.motor_rpm", 1},
      {"flagellated_robot.E", 1},
      {"flagellated_robot.density", 1},
  };
  return keys;
}

/// The table's entry of a schema path ("rods[].material.E"); null if it is not differentiated.
const DifferentiatedKey* find_key(const std::string& path) {
  for (const DifferentiatedKey& k : key_table())
    if (path == k.path) return &k;
  return nullptr;
}

/// The terms in whose coefficients a rod's radius and a shell's thickness enter as polynomials.
bool polynomial_term(std::string_view name) {
  for (const char* n :
       {"stretch", "bend_twist", "gravity", "point_load", "point_moment", "follower_load",
        "membrane_cst", "membrane_springs", "hinge_bending", "midedge_bending"})
    if (name == n) return true;
  return false;
}

/// True for a shell's Poisson ratio, which the residual reads through 1/(1 + nu), nu/(1 - nu^2)
/// and 1/(1 - nu^2): its stencil moves the shell's stiffnesses along their tangent
/// (adjoint::poisson_ratio).
bool is_poisson_key(const std::string& key) {
  return key_schema_path(key) == "shells[].material.nu";
}

/// InputError unless the Poisson ratio key's tangent (adjoint::poisson_tangent_on_shells) is
/// that of the scene: one shell (the tangent moves every shell element), its hinge stiffness from
/// the material (a `hinge_stiffness` set does not follow nu).
void require_poisson_tangent(const sim::RodScene& scene, const std::string& key) {
  const io::Json* shells = scene.resolved.find("shells");
  const io::Json::Array* list = shells ? shells->elements() : nullptr;
  const io::Json* hinge = list && !list->empty() ? list->front().find("hinge_stiffness") : nullptr;
  if (scene.shell_nodes.size() != 1 || (hinge && !hinge->is_null()))
    throw InputError("key", key,
                     "a Poisson ratio of a scene with one shell whose hinge_stiffness is not set "
                     "(the stiffnesses' tangent in nu is that of the material's laws)");
}

/// The fitted keys of one run, shared by their parameters.
struct SceneKeys {
  SceneModelLoader load;
  std::vector<std::string> keys;
  std::vector<double> values;
  double tangent_offset = 0.0;  ///< t of the Poisson ratio key's stencil point at the next load
};

/// Loads the scene with every key at its recorded value into `model`, the Poisson ratio (the
/// scene's one shell) moved by the pending tangent offset.
void load_keys(SceneKeys& scene, Model& model) {
  RunSettings s;
  for (std::size_t j = 0; j < scene.keys.size(); ++j)
    s.push_back(parameter_setting(scene.keys[j], scene.values[j]));
  model = scene.load(s);
  if (scene.tangent_offset == 0.0) return;
  for (std::size_t j = 0; j < scene.keys.size(); ++j)
    if (is_poisson_key(scene.keys[j]))
      adjoint::poisson_tangent_on_shells(model, scene.values[j], scene.values[j],
                                         scene.tangent_offset);
  scene.tangent_offset = 0.0;
}

/// Fitted key i as an adjoint parameter: apply() records its value, and the last key's apply()
/// loads the scene with every key at its recorded value (with_parameters and the difference
/// stencils apply every parameter in order, so the last one sees them all), so each key acts
/// exactly as the scene makes it act. A Poisson ratio's tangent records its offset for that load.
adjoint::Parameter scene_key_parameter(const std::shared_ptr<SceneKeys>& scene, std::size_t i,
                                       const Model& model) {
  const std::string& key = scene->keys[i];
  const bool last = i + 1 == scene->keys.size();
  adjoint::Parameter p{key, scene->values[i], [scene, i, last](Model& m, double value) {
                         scene->values[i] = value;
                         if (last) load_keys(*scene, m);
                       }};
  p.degree = find_key(key_schema_path(key))->degree;
  if (is_poisson_key(key)) {
    p.tangent = [scene, i, last](Model& m, double value, double t) {
      scene->values[i] = value;
      scene->tangent_offset = t;
      if (last) load_keys(*scene, m);
    };
    // the mid-edge bending stiffness times its metric, both affine along the tangent
    p.degree = model.shells.midedge_triangles.empty() ? 1 : 2;
  }
  return p;
}

}  // namespace

std::string key_schema_path(const std::string& key) {
  std::string out, segment;
  auto flush = [&] {
    if (segment.empty()) return;
    const bool index = segment.find_first_not_of("0123456789-") == std::string::npos;
    out += index ? "[]" : (out.empty() ? "" : ".") + segment;
    segment.clear();
  };
  for (char c : key) {
    if (c == '.' || c == '[' || c == ']')
      flush();
    else
      segment += c;
  }
  flush();
  return out;
}

std::vector<std::string> differentiated_keys() {
  std::vector<std::string> paths;
  for (const DifferentiatedKey& k : key_table()) paths.emplace_back(k.path);
  return paths;
}

bool is_differentiated_key(const std::string& path) {
  return find_key(path) != nullptr;
}

void check_keys(const sim::RodScene& scene, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const DifferentiatedKey* k = find_key(key_schema_path(key));
    if (k == nullptr)
      throw InputError(
          "key", key, "a key adjoint_lm differentiates: " + comma_separated(differentiated_keys()));
    if (is_poisson_key(key)) require_poisson_tangent(scene, key);
    if (k->degree == 1) continue;
    const auto refuse = [&](std::string_view term) {
      throw InputError("key", key,
                       fmt::format("a key of a scene without contact or media (the residual is a "
                                   "polynomial in it only there; the scene has {})",
                                   term));
    };
    for (const auto& e : scene.model.energies)
      if (!polynomial_term(e->name())) refuse(e->name());
    for (const auto& f : scene.model.forces)
      if (!polynomial_term(f->name())) refuse(f->name());
  }
}

std::vector<adjoint::Parameter> scene_key_parameters(const sim::RodScene& scene,
                                                     SceneModelLoader load,
                                                     const std::vector<std::string>& keys,
                                                     const std::vector<double>& values) {
  check_keys(scene, keys);
  auto shared = std::make_shared<SceneKeys>(SceneKeys{std::move(load), keys, values});
  std::vector<adjoint::Parameter> parameters;
  for (std::size_t i = 0; i < keys.size(); ++i)
    parameters.push_back(scene_key_parameter(shared, i, scene.model));
  return parameters;
}

}  // namespace tendril::fit
