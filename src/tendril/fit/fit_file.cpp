#include "tendril/fit/fit_file.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/fit/joint_estimation_fit_file.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/run_derivatives.hpp"
#include "tendril/fit/run_observables.hpp"
#include "tendril/fit/track_import.hpp"
#include "tendril/fit/vine3d_fit_file.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace fs = std::filesystem;
using io::KeyType;

namespace {

/// The spec of the [x, y, z] key whose component `key` names ("forces.gravity[2]",
/// "forces.point_loads.0.force.1"), null if it names none; refuses (at parameter `p`) a component
/// index other than 0, 1, 2.
const io::KeySpec* vector_of_component(const io::SceneNode& p, const std::string& key,
                                       const io::Schema& scene_schema) {
  const std::string path = key_schema_path(key);
  if (path.size() < 2 || path.compare(path.size() - 2, 2, "[]") != 0) return nullptr;
  const io::KeySpec* vector = scene_schema.find(path.substr(0, path.size() - 2));
  if (vector == nullptr || vector->type != KeyType::Vec3) return nullptr;
  std::string index = key.back() == ']' ? key.substr(0, key.size() - 1) : key;
  index = index.substr(index.find_last_of(".[") + 1);
  if (index != "0" && index != "1" && index != "2")
    p.fail("key", key,
           fmt::format("a component 0, 1 or 2 of the [x, y, z] key {}",
                       path.substr(0, path.size() - 2)));
  return vector;
}

/// Refuses a fitted `key` (at parameter `p`) that is not a real-valued key of a rod scene's schema
/// or a component of an [x, y, z] one, naming the methods that fit a vine scene's K and C when it
/// is one of those.
void check_rod_scene_key(const io::SceneNode& p, const std::string& key, const std::string& method,
                         const io::Schema& scene_schema) {
  if (vector_of_component(p, key, scene_schema) != nullptr) return;
  const io::KeySpec* spec = scene_schema.find(key_schema_path(key));
  if (spec == nullptr && vine::vine_schema().find(key_schema_path(key)) != nullptr)
    p.fail("key", key,
           "a real-valued key of a rod scene (" + method +
               " runs rod scenes; a vine scene's K and C are fitted by method vine_shooting or "
               "joint_estimation)");
  if (spec == nullptr)
    p.fail("key", key, "a key path of the scene's schema (docs/scene_reference.md)");
  if (spec->type != KeyType::Real)
    p.fail("key", key,
           fmt::format("a real-valued key (this key is of type {})", io::type_name(spec->type)));
}

/// The scene file the fit file's `scene` names (relative to the fit file's folder `base`).
fs::path existing_scene(const io::SceneNode& root, const fs::path& base) {
  fs::path scene = base / root.text("scene");
  std::error_code error;  // a name longer than the system allows is an error here, not an exception
  if (!fs::is_regular_file(scene, error))
    root.fail("scene", "an existing scene file (relative to the fit file)");
  return scene;
}

/// What vine_shooting's parameter `key` fits (its entry `p`; InputError naming the entry
/// otherwise).
VineParameter vine_parameter_of_key(const io::SceneNode& p, const std::string& key) {
  using Kind = VineParameterKind;
  const std::string schedule = "vine.growth.schedule[";
  if (key.rfind(schedule, 0) == 0 && key.back() == ']') {
    const std::string index = key.substr(schedule.size(), key.size() - schedule.size() - 1);
    if (!index.empty() && index.size() < 6 &&
        index.find_first_not_of("0123456789") == std::string::npos)
      return {Kind::growth_rate, std::stoi(index)};
  }
  for (const auto& [name, kind] : {std::pair{"vine.stiffness", Kind::stiffness},
                                   {"vine.damping", Kind::damping},
                                   {"vine.growth.rate", Kind::growth_rate},
                                   {"vine.rest_angles[0]", Kind::heading},
                                   {"vine.contact.radius", Kind::contact_radius},
                                   {"vine.inflated_beam.collapse_moment", Kind::collapse_moment},
                                   {"vine.inflated_beam.wrinkling_angle", Kind::wrinkling_angle}})
    if (key == name) return {kind, 0};
  p.fail("key", key, "one of " + vine_parameter_keys());
}

/// The parameters: keys (joint_estimation: vine.stiffness then vine.damping, then the growth rates,
/// the heading, the contact radius; vine_shooting: the
/// keys of vine_parameter_keys(); otherwise real-valued keys of a rod scene), initial values within
/// the bounds, scales.
void read_parameters(const io::SceneNode& root, FitFile& f) {
  const bool vine = is_vine_method(f.method), joint = f.method == "joint_estimation",
             vine3d = is_vine3d_method(f.method);
  const io::Schema scene_schema = sim::rod_schema();
  const std::vector<io::SceneNode> parameters = root.list("parameters");
  if (parameters.empty()) root.fail("parameters", "at least one parameter");
  const std::string vine_keys =
      f.method +
      " fits vine.stiffness, then vine.damping (uniform K and C), then optionally the growth rate "
      "(vine.growth.rate or vine.growth.schedule[i]), the base heading (vine.rest_angles[0]) and "
      "the contact radius (vine.contact.radius, with known contacts)";
  if (joint && parameters.size() < 2) root.fail("parameters", "one entry", vine_keys);
  for (const io::SceneNode& p : parameters) {
    FitParameter q;
    q.key = p.text("key");
    if (joint && f.parameters.size() < 2 &&
        q.key != (f.parameters.empty() ? "vine.stiffness" : "vine.damping"))
      p.fail("key", q.key, vine_keys);
    if (vine3d) {
      check_vine3d_parameter_key(p, q.key);
    } else if (vine) {
      f.vine_parameters.push_back(vine_parameter_of_key(p, q.key));
      const VineParameterKind kind = f.vine_parameters.back().kind;
      if (joint && f.parameters.size() >= 2 && kind != VineParameterKind::growth_rate &&
          kind != VineParameterKind::heading && kind != VineParameterKind::contact_radius)
        p.fail("key", q.key, vine_keys);
      for (const char* key : {"lower", "upper", "scale"})
        if (joint && f.parameters.size() >= 2 && p.has(key))
          p.fail(
              key,
              "no bounds or scale (joint_estimation leaves the growth rates and the heading "
              "free, bounds the contact radius below by 0 and scales each by its initial value)");
    } else {
      check_rod_scene_key(p, q.key, f.method, scene_schema);
      if (f.method == "adjoint_lm" && !is_differentiated_key(key_schema_path(q.key)))
        p.fail("key", q.key,
               "a key adjoint_lm differentiates: " + comma_separated(differentiated_keys()));
    }
    q.initial = p.real("initial");
    q.lower = p.has("lower") ? p.real("lower") : -std::numeric_limits<double>::infinity();
    q.upper = p.has("upper") ? p.real("upper") : std::numeric_limits<double>::infinity();
    if (!(q.lower < q.upper)) p.fail("upper", fmt::format("a value > lower ({})", q.lower));
    if (q.initial < q.lower || q.initial > q.upper)
      p.fail("initial", fmt::format("a value within the bounds [{}, {}]", q.lower, q.upper));
    if (((vine && fitted_in_log(f.vine_parameters.back().kind)) || vine3d) && !(q.initial > 0.0))
      p.fail("initial",
             fmt::format("an initial guess > 0 ({} works with K / K_0 and C / C_0, or the "
                         "logarithms of K, C, r_c, M_c and theta_w)",
                         f.method));
    if (joint && p.has("lower") && q.lower != 0.0)
      p.fail("lower", "0 or no lower bound (joint_estimation bounds K and C below by 0)");
    q.scale = p.has("scale") ? p.real("scale") : (q.initial != 0.0 ? std::abs(q.initial) : 1.0);
    for (const FitParameter& earlier : f.parameters)
      if (earlier.key == q.key) p.fail("key", q.key, "a key not fitted twice");
    f.parameters.push_back(q);
  }
  if (vine3d && f.parameters.size() != 2)
    root.fail("parameters", fmt::format("{} entry(ies)", f.parameters.size()),
              "vine3d.stiffness and vine3d.damping, each once (vine3d_shooting fits both)");
}

/// The data's variables (their columns), and the vine methods' frames; the columns' indices.
std::vector<std::size_t> read_variables_and_frames(const io::SceneNode& data, const CsvTable& table,
                                                   FitFile& f) {
  const bool vine = is_vine_method(f.method);
  std::vector<std::size_t> variable_columns;
  if (data.has("variables"))
    for (const std::string& v : data.texts("variables")) {
      variable_columns.push_back(column_index(table, v, data, "variables", f.data_csv));
      f.variables.push_back(v);
    }
  if (vine) {
    if (data.has("variables"))
      data.fail("variables", "(given)", "no variables with method " + f.method + " (one run)");
    const io::SceneNode frames = data.map("frames");
    for (const char* key : {"point", "z"})
      if (frames.has(key))
        frames.fail(key, "(given)",
                    "no " + std::string(key) + " column with method " + f.method +
                        " (planar points; 3D points with method vine3d_shooting)");
    f.frames = read_measured_frames(table, frames, f.data_csv);
  } else if (data.has("frames")) {
    data.fail("frames", "(given)",
              "frames only with methods vine_shooting, joint_estimation and vine3d_shooting");
  }
  return variable_columns;
}

/// One measured observable's column into f.data (times its factor, NaN where empty); its sigma as
/// given or the column's RMS. True if its sigma is given.
bool read_observable(const io::SceneNode& o, Eigen::Index k, const CsvTable& table, FitFile& f) {
  const std::string column = o.text("column");
  const std::size_t c = column_index(table, column, o, "column", f.data_csv);
  f.columns.push_back(column);
  f.data.observables.push_back(o.text("observable"));
  const double factor = o.real("factor");
  double sum = 0.0;
  int count = 0;
  for (Eigen::Index i = 0; i < f.data.measured.rows(); ++i) {
    const std::string& cell = table.rows[static_cast<std::size_t>(i)][c];
    if (cell.empty()) continue;
    double v = 0.0;
    if (!parse_real(cell, v))
      throw InputError(fmt::format("{} column {} ({} line {})", o.child_path("column"), column,
                                   f.data_csv.string(), table.lines[static_cast<std::size_t>(i)]),
                       cell, "a finite real number, or an empty cell (not measured)");
    f.data.measured(i, k) = factor * v;
    sum += factor * v * factor * v;
    ++count;
  }
  if (count == 0) o.fail("column", column, "a column with at least one measured value");
  f.data.sigma[k] = o.has("sigma") ? o.real("sigma") : std::sqrt(sum / count);
  if (!(f.data.sigma[k] > 0.0)) o.fail("sigma", "a sigma > 0 (the column's RMS is 0: give sigma)");
  return o.has("sigma");
}

/// finite_difference_lm's measured observables (none with the vine methods); whether every sigma is
/// given (absolute_sigma).
bool read_observables(const io::SceneNode& data, const CsvTable& table, FitFile& f) {
  const bool vine = is_vine_method(f.method);
  const std::vector<io::SceneNode> observables = data.list("observables");
  if (observables.empty() && !vine) data.fail("observables", "at least one measured column");
  if (!observables.empty() && vine)
    data.fail("observables", "(given)",
              "observables only with methods finite_difference_lm and adjoint_lm");
  const auto rows = static_cast<Eigen::Index>(table.rows.size()),
             cols = static_cast<Eigen::Index>(observables.size());
  f.data.measured = MatX::Constant(rows, cols, std::nan(""));
  f.data.sigma.resize(cols);
  bool all_sigma_given = true;
  for (Eigen::Index k = 0; k < cols; ++k)
    all_sigma_given =
        read_observable(observables[static_cast<std::size_t>(k)], k, table, f) && all_sigma_given;
  return all_sigma_given;
}

/// The solver options: a key of another method refused, the defaults of the method; the joint
/// estimation's (bounds and scales from the parameters).
void read_options(const io::SceneNode& options, FitFile& f) {
  const bool joint = f.method == "joint_estimation";
  for (const auto& [key, methods] : method_option_keys())
    if (options.has(key) && std::find(methods.begin(), methods.end(), f.method) == methods.end())
      options.fail(key, fmt::format("a key of method(s) {} only (this fit's method is {})",
                                    comma_separated(methods), f.method));
  f.options.max_iterations = options.has("max_iterations") ? options.integer("max_iterations")
                             : joint                       ? 500
                                                           : 30;
  f.options.difference_step = options.real("difference_step");
  f.options.step_tolerance = options.real("step_tolerance");
  f.options.cost_tolerance = options.real("cost_tolerance");
  f.options.gradient_tolerance = options.real("gradient_tolerance");
  f.jobs = options.integer("jobs");
  if (!joint) return;
  f.estimation = read_joint_estimation_options(options);
  // the parameters besides K and C
  f.estimation.parameters.assign(f.vine_parameters.begin() + 2, f.vine_parameters.end());
  f.estimation.max_iterations = f.options.max_iterations;
  const FitParameter &k = f.parameters[0], &c = f.parameters[1];
  f.estimation.stiffness_scale = k.scale;
  f.estimation.damping_scale = c.scale;
  f.estimation.stiffness_max = k.upper;
  f.estimation.damping_max = std::isfinite(c.upper) ? c.upper : 0.0;  // 0: the explicit springs'
}

/// The fits over whole runs: the observables of the scene's run, and adjoint_lm's scenes, keys and
/// observables it differentiates (InputError naming the fit file and the key otherwise).
void check_run_fit_scene(const FitFile& f, const sim::RodScene& scene) {
  for (std::size_t k = 0; k < f.data.observables.size(); ++k) try {
      (void)parse_run_observable(scene, f.data.observables[k]);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: data.observables[{}].observable", f.path.string(), k),
                       e.value(), e.allowed());
    }
  if (f.method != "adjoint_lm") return;
  std::vector<std::string> keys;
  for (const FitParameter& q : f.parameters) keys.push_back(q.key);
  try {
    check_differentiable(scene, keys, f.data.observables);
  } catch (const InputError& e) {
    // a key's error names its entry
    const auto at = std::find(keys.begin(), keys.end(), e.value());
    const std::string where = e.key_path() == "key" && at != keys.end()
                                  ? fmt::format("parameters[{}].key", at - keys.begin())
                                  : e.key_path();
    throw InputError(f.path.string() + ": " + where + " (method adjoint_lm)", e.value(),
                     e.allowed());
  }
}

/// The error of a scene that does not load with the parameters at their initial values and the
/// settings of `origin` (`e`: the scene's error).
InputError scene_load_error(const FitFile& f, const std::string& origin, const InputError& e) {
  return InputError(
      fmt::format("{}: the scene {} with the parameters at their initial values and the settings "
                  "of {}",
                  f.path.string(), f.scene.string(), origin),
      e.what(), "a scene that loads with these settings");
}

/// Loads the scene with the parameters at their initial values and each experiment's settings (the
/// vine methods: one run from the scene's start; vine3d_shooting's was loaded with its data);
/// returns the vine scene's model. `origin[i]` says where experiment i's settings come from.
vine::VineModel check_scene_loads(const FitFile& f, const std::vector<std::string>& origin) {
  const bool vine = is_vine_method(f.method);
  vine::VineModel vine_model;
  if (is_vine3d_method(f.method)) return vine_model;
  for (std::size_t i = 0; i < f.data.experiments.size(); ++i) {
    RunSettings s = f.data.experiments[i];
    if (!vine)
      for (const FitParameter& q : f.parameters) s.push_back(parameter_setting(q.key, q.initial));
    std::optional<sim::RodScene> scene;
    try {
      if (vine)
        vine_model = vine_scene_at_initial_values(f, s).model;
      else
        scene = sim::load_rod_scene_file(f.scene, s);
    } catch (const InputError& e) {
      throw scene_load_error(f, origin[i], e);
    }
    if (scene) check_run_fit_scene(f, *scene);
  }
  return vine_model;
}

/// data.csv: the experiments (the fixed settings and each row's variables), the observables and
/// the vine methods' frames; where each experiment's settings come from.
std::vector<std::string> read_csv_data(const io::SceneNode& data, const fs::path& base,
                                       const RunSettings& fixed, FitFile& f) {
  f.data_csv = base / data.text("csv");
  const CsvTable table = read_csv_table(f.data_csv, data.child_path("csv"));
  const std::vector<std::size_t> variable_columns = read_variables_and_frames(data, table, f);
  f.options.absolute_sigma = read_observables(data, table, f);
  std::vector<std::string> origin;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    RunSettings s = fixed;
    for (std::size_t v = 0; v < variable_columns.size(); ++v)
      s.push_back(f.variables[v] + "=" + table.rows[i][variable_columns[v]]);
    f.data.experiments.push_back(std::move(s));
    origin.push_back(fmt::format("{} line {}", f.data_csv.string(), table.lines[i]));
  }
  if (is_vine_method(f.method)) f.data.experiments = {fixed};  // one run from the scene's start
  return origin;
}

/// data.track (vine methods only, instead of csv): the frames from tracked video, and the one run
/// from the scene's start with the track's walls and start state.
std::vector<std::string> read_track_data(const io::SceneNode& data, const fs::path& base,
                                         RunSettings fixed, FitFile& f) {
  const io::SceneNode track = data.map("track");
  if (!is_vine_method(f.method))
    data.fail("track", "(given)", "track only with methods vine_shooting and joint_estimation");
  for (const char* key : {"csv", "frames", "variables", "observables"})
    if (data.has(key))
      data.fail(key, "(given)", "no data." + std::string(key) + " with data.track");
  f.data_csv = base / track.text("points");
  ImportedTrack imported = import_track(track, base, f.scene, fixed);
  f.frames = std::move(imported.frames);
  f.track = std::move(imported.record);
  f.measured_start = track.boolean("start");
  for (std::string& s : imported.settings) fixed.push_back(std::move(s));
  f.data.experiments = {fixed};
  return {"data.track (its walls and start state)"};
}

/// vine3d_shooting's data.csv and data.frames: the tracked 3D points of one run from the 3D vine
/// scene's start, checked against the scene's bodies (loaded here with the initial values).
std::vector<std::string> read_vine3d_data(const io::SceneNode& data, const fs::path& base,
                                          const RunSettings& fixed, FitFile& f) {
  for (const char* key : {"track", "variables", "observables"})
    if (data.has(key))
      data.fail(key, "(given)",
                "no data." + std::string(key) +
                    " with method vine3d_shooting (one run; tracked points in data.csv, their "
                    "columns in data.frames)");
  f.data_csv = base / data.text("csv");
  const CsvTable table = read_csv_table(f.data_csv, data.child_path("csv"));
  int bodies = 0;
  try {
    bodies = vine3d_scene_at_initial_values(f, fixed).model.num_bodies;
  } catch (const InputError& e) {
    throw scene_load_error(f, "the fit file", e);
  }
  f.tracked_points = read_tracked_frames3(table, data.map("frames"), f.data_csv, bodies);
  f.data.experiments = {fixed};
  return {"settings"};
}

}  // namespace

bool is_vine_method(const std::string& method) {
  return method == "vine_shooting" || method == "joint_estimation";
}

std::string vine_parameter_keys() {
  return "vine.stiffness, vine.damping, vine.growth.rate, vine.growth.schedule[i], "
         "vine.rest_angles[0], vine.contact.radius, vine.inflated_beam.collapse_moment, "
         "vine.inflated_beam.wrinkling_angle";
}

vine::VineScene vine_scene_at_initial_values(const FitFile& file, const RunSettings& settings) {
  vine::VineScene scene = vine::load_vine_scene_file(file.scene, settings);
  for (std::size_t k = 0; k < file.vine_parameters.size(); ++k) {
    if (file.parameters[k].key == "vine.growth.rate" && scene.model.growth.num_samples() > 1)
      throw InputError(fmt::format("parameters[{}].key", k), "vine.growth.rate",
                       "vine.growth.schedule[i] (the scene's growth is a schedule)");
    set_vine_parameter(scene.model, file.vine_parameters[k], file.parameters[k].initial);
  }
  scene.model.validate();
  check_vine_parameters(scene.model, file.vine_parameters);
  return scene;
}

FitFile read_fit_file(const fs::path& file) {
  io::Scene doc =
      io::Scene::from_file(file, io::Schema({&io::common_schema(), &fit_file_schema()}));
  io::SceneNode root = doc.root();
  if (root.has("description")) root.text("description");
  FitFile f;
  f.path = file;
  const fs::path base = doc.base_directory();
  f.scene = existing_scene(root, base);
  f.method = root.text("method");
  read_parameters(root, f);
  RunSettings fixed;
  if (root.has("settings")) fixed = root.texts("settings");
  const io::SceneNode data = root.map("data");
  if (!data.has("csv") && !data.has("track"))
    data.fail("csv", "(missing)", "a CSV file of measurements, or a tracked video (data.track)");
  const std::vector<std::string> origin =
      is_vine3d_method(f.method) ? read_vine3d_data(data, base, fixed, f)
      : data.has("track")        ? read_track_data(data, base, fixed, f)
                                 : read_csv_data(data, base, fixed, f);
  const io::SceneNode options = root.map("options");
  read_options(options, f);
  const vine::VineModel vine_model = check_scene_loads(f, origin);
  if (f.method == "joint_estimation")
    f.estimation.contacts =
        read_known_contacts(options, vine_model, f.frames.front().step, f.frames.back().step);
  doc.check_unused();  // after the known contacts' keys are read
  f.resolved = doc.resolved();
  return f;
}

}  // namespace tendril::fit
