#include "tendril/vine/vine_scene.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

namespace {

using io::KeySpec;
using io::KeyType;
constexpr double kInf = std::numeric_limits<double>::infinity();
const std::string kReq(io::kRequired);
const std::string kOpt(io::kOptional);

KeySpec key(std::string path, KeyType type, std::string def, std::string unit, std::string doc, double min = -kInf,
            bool min_exclusive = false, double max = kInf) {
  return {.path = std::move(path), .type = type, .default_value = std::move(def), .unit = std::move(unit),
          .doc = std::move(doc), .min = min, .max = max, .min_exclusive = min_exclusive};
}

io::SchemaTable make_table() {
  io::SchemaTable t;
  t.title = "Vine robot (`vine:`)";
  t.intro =
      "A planar growing vine robot: rigid bodies in maximal coordinates joined by alternating pin and prismatic "
      "joints, one QP per step (docs/physics/vine.md; Jitosho et al., papers/vine_robot_simulator.txt). "
      "Body 0 is pinned to `base`; lengths in m, angles in rad.";
  t.keys = {
      key("vine", KeyType::Map, kReq, "", "The vine-robot scene."),
      key("vine.bodies", KeyType::Int, kReq, "-", "Number of rigid bodies n (pin and prismatic joints alternate).", 1,
          false, kMaxBodies),
      key("vine.half_length", KeyType::Real, kReq, "m", "Half body length d (centre of mass to either end).", 0, true),
      key("vine.tube_diameter", KeyType::Real, "0.024", "m", "Outer tube diameter D.", 0),
      key("vine.mass", KeyType::Real, "0.001", "kg", "Mass m of each body.", 0, true),
      key("vine.inertia", KeyType::Real, kOpt, "kg m^2",
          "Rotational inertia I of each body; default: thin-walled tube, m (D^2 / 8 + (2 d)^2 / 12).", 0, true),
      key("vine.stiffness", KeyType::RealList, kReq, "N m/rad",
          "Torsional stiffness K of the pin joints: one value for all, or one per pin joint (ceil(n / 2)).", 0),
      key("vine.damping", KeyType::RealList, "[0]", "N m s/rad",
          "Torsional damping C of the pin joints: one value for all, or one per pin joint.", 0),
      key("vine.heading", KeyType::Real, "0", "rad",
          "Initial heading of the straight vine and rest angle of the base pin, from the x axis."),
      key("vine.rest_angles", KeyType::RealList, kOpt, "rad",
          "Rest angles of all pin joints (pin 0: absolute); default [heading, 0, 0, ...]."),
      key("vine.base", KeyType::RealList, "[0, 0]", "m", "World point (x, y) the base of body 0 is pinned to."),
      key("vine.gravity", KeyType::RealList, "[0, 0]", "m/s^2", "Gravity (g_x, g_y) in the plane of motion."),
      key("vine.dt", KeyType::Real, "0.01", "s", "Time step.", 0, true),
      [] {
        KeySpec k = key("vine.springs", KeyType::String, "explicit", "",
                        "Pin springs and dampers: explicit at (q_k, v_k) as in the paper (stable while dt omega < 2), "
                        "or implicit in v_{k+1} (stable for any K, C).");
        k.choices = {"explicit", "implicit"};
        return k;
      }(),
      key("vine.steps", KeyType::Int, kReq, "-", "Number of steps to run.", 1),
      key("vine.save_every", KeyType::Int, "1", "-", "Save a frame every this many steps.", 1),
      key("vine.growth", KeyType::Map, kOpt, "", "The growth-rate control u(t) (eq. 6); default: no growth."),
      [] {
        KeySpec k = key("vine.growth.mode", KeyType::String, "uniform", "",
                        "uniform: u split equally among the prismatic joints (the paper); tip: only the last one grows.");
        k.choices = {"uniform", "tip"};
        return k;
      }(),
      key("vine.growth.rate", KeyType::Real, kOpt, "m/s",
          "Constant total growth rate u >= 0 (retraction is not modelled: the prismatic joints have no lower limit).",
          0),
      key("vine.growth.schedule", KeyType::RealTable, kOpt, "s, m/s",
          "Piecewise-constant u: rows [t_start, u] with ascending t_start (the first row starts the run)."),
      key("vine.growth.table_csv", KeyType::String, kOpt, "",
          "CSV file (relative to the scene) with a header and columns t [s], u [m/s], interpolated linearly."),
      key("vine.growth.lookahead", KeyType::Real, "1", "-",
          "beta in G_bar = g_v + beta dt g_q: 1 is eq. 14 of the paper, 0.5 makes the length follow the integral of u.",
          0, false, 1),
      key("vine.contact", KeyType::Map, kOpt, "", "Contact with the obstacles (eq. 5)."),
      key("vine.contact.radius", KeyType::Real, kOpt, "m",
          "Distance kept between contact points and obstacle surfaces; default tube_diameter / 2.", 0),
      key("vine.contact.friction", KeyType::Real, "0", "-",
          "Coulomb friction coefficient mu (two-edge planar cone; 0: frictionless, the paper).", 0),
      key("vine.contact.points", KeyType::List, kOpt, "",
          "Contact points; default: the distal end of every body followed by a pin joint, and the tip."),
      key("vine.contact.points[].body", KeyType::Int, kReq, "-", "Body index (0 = base).", 0),
      key("vine.contact.points[].offset", KeyType::Real, kReq, "m",
          "Position along the body axis from its centre (+d: distal end)."),
      key("vine.obstacles", KeyType::List, kOpt, "", "Fixed obstacles."),
      [] {
        KeySpec k = key("vine.obstacles[].type", KeyType::String, kReq, "", "Obstacle shape.");
        k.choices = {"circle", "half_plane", "segment", "box", "polygon"};
        return k;
      }(),
      key("vine.obstacles[].center", KeyType::RealList, kOpt, "m", "circle, box: centre (x, y)."),
      key("vine.obstacles[].radius", KeyType::Real, kOpt, "m", "circle: radius; segment: half thickness.", 0),
      key("vine.obstacles[].point", KeyType::RealList, kOpt, "m", "half_plane: a point (x, y) on the wall line."),
      key("vine.obstacles[].normal", KeyType::RealList, kOpt, "-", "half_plane: outward normal (towards free space)."),
      key("vine.obstacles[].a", KeyType::RealList, kOpt, "m", "segment: first end point (x, y)."),
      key("vine.obstacles[].b", KeyType::RealList, kOpt, "m", "segment: second end point (x, y)."),
      key("vine.obstacles[].size", KeyType::RealList, kOpt, "m", "box: outer width and height."),
      key("vine.obstacles[].angle", KeyType::Real, "0", "rad", "box: rotation about its centre."),
      key("vine.obstacles[].corner_radius", KeyType::Real, "0", "m",
          "box: corner rounding (outer size kept); polygon: inflation of the vertices' polygon.", 0),
      key("vine.obstacles[].vertices", KeyType::RealTable, kOpt, "m", "polygon: convex polygon vertices [x, y]."),
      key("vine.initial_state", KeyType::Map, kOpt, "",
          "Start state; default: straight along `heading`, at rest, prismatic joints not extended."),
      key("vine.initial_state.extension", KeyType::Real, "0", "m",
          "Straight start: extension of every prismatic joint (gap between the bodies' ends).", 0),
      key("vine.initial_state.q", KeyType::RealList, kOpt, "m, m, rad", "Explicit q = (x, y, theta) per body (3 n)."),
      key("vine.initial_state.v", KeyType::RealList, kOpt, "m/s, m/s, rad/s", "Explicit v per body (3 n); default 0."),
      key("vine.initial_state.csv", KeyType::String, kOpt, "",
          "CSV file (relative to the scene) with a header and one row per body: x, y, theta, vx, vy, omega."),
  };
  return t;
}

/// Rows of a CSV file with a header line, each with `columns` reals.
std::vector<std::vector<double>> read_csv(const std::filesystem::path& file, int columns, const std::string& key) {
  std::ifstream in(file);
  if (!in) throw InputError(key, file.string(), "a readable CSV file (relative to the scene file)");
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) {
      std::size_t used = 0;
      try {
        row.push_back(std::stod(cell, &used));
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || cell.find_first_not_of(" \t\r", used) != std::string::npos)
        throw InputError(fmt::format("{} ({} line {})", key, file.string(), line_number), cell, "a real number");
      if (!std::isfinite(row.back()))
        throw InputError(fmt::format("{} ({} line {})", key, file.string(), line_number), cell, "a finite number");
    }
    if (static_cast<int>(row.size()) != columns)
      throw InputError(fmt::format("{} ({} line {})", key, file.string(), line_number),
                       fmt::format("{} columns", row.size()), fmt::format("{} comma-separated columns", columns));
    rows.push_back(row);
  }
  if (rows.empty()) throw InputError(key, file.string(), "a CSV file with at least one data row");
  return rows;
}

Vec2 vec2(const io::SceneNode& node, std::string_view name) {
  const std::vector<double> v = node.reals(name, 2);
  return Vec2(v[0], v[1]);
}

/// One value for every element, or exactly `count` values.
std::vector<double> per_joint(const io::SceneNode& node, std::string_view name, int count) {
  std::vector<double> v = node.reals(name);
  if (v.size() == 1) return std::vector<double>(count, v[0]);
  if (static_cast<int>(v.size()) != count)
    node.fail(name, fmt::format("{} values", v.size()), fmt::format("1 value or {} (one per pin joint)", count));
  return v;
}

Obstacle read_obstacle(const io::SceneNode& o) {
  const std::string type = o.text("type");
  const double corner = o.real("corner_radius");
  auto require = [&](std::string_view name) {
    if (!o.has(name)) o.fail(name, fmt::format("required for an obstacle of type {}", type));
  };
  Obstacle out;
  if (type == "circle") {
    require("center");
    require("radius");
    out = make_circle(vec2(o, "center"), o.real("radius"));
  } else if (type == "half_plane") {
    require("point");
    require("normal");
    const Vec2 n = vec2(o, "normal");
    if (!(n.norm() > 0.0)) o.fail("normal", "a non-zero vector");
    out = make_half_plane(vec2(o, "point"), n);
  } else if (type == "segment") {
    require("a");
    require("b");
    require("radius");
    out = make_segment(vec2(o, "a"), vec2(o, "b"), o.real("radius"));
  } else if (type == "box") {
    require("center");
    require("size");
    const Vec2 size = vec2(o, "size");
    if (!(size.minCoeff() > 2.0 * corner))
      o.fail("size", fmt::format("({}, {})", size.x(), size.y()), "a width and height > 2 corner_radius");
    out = make_box(vec2(o, "center"), size, o.real("angle"), corner);
  } else {
    require("vertices");
    std::vector<Vec2> vertices;
    for (const auto& row : o.real_table("vertices", 2)) vertices.emplace_back(row[0], row[1]);
    out = make_polygon(vertices, corner, o.child_path("vertices"));
  }
  out.name = o.path();
  return out;
}

GrowthSchedule read_growth(const io::SceneNode& g, const std::filesystem::path& base_dir) {
  const int given = (g.has("rate") ? 1 : 0) + (g.has("schedule") ? 1 : 0) + (g.has("table_csv") ? 1 : 0);
  if (given > 1) g.fail("rate", "only one of rate, schedule, table_csv");
  if (g.has("schedule")) {
    std::vector<double> times, rates;
    for (const auto& row : g.real_table("schedule", 2)) {
      if (row[1] < 0.0)
        g.fail("schedule", fmt::format("{}", row[1]), "growth rates u >= 0 (retraction is not modelled)");
      times.push_back(row[0]);
      rates.push_back(row[1]);
    }
    return GrowthSchedule::piecewise(times, rates, g.child_path("schedule"));
  }
  if (g.has("table_csv")) {
    const std::string key = g.child_path("table_csv");
    std::vector<double> times, rates;
    for (const auto& row : read_csv(base_dir / g.text("table_csv"), 2, key)) {
      if (row[1] < 0.0)
        g.fail("table_csv", fmt::format("a rate of {}", row[1]), "growth rates u >= 0 (retraction is not modelled)");
      times.push_back(row[0]);
      rates.push_back(row[1]);
    }
    return GrowthSchedule::table(times, rates, key);
  }
  return GrowthSchedule::constant(g.has("rate") ? g.real("rate") : 0.0);
}

}  // namespace

const io::SchemaTable& vine_scene_schema() {
  static const io::SchemaTable table = make_table();
  return table;
}

io::Schema vine_schema() { return io::Schema({&io::common_schema(), &vine_scene_schema()}); }

namespace {

/// Largest joint constraint error |c(q)| [m] an initial state may have (docs/limits.md): the first
/// step would otherwise pull the bodies together silently.
constexpr double kMaxInitialJointError = 1e-6;

/// Refuses an initial state whose pin or prismatic joints are broken (|c(q)| above the tolerance),
/// naming the joint and by how much.
void check_joints_hold(const VineModel& m, const VecX& q, const io::SceneNode& at, const char* key) {
  const VecX c = VineStepper(m).joint_errors_at(q);
  int worst = 0;
  const double error = c.cwiseAbs().maxCoeff(&worst);
  if (!(error <= kMaxInitialJointError)) {
    const int joint = worst / 2;
    at.fail(key, fmt::format("a state whose joint {} ({}, between {} and body {}) is broken by {:.3g} m", joint,
                             joint % 2 == 0 ? "pin" : "prismatic",
                             joint == 0 ? std::string("the base") : fmt::format("body {}", joint - 1), joint, error),
            fmt::format("an initial state whose joints hold (|c(q)| <= {:g} m at every joint)",
                        kMaxInitialJointError));
  }
}

}  // namespace

VineScene load_vine_scene(io::Scene& scene) {
  io::SceneNode root = scene.root();
  if (root.has("description")) root.text("description");
  const io::SceneNode v = root.map("vine");
  const std::filesystem::path& base_dir = scene.base_directory();

  UniformVineParameters p;
  p.bodies = v.integer("bodies");
  p.half_length = v.real("half_length");
  p.tube_diameter = v.real("tube_diameter");
  p.mass = v.real("mass");
  p.inertia = v.has("inertia") ? v.real("inertia") : 0.0;
  p.heading = v.real("heading");
  p.dt = v.real("dt");
  VineScene out;
  VineModel& m = out.model;
  m = uniform_vine(p);
  m.stiffness = per_joint(v, "stiffness", m.num_pins());
  m.damping = per_joint(v, "damping", m.num_pins());
  if (v.has("rest_angles")) m.rest_angle = v.reals("rest_angles", m.num_pins());
  m.base = vec2(v, "base");
  m.gravity = vec2(v, "gravity");
  m.springs = v.text("springs") == "implicit" ? SpringIntegration::implicit : SpringIntegration::explicit_forces;
  out.steps = v.integer("steps");
  out.save_every = v.integer("save_every");

  const io::SceneNode g = v.map("growth");
  m.growth_mode = g.text("mode") == "tip" ? GrowthMode::tip : GrowthMode::uniform;
  m.growth = read_growth(g, base_dir);
  m.growth_lookahead = g.real("lookahead");

  const io::SceneNode c = v.map("contact");
  if (c.has("radius")) m.contact_radius = c.real("radius");
  m.friction = c.real("friction");
  if (c.has("points")) {
    m.contact_points.clear();
    for (const io::SceneNode& point : c.list("points")) m.contact_points.push_back({point.integer("body"), point.real("offset")});
  }
  for (const io::SceneNode& o : v.list("obstacles")) m.obstacles.push_back(read_obstacle(o));
  m.validate("vine");

  // initial state
  const io::SceneNode s = v.map("initial_state");
  const int n = m.num_dofs();
  out.initial = straight_state(m, p.heading, s.real("extension"));
  if (s.has("csv") && (s.has("q") || s.has("v"))) s.fail("csv", "either csv or q/v, not both");
  if (s.has("csv")) {
    const auto rows = read_csv(base_dir / s.text("csv"), 6, s.child_path("csv"));
    if (static_cast<int>(rows.size()) != m.num_bodies)
      s.fail("csv", fmt::format("{} rows", rows.size()), fmt::format("{} rows (one per body)", m.num_bodies));
    for (int i = 0; i < m.num_bodies; ++i)
      for (int k = 0; k < 3; ++k) {
        out.initial.q(3 * i + k) = rows[i][k];
        out.initial.v(3 * i + k) = rows[i][3 + k];
      }
  }
  if (s.has("q")) out.initial.q = Eigen::Map<const VecX>(s.reals("q", n).data(), n);
  if (s.has("v")) out.initial.v = Eigen::Map<const VecX>(s.reals("v", n).data(), n);
  if (s.has("csv") || s.has("q")) check_joints_hold(m, out.initial.q, s, s.has("csv") ? "csv" : "q");
  check_no_penetration(m, out.initial.q, "vine.initial_state");
  scene.check_unused();
  out.resolved = scene.resolved();
  return out;
}

VineScene load_vine_scene_file(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_file(file, vine_schema(), overrides);
  return load_vine_scene(scene);
}

void validate_scene(io::Scene& scene) { load_vine_scene(scene); }

void validate_scene_file(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  load_vine_scene_file(file, overrides);
}

namespace {

/// The first non-finite quantity of a state after a step ("" if all are finite).
std::string non_finite_quantity(const VineState& state, bool impulses_finite) {
  if (!std::isfinite(state.time)) return "the time";
  if (!state.q.allFinite()) return "the body poses q";
  if (!state.v.allFinite()) return "the body velocities v";
  if (!impulses_finite) return "a contact normal impulse";
  return "";
}

}  // namespace

io::RunResult run_vine(const VineScene& scene, const std::filesystem::path& out_dir,
                       const std::function<void(const io::RunProgress&)>& progress) {
  VineStepper stepper(scene.model);
  const VineModel& m = stepper.model();
  const std::size_t nb = static_cast<std::size_t>(m.num_bodies);
  const std::size_t pairs = m.contact_points.size() * m.obstacles.size();
  io::RunDirectory run(out_dir, "vine", scene.resolved);
  run.set_info("num_bodies", io::Json(static_cast<std::int64_t>(nb)));
  run.set_info("num_contact_pairs", io::Json(static_cast<std::int64_t>(pairs)));
  auto& frame_time = run.add_array("frame_time", io::NpyType::Float64, {}, "s", "time of each saved frame");
  auto& pose = run.add_array("body_pose", io::NpyType::Float64, {nb, 3}, "m, m, rad",
                             "(x, y, theta) of each body's centre of mass, base to tip");
  auto& velocity = run.add_array("body_velocity", io::NpyType::Float64, {nb, 3}, "m/s, m/s, rad/s",
                                 "(vx, vy, omega) of each body");
  auto& centerline = run.add_array("centerline", io::NpyType::Float64, {nb + 1, 2}, "m",
                                   "base, proximal end of bodies 1..n-1, tip");
  auto& step_time = run.add_array("step_time", io::NpyType::Float64, {}, "s", "time at the end of each step", "step");
  auto& step_status = run.add_array("step_status", io::NpyType::Int64, {}, "-",
                                    "QP status: 0 solved, 1 infeasible, 2 unbounded, 3 max iterations, 4 numerical failure",
                                    "step");
  auto& step_iterations = run.add_array("step_qp_iterations", io::NpyType::Int64, {}, "-", "QP iterations", "step");
  auto& step_kkt = run.add_array("step_kkt_residual", io::NpyType::Float64, {}, "-", "scaled KKT residual", "step");
  auto& step_joint = run.add_array("step_joint_error", io::NpyType::Float64, {}, "m",
                                   "|c(q_k)|_inf joint error at the start of the step", "step");
  auto& step_min_distance = run.add_array("step_min_distance", io::NpyType::Float64, {}, "m",
                                          "smallest contact distance Phi(q_k) (inf without obstacles)", "step");
  auto& impulses = run.add_array("contact_normal_impulse", io::NpyType::Float64, {pairs}, "N s",
                                 "normal impulse n per (contact point, obstacle) pair, point-major", "step");
  auto& growth = run.add_array("growth_rate", io::NpyType::Float64, {}, "m/s", "commanded total growth rate u", "step");

  VineState state = scene.initial;
  std::vector<double> buffer(3 * nb);
  auto save_frame = [&] {
    frame_time.append(std::span<const double>(&state.time, 1));
    pose.append(std::span<const double>(state.q.data(), 3 * nb));
    velocity.append(std::span<const double>(state.v.data(), 3 * nb));
    const std::vector<Vec2> points = centerline_points(m, state.q);
    buffer.resize(2 * points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      buffer[2 * i] = points[i].x();
      buffer[2 * i + 1] = points[i].y();
    }
    centerline.append(std::span<const double>(buffer.data(), buffer.size()));
  };
  io::RunResult result;
  // a run that ends early keeps what was written in <out>.failed, saying why and how far it got
  auto end_early = [&](const std::string& status, const std::string& message, long steps_done) {
    result.message = message;
    result.steps = steps_done;
    result.path = run.stop(status, message, steps_done, state.time);
    return result;
  };
  std::vector<double> normal(pairs);
  const double duration = static_cast<double>(scene.steps) * m.dt;
  long k = 0;
  try {
    save_frame();
    result.frames = 1;
    for (; k < scene.steps; ++k) {
      const double u = m.growth.rate(state.time);
      const VineStepReport rep = stepper.step(state);
      const double values[] = {state.time, rep.kkt_residual, rep.joint_error, rep.min_distance, u};
      const std::int64_t codes[] = {static_cast<std::int64_t>(rep.status), rep.qp_iterations};
      step_time.append(std::span<const double>(&values[0], 1));
      step_status.append(std::span<const std::int64_t>(&codes[0], 1));
      step_iterations.append(std::span<const std::int64_t>(&codes[1], 1));
      step_kkt.append(std::span<const double>(&values[1], 1));
      step_joint.append(std::span<const double>(&values[2], 1));
      step_min_distance.append(std::span<const double>(&values[3], 1));
      growth.append(std::span<const double>(&values[4], 1));
      const std::vector<ContactInfo> contacts = stepper.contacts();
      bool impulses_finite = true;
      for (std::size_t i = 0; i < pairs; ++i) {
        normal[i] = i < contacts.size() ? contacts[i].normal_impulse : 0.0;
        impulses_finite = impulses_finite && std::isfinite(normal[i]);
      }
      impulses.append(std::span<const double>(normal.data(), normal.size()));
      if (rep.status != QpStatus::solved)
        return end_early("failed",
                         fmt::format("step {} at t = {:.6g} s: QP {} (KKT residual {:.3g})", k + 1, state.time,
                                     to_string(rep.status), rep.kkt_residual),
                         k);
      const std::string bad = non_finite_quantity(state, impulses_finite);
      if (!bad.empty())
        return end_early("failed", fmt::format("step {} at t = {:.6g} s: {} became non-finite", k + 1, state.time, bad),
                         k);
      if ((k + 1) % scene.save_every == 0) {
        save_frame();
        ++result.frames;
      }
      if (progress) progress({k + 1, scene.steps, state.time, duration, rep.qp_iterations});
      if (io::stop_signal() != 0 && k + 1 < scene.steps) {
        result.signal = io::stop_signal();
        return end_early("interrupted",
                         fmt::format("stopped by signal {} after step {} at t = {:.6g} s", result.signal, k + 1,
                                     state.time),
                         k + 1);
      }
    }
  } catch (const std::exception& e) {
    // e.g. an output write that failed (a full disk)
    return end_early("failed", fmt::format("step {}: {}", k + 1, e.what()), k);
  }
  result.ok = true;
  result.steps = scene.steps;
  result.path = run.finish();
  return result;
}

io::RunResult run_scene(io::Scene& scene, const std::filesystem::path& out_dir,
                        const std::function<void(const io::RunProgress&)>& progress) {
  return run_vine(load_vine_scene(scene), out_dir, progress);
}

}  // namespace tendril::vine

namespace tendril::vine {

io::RunResult run_scene_file(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                             const std::vector<std::string>& overrides,
                             const std::function<void(const io::RunProgress&)>& progress) {
  return run_vine(load_vine_scene_file(file, overrides), out_dir, progress);
}

}  // namespace tendril::vine
