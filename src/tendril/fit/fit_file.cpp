#include "tendril/fit/fit_file.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/joint_estimation_fit_file.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/schema_keys.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace fs = std::filesystem;
using io::KeyType;
using namespace io::keys;

namespace {

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const FitMethod& m : fit_methods()) names.push_back(m.name);
  return names;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// "rods.0.material.E" / "rods[0].material.E" -> "rods[].material.E" (the schema's generic path).
std::string schema_path(const std::string& key) {
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

/// A CSV file with a header: column names and rows of cells (trimmed).
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  ///< line number of each row in the file
};

std::string trimmed(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) cells.push_back(trimmed(cell));
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

CsvTable read_table(const fs::path& file, const std::string& key) {
  std::istringstream in(read_data_file(file, key, "a CSV file (relative to the fit file)"));
  CsvTable t;
  std::string line;
  int number = 0;
  while (t.header.empty() && std::getline(in, line)) {
    ++number;
    if (!trimmed(line).empty() && trimmed(line)[0] != '#') t.header = split_cells(line);
  }
  while (std::getline(in, line)) {
    ++number;
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    std::vector<std::string> cells = split_cells(line);
    if (cells.size() != t.header.size())
      throw InputError(fmt::format("{} ({} line {})", key, file.string(), number),
                       fmt::format("{} columns", cells.size()),
                       fmt::format("{} comma-separated columns as in the header", t.header.size()));
    t.rows.push_back(std::move(cells));
    t.lines.push_back(number);
  }
  if (t.rows.empty())
    throw InputError(key, file.string(), "a CSV file with a header and at least one data row");
  return t;
}

/// Index of `column` in the header, or an InputError at `node`'s `key`.
std::size_t column_index(const CsvTable& t, const std::string& column, const io::SceneNode& node,
                         const std::string& key, const fs::path& csv) {
  const auto it = std::find(t.header.begin(), t.header.end(), column);
  if (it == t.header.end()) {
    const std::string near = io::closest_name(column, t.header);
    node.fail(key, column,
              fmt::format("a column of {} ({}){}", csv.string(), joined(t.header),
                          near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  return static_cast<std::size_t>(it - t.header.begin());
}

/// The vine methods' measured frames: the rows grouped by step (in increasing order), points in row
/// order.
void read_frames(FitFile& f, const CsvTable& t, const io::SceneNode& data) {
  const io::SceneNode fr = data.map("frames");
  const std::size_t step = column_index(t, fr.text("step"), fr, "step", f.data_csv);
  const std::size_t x = column_index(t, fr.text("x"), fr, "x", f.data_csv);
  const std::size_t y = column_index(t, fr.text("y"), fr, "y", f.data_csv);
  const int offset = fr.integer("step_offset");
  const double factor = fr.real("factor");
  std::map<int, std::vector<Vec2>> points;
  std::map<int, int> first_line;  // step -> line of its first row
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    double v[3];
    const std::size_t cols[3] = {step, x, y};
    for (int c = 0; c < 3; ++c) {
      const std::string& cell = t.rows[i][cols[c]];
      std::size_t used = 0;
      try {
        v[c] = std::stod(cell, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != cell.size() || !std::isfinite(v[c]))
        throw InputError(fmt::format("{} column {} ({} line {})", fr.path(), t.header[cols[c]],
                                     f.data_csv.string(), t.lines[i]),
                         cell, "a finite real number");
    }
    const long s = std::lround(v[0]) - offset;
    if (s < 0 || s != v[0] - offset)
      throw InputError(
          fmt::format("{}.step ({} line {})", fr.path(), f.data_csv.string(), t.lines[i]),
          t.rows[i][step], fmt::format("a whole step >= {}", offset));
    points[static_cast<int>(s)].push_back(factor * Vec2(v[1], v[2]));
    first_line.emplace(static_cast<int>(s), t.lines[i]);
  }
  for (const auto& [s, p] : points) {
    // a frame is resampled by arc length along its points (vine_observation.hpp): it needs two
    if (p.size() < 2)
      throw InputError(
          fmt::format("{}.step ({} line {})", fr.path(), f.data_csv.string(), first_line.at(s)),
          fmt::format("{} (the only row of step {})", s + offset, s + offset),
          "at least 2 points (rows) per measured frame, base to tip");
    MeasuredFrame frame{s, MatX(static_cast<Eigen::Index>(p.size()), 2)};
    for (std::size_t k = 0; k < p.size(); ++k)
      frame.points.row(static_cast<Eigen::Index>(k)) = p[k].transpose();
    f.frames.push_back(std::move(frame));
  }
}

/// `table` with `keys` appended.
io::SchemaTable with_keys(io::SchemaTable table, std::vector<io::KeySpec> keys) {
  for (io::KeySpec& k : keys) table.keys.push_back(std::move(k));
  return table;
}

/// Refuses a fitted `key` (at parameter `p`) that is not a real-valued key of a rod scene's schema,
/// naming the methods that fit a vine scene's K and C when it is one of those.
void check_rod_scene_key(const io::SceneNode& p, const std::string& key, const std::string& method,
                         const io::Schema& scene_schema) {
  const io::KeySpec* spec = scene_schema.find(schema_path(key));
  if (spec == nullptr && vine::vine_schema().find(schema_path(key)) != nullptr)
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

}  // namespace

/// The section's example on the reference page (a test runs it from the repository's root:
/// tests/docs).
constexpr const char* kFitExample =
    R"yaml(description: "C1, C2, mu of the granular medium from the flagellated robot's speed and head rotation"
scene: examples/flagellated_robot.yaml
settings: [duration=3]
method: finite_difference_lm
parameters:
  - {key: flagellated_robot.C1, initial: 3.0, lower: 0.5, upper: 10}
  - {key: flagellated_robot.C2, initial: 0.05, lower: 0.005, upper: 0.5}
  - {key: flagellated_robot.mu, initial: 5.0, lower: 1, upper: 20}
data:
  csv: examples/fit/flagellated_robot_n2.csv
  variables: [flagellated_robot.tails, flagellated_robot.motor_rpm]
  observables:
    - {column: v_mm_per_s, observable: speed, factor: 1e-3, sigma: 1e-5}
    - {column: omega_h_rad_per_s, observable: head_rotation_rate, sigma: 0.1}
)yaml";

const io::SchemaTable& fit_file_schema() {
  static const io::SchemaTable table = with_keys(
      io::SchemaTable{
          "Fit files",
          "The file of `tendril fit FIT.yaml` (docs/physics/fitting.md): the scene, the fitted "
          "parameters, the "
          "measurements and the method. Relative paths are resolved against the fit file.",
          {
              {.path = "scene",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "The scene file whose parameters are fitted."},
              {.path = "settings",
               .type = KeyType::StringList,
               .default_value = kOpt,
               .unit = "",
               .doc =
                   "Overrides key.path=value applied to every run (as `--set`, e.g. duration=3)."},
              choice("method", "finite_difference_lm", method_names(),
                     "finite_difference_lm: bounded Levenberg-Marquardt over whole runs of a rod "
                     "scene, Jacobian by "
                     "finite differences of runs evaluated in parallel. vine_shooting: the vine's "
                     "uniform K and C "
                     "(parameters vine.stiffness and vine.damping) by single shooting with exact "
                     "sensitivities. "
                     "joint_estimation: the vine's K and C with its trajectory, the paper's eq. 16 "
                     "solved by IPOPT."),
              {.path = "parameters",
               .type = KeyType::List,
               .default_value = kReq,
               .unit = "",
               .doc = "The fitted parameters, one map each."},
              {.path = "parameters[].key",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "A real-valued scene key path, as `--set` takes it (e.g. "
                      "flagellated_robot.C1)."},
              real("parameters[].initial", kReq, "as the key", "Start value, within the bounds."),
              real("parameters[].lower", kOpt, "as the key", "Lower bound (default: none)."),
              real("parameters[].upper", kOpt, "as the key", "Upper bound (default: none)."),
              positive("parameters[].scale", kOpt, "as the key",
                       "Typical magnitude: the fit works in value / scale (default: |initial|, or "
                       "1 if it is 0)."),
              node("data", KeyType::Map, "The measurements."),
              {.path = "data.csv",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "CSV file with a header line; one row per experiment (lines starting with # "
                      "are comments)."},
              {.path = "data.variables",
               .type = KeyType::StringList,
               .default_value = kOpt,
               .unit = "",
               .doc = "Columns that are scene key paths: each row's values are set on the scene "
                      "for its run."},
              {.path = "data.observables",
               .type = KeyType::List,
               .default_value = kOpt,
               .unit = "",
               .doc = "finite_difference_lm (required): the measured columns, one map each; an "
                      "empty cell is not measured."},
              {.path = "data.observables[].column",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "The CSV column."},
              choice("data.observables[].observable", kReq, run_observable_names(),
                     "The run observable it measures (run.json info.observables, "
                     "docs/output_format.md)."),
              positive("data.observables[].factor", "1", "-",
                       "Multiplies the column to SI units (e.g. 1e-3 for mm/s)."),
              positive("data.observables[].sigma", kOpt, "SI unit of the observable",
                       "Measurement error: residuals are (simulated - measured) / sigma. Given for "
                       "every observable, "
                       "the uncertainties are (J^T J)^-1 with these errors; otherwise (default: "
                       "the RMS of the "
                       "column, a weight only) they are scaled by the residual's s^2."),
              node("data.frames", KeyType::Map,
                   "vine_shooting, joint_estimation (required): the CSV holds measured centre-line "
                   "points, one row per "
                   "point, base to tip within each frame."),
              {.path = "data.frames.step",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "Column of the simulation step a point's frame is taken at (0: the start)."},
              integer("data.frames.step_offset", "0", -1e9,
                      "Subtracted from the step column (1 for 1-based steps)."),
              {.path = "data.frames.x",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "Column of x."},
              {.path = "data.frames.y",
               .type = KeyType::String,
               .default_value = kReq,
               .unit = "",
               .doc = "Column of y."},
              positive("data.frames.factor", "1", "-",
                       "Multiplies x and y to metres (e.g. 1e-3 for mm)."),
              node("options", KeyType::Map,
                   "Solver options; a key that the method does not use is refused (each key's "
                   "description names its methods)."),
              integer("options.max_iterations", kOpt, 1,
                      "Most iterations: of Levenberg-Marquardt (Jacobians; default 30), of IPOPT "
                      "with joint_estimation "
                      "(default 500)."),
              positive("options.difference_step", "1e-3", "-",
                       "finite_difference_lm: forward-difference step in value / scale, times "
                       "max(1, |value / scale|)."),
              positive("options.step_tolerance", "1e-6", "-",
                       "finite_difference_lm, vine_shooting: converged when a step in value / "
                       "scale (vine_shooting: in "
                       "ln K, ln C) is below this."),
              positive("options.cost_tolerance", "1e-10", "-",
                       "finite_difference_lm, vine_shooting: converged when an accepted step "
                       "lowers the cost by less than this "
                       "fraction."),
              positive(
                  "options.gradient_tolerance", "1e-10", "-",
                  "finite_difference_lm: converged when the projected gradient is below this."),
              integer("options.jobs", "0", 0,
                      "finite_difference_lm: runs at once on worker threads (0: all local cores; "
                      "--jobs overrides)."),
          },
          kFitExample},
      joint_estimation_option_keys());
  return table;
}

bool is_vine_method(const std::string& method) {
  return method == "vine_shooting" || method == "joint_estimation";
}

std::string vine_parameter_setting(const std::string& key, double value) {
  const std::string s = parameter_setting(key, value);
  return s.substr(0, key.size() + 1) + "[" + s.substr(key.size() + 1) + "]";
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

  const bool vine = is_vine_method(f.method), joint = f.method == "joint_estimation";
  const io::Schema scene_schema = sim::rod_schema();
  const std::vector<io::SceneNode> parameters = root.list("parameters");
  if (parameters.empty()) root.fail("parameters", "at least one parameter");
  const std::string vine_keys =
      f.method + " fits two parameters: vine.stiffness, then vine.damping (uniform K and C)";
  if (vine && parameters.size() > 2)
    parameters[2].fail("key", parameters[2].text("key"), vine_keys);
  if (vine && parameters.size() < 2) root.fail("parameters", "one entry", vine_keys);
  for (const io::SceneNode& p : parameters) {
    FitParameter q;
    q.key = p.text("key");
    if (vine) {
      if (q.key != (f.parameters.empty() ? "vine.stiffness" : "vine.damping"))
        p.fail("key", q.key, vine_keys);
    } else {
      check_rod_scene_key(p, q.key, f.method, scene_schema);
    }
    q.initial = p.real("initial");
    q.lower = p.has("lower") ? p.real("lower") : -std::numeric_limits<double>::infinity();
    q.upper = p.has("upper") ? p.real("upper") : std::numeric_limits<double>::infinity();
    if (!(q.lower < q.upper)) p.fail("upper", fmt::format("a value > lower ({})", q.lower));
    if (q.initial < q.lower || q.initial > q.upper)
      p.fail("initial", fmt::format("a value within the bounds [{}, {}]", q.lower, q.upper));
    if (vine && !(q.initial > 0.0))
      p.fail(
          "initial",
          fmt::format("an initial guess > 0 ({} works with K / K_0 and C / C_0, or ln K and ln C)",
                      f.method));
    if (joint && p.has("lower") && q.lower != 0.0)
      p.fail("lower", "0 or no lower bound (joint_estimation bounds K and C below by 0)");
    q.scale = p.has("scale") ? p.real("scale") : (q.initial != 0.0 ? std::abs(q.initial) : 1.0);
    for (const FitParameter& earlier : f.parameters)
      if (earlier.key == q.key) p.fail("key", q.key, "a key not fitted twice");
    f.parameters.push_back(q);
  }

  // the measurements
  const io::SceneNode data = root.map("data");
  f.data_csv = base / data.text("csv");
  const CsvTable table = read_table(f.data_csv, data.child_path("csv"));
  std::vector<std::size_t> variable_columns;
  if (data.has("variables"))
    for (const std::string& v : data.texts("variables")) {
      variable_columns.push_back(column_index(table, v, data, "variables", f.data_csv));
      f.variables.push_back(v);
    }
  if (vine) {
    if (data.has("variables"))
      data.fail("variables", "(given)", "no variables with method " + f.method + " (one run)");
    read_frames(f, table, data);
  } else if (data.has("frames")) {
    data.fail("frames", "(given)", "frames only with methods vine_shooting and joint_estimation");
  }
  const std::vector<io::SceneNode> observables = data.list("observables");
  if (observables.empty() && !vine) data.fail("observables", "at least one measured column");
  if (!observables.empty() && vine)
    data.fail("observables", "(given)", "observables only with method finite_difference_lm");
  const auto rows = static_cast<Eigen::Index>(table.rows.size()),
             cols = static_cast<Eigen::Index>(observables.size());
  f.data.measured = MatX::Constant(rows, cols, std::nan(""));
  f.data.sigma.resize(cols);
  bool all_sigma_given = true;
  for (Eigen::Index k = 0; k < cols; ++k) {
    const io::SceneNode& o = observables[static_cast<std::size_t>(k)];
    const std::string column = o.text("column");
    const std::size_t c = column_index(table, column, o, "column", f.data_csv);
    f.columns.push_back(column);
    f.data.observables.push_back(o.text("observable"));
    const double factor = o.real("factor");
    double sum = 0.0;
    int count = 0;
    for (Eigen::Index i = 0; i < rows; ++i) {
      const std::string& cell = table.rows[static_cast<std::size_t>(i)][c];
      if (cell.empty()) continue;
      std::size_t used = 0;
      double v = std::nan("");
      try {
        v = std::stod(cell, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != cell.size() || !std::isfinite(v))
        throw InputError(fmt::format("{} column {} ({} line {})", o.child_path("column"), column,
                                     f.data_csv.string(), table.lines[static_cast<std::size_t>(i)]),
                         cell, "a finite real number, or an empty cell (not measured)");
      f.data.measured(i, k) = factor * v;
      sum += factor * v * factor * v;
      ++count;
    }
    if (count == 0) o.fail("column", column, "a column with at least one measured value");
    all_sigma_given = all_sigma_given && o.has("sigma");
    f.data.sigma[k] = o.has("sigma") ? o.real("sigma") : std::sqrt(sum / count);
    if (!(f.data.sigma[k] > 0.0))
      o.fail("sigma", "a sigma > 0 (the column's RMS is 0: give sigma)");
  }
  RunSettings fixed;
  if (root.has("settings")) fixed = root.texts("settings");
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    RunSettings s = fixed;
    for (std::size_t v = 0; v < variable_columns.size(); ++v)
      s.push_back(f.variables[v] + "=" + table.rows[i][variable_columns[v]]);
    f.data.experiments.push_back(std::move(s));
  }

  const io::SceneNode options = root.map("options");
  for (const auto& [key, methods] : method_option_keys())
    if (options.has(key) && std::find(methods.begin(), methods.end(), f.method) == methods.end())
      options.fail(key, fmt::format("a key of method(s) {} only (this fit's method is {})",
                                    joined(methods), f.method));
  f.options.max_iterations = options.has("max_iterations") ? options.integer("max_iterations")
                             : joint                       ? 500
                                                           : 30;
  f.options.difference_step = options.real("difference_step");
  f.options.step_tolerance = options.real("step_tolerance");
  f.options.cost_tolerance = options.real("cost_tolerance");
  f.options.gradient_tolerance = options.real("gradient_tolerance");
  f.jobs = options.integer("jobs");
  f.options.absolute_sigma = all_sigma_given;
  if (joint) {
    f.estimation = read_joint_estimation_options(options);
    f.estimation.max_iterations = f.options.max_iterations;
    const FitParameter &k = f.parameters[0], &c = f.parameters[1];
    f.estimation.stiffness_scale = k.scale;
    f.estimation.damping_scale = c.scale;
    f.estimation.stiffness_max = k.upper;
    f.estimation.damping_max =
        std::isfinite(c.upper) ? c.upper : 0.0;  // 0: the explicit springs' limit
  }

  // the scene with the parameters at their initial values and each experiment's settings
  if (vine) f.data.experiments = {fixed};  // one run: the vine scene from its start
  vine::VineModel vine_model;
  for (std::size_t i = 0; i < f.data.experiments.size(); ++i) {
    RunSettings s = f.data.experiments[i];
    for (const FitParameter& q : f.parameters)
      s.push_back(vine ? vine_parameter_setting(q.key, q.initial)
                       : parameter_setting(q.key, q.initial));
    try {
      if (vine)
        vine_model = vine::load_vine_scene_file(f.scene, s).model;
      else
        (void)sim::load_rod_scene_file(f.scene, s);
    } catch (const InputError& e) {
      throw InputError(
          fmt::format(
              "{}: the scene {} with the parameters at their initial values and the settings "
              "of {} line {}",
              file.string(), f.scene.string(), f.data_csv.string(), table.lines[i]),
          e.what(), "a scene that loads with these settings");
    }
  }
  if (joint)
    f.estimation.contacts =
        read_known_contacts(options, vine_model, f.frames.front().step, f.frames.back().step);
  doc.check_unused();  // after the known contacts' keys are read
  f.resolved = doc.resolved();
  return f;
}

}  // namespace tendril::fit
