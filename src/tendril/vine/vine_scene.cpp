#include "tendril/vine/vine_scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/schema_keys.hpp"
#include "tendril/vine/initial_state.hpp"
#include "tendril/vine/run_restart.hpp"
#include "tendril/vine/scene_sections.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::vine {

namespace {

using io::KeyType;
using io::keys::choice;
using io::keys::key;
using io::keys::kOpt;
using io::keys::kReq;

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kVineExample = R"yaml(vine:
  bodies: 10
  half_length: 0.01
  stiffness: [0.05]
  damping: [1.0e-4]
  steps: 200
  growth: {rate: 0.04}
  contact: {model: body, friction: 0.3}
  obstacles:
    - {type: circle, center: [0.3, 0.045], radius: 0.03}
    - {type: box, center: [0.15, -0.05], size: [0.1, 0.02], angle: 0.2}
)yaml";

io::SchemaTable make_table() {
  io::SchemaTable t;
  t.title = "Vine robot (`vine:`)";
  t.example = kVineExample;
  t.intro =
      "A planar growing vine robot: rigid bodies in maximal coordinates joined by alternating pin "
      "and prismatic "
      "joints, one QP per step (docs/physics/vine.md; Jitosho et al., "
      "papers/vine_robot_simulator.txt). "
      "Body 0 is pinned to `base`; lengths in m, angles in rad.";
  t.keys = {
      key("vine", KeyType::Map, kReq, "", "The vine-robot scene."),
      key("vine.bodies", KeyType::Int, kReq, "-",
          "Number of rigid bodies n (pin and prismatic joints alternate).", 1, false, kMaxBodies),
      key("vine.half_length", KeyType::Real, kReq, "m",
          "Half body length d (centre of mass to either end).", 0, true),
      key("vine.tube_diameter", KeyType::Real, "0.024", "m", "Outer tube diameter D.", 0),
      key("vine.mass", KeyType::Real, "0.001", "kg", "Mass m of each body.", 0, true),
      key("vine.inertia", KeyType::Real, kOpt, "kg m^2",
          "Rotational inertia I of each body; default: thin-walled tube, m (D^2 / 8 + (2 d)^2 / "
          "12).",
          0, true),
      key("vine.stiffness", KeyType::RealList, kOpt, "N m/rad",
          "Torsional stiffness K of the pin joints: one value for all, or one per pin joint "
          "(ceil(n / 2)); required with bending_law linear, refused with inflated_beam.",
          0),
      choice("vine.bending_law", "linear", {"linear", "inflated_beam"},
             "Pin joints' moment: linear (K times the bend angle, the paper) or "
             "inflated_beam (a wrinkling tube's moment, saturating at pi p r^3)."),
      key("vine.inflated_beam", KeyType::Map, kOpt, "",
          "The inflated-beam law's tube (docs/physics/vine.md#inflated-beam-bending); required "
          "with bending_law inflated_beam."),
      key("vine.inflated_beam.pressure", KeyType::Real, kReq, "Pa",
          "Gauge pressure p: wrinkling moment pi p r^3 / 2, collapse moment pi p r^3.", 0, true),
      key("vine.inflated_beam.radius", KeyType::Real, kOpt, "m",
          "Tube radius r; default tube_diameter / 2.", 0, true),
      key("vine.inflated_beam.wrinkling_strain", KeyType::Real, kReq, "-",
          "Critical wrinkling strain eps_w = p r / (2 E t) of the wall (E t: membrane "
          "stiffness): the tube is linear with EI = pi p r^4 / (2 eps_w) up to curvature eps_w / "
          "r.",
          0, true),
      key("vine.inflated_beam.joint_length", KeyType::Real, kOpt, "m",
          "Arc l a pin joint's bend angle is spread over (curvature = angle / l); default 4 "
          "half_length, the pin joints' spacing.",
          0, true),
      key("vine.damping", KeyType::RealList, "[0]", "N m s/rad",
          "Torsional damping C of the pin joints: one value for all, or one per pin joint.", 0),
      key("vine.heading", KeyType::Real, "0", "rad",
          "Initial heading of the straight vine and rest angle of the base pin, from the x axis."),
      key("vine.rest_angles", KeyType::RealList, kOpt, "rad",
          "Rest angles of all pin joints (pin 0: absolute); default [heading, 0, 0, ...]."),
      key("vine.steering", KeyType::Map, kOpt, "",
          "Bending actuation: the pin joints' rest angles over time (default: `rest_angles` "
          "held)."),
      key("vine.steering.table", KeyType::RealTable, kOpt, "s, rad",
          "Rows [t, angle_0, ..., angle_{p-1}] (one per pin joint, pin 0 absolute), interpolated "
          "linearly, held "
          "outside."),
      key("vine.steering.csv", KeyType::String, kOpt, "",
          "CSV file (relative to the scene): columns t, angle_0, ..., angle_{p-1} as for `table`."),
      key("vine.base", KeyType::RealList, "[0, 0]", "m",
          "World point (x, y) the base of body 0 is pinned to."),
      key("vine.gravity", KeyType::RealList, "[0, 0]", "m/s^2",
          "Gravity (g_x, g_y) in the plane of motion."),
      key("vine.dt", KeyType::Real, "0.01", "s",
          "Time step, at least 1e-9 s (velocities are differences of positions over dt: shorter "
          "steps leave only "
          "round-off).",
          1e-9),
      choice("vine.springs", "explicit", {"explicit", "implicit"},
             "Pin springs and dampers: explicit at (q_k, v_k) as in the paper (stable "
             "while dt omega < 2), "
             "or implicit in v_{k+1} (stable for any K, C; the inflated-beam law "
             "linearised with its tangent at q_k)."),
      key("vine.limits", KeyType::Map, kOpt, "",
          "Limits beyond which the run fails (reported, exit 1)."),
      key("vine.limits.joint_error", KeyType::Real, "0.001", "m",
          "Largest joint constraint error |c(q)|_inf at the start of a step (constraint drift).", 0,
          true),
      key("vine.limits.speed", KeyType::Real, "10", "m/s",
          "Energy blow-up: a step fails if its kinetic energy exceeds 1/2 (sum m) speed^2.", 0,
          true),
      key("vine.steps", KeyType::Int, kReq, "-", "Number of steps to run.", 1),
      key("vine.save_every", KeyType::Int, "1", "-", "Save a frame every this many steps.", 1),
      key("vine.growth", KeyType::Map, kOpt, "",
          "The growth-rate control u(t) (eq. 6); default: no growth."),
      choice("vine.growth.mode", "uniform", {"uniform", "tip"},
             "uniform: u split equally among the prismatic joints (the paper); tip: "
             "only the last one grows."),
      key("vine.growth.rate", KeyType::Real, kOpt, "m/s",
          "Constant total growth rate u >= 0 (retraction is not modelled: the prismatic joints "
          "have no lower limit).",
          0),
      key("vine.growth.schedule", KeyType::RealTable, kOpt, "s, m/s",
          "Piecewise-constant u: rows [t_start, u] with ascending t_start (the first row starts "
          "the run)."),
      key("vine.growth.table_csv", KeyType::String, kOpt, "",
          "CSV file (relative to the scene) with a header and columns t [s], u [m/s], interpolated "
          "linearly."),
      choice("vine.growth.control", "rate", {"rate", "force_limited"},
             "rate: every prismatic joint grows at exactly its share of u (the paper; a "
             "blocked tip makes "
             "the step infeasible); force_limited: the actuator pushes each prismatic "
             "joint with at most "
             "`force` up to that rate, so a blocked tip stalls."),
      key("vine.growth.force", KeyType::Real, "0", "N",
          "force_limited: actuator force F on every prismatic joint (pressure times tube "
          "cross-section).",
          0),
      key("vine.growth.everted_density", KeyType::Real, "0", "kg/m",
          "Mass per length of the material everted at the tip: the tip body carries the grown "
          "length's material, added at rest (0: bodies of fixed mass, the paper).",
          0),
      key("vine.growth.lookahead", KeyType::Real, "1", "-",
          "beta in G_bar = g_v + beta dt g_q: 1 is eq. 14 of the paper, 0.5 makes the length "
          "follow the integral of u.",
          0, false, 1),
      key("vine.contact", KeyType::Map, kOpt, "", "Contact with the obstacles (eq. 5)."),
      choice("vine.contact.model", "body", {"body", "point"},
             "body: every body is a capsule of the contact radius, in contact at its "
             "closest point to each "
             "obstacle; point: only at `points` (the paper's eq. 5)."),
      key("vine.contact.radius", KeyType::Real, kOpt, "m",
          "Distance kept between the bodies' axes (or the contact points) and obstacle surfaces; "
          "default "
          "tube_diameter / 2.",
          0),
      key("vine.contact.friction", KeyType::Real, "0", "-",
          "Coulomb friction coefficient mu (two-edge planar cone; 0: frictionless, the paper).", 0),
      key("vine.contact.gap", KeyType::Real, "1e-5", "m",
          "Pairs closer than this are in contact and get friction rows; farther ones only the "
          "normal row.",
          0),
      key("vine.contact.points", KeyType::List, kOpt, "",
          "Contact points of the point model; default: the distal end of every body followed by a "
          "pin joint, and the tip."),
      key("vine.contact.points[].body", KeyType::Int, kReq, "-", "Body index (0 = base).", 0),
      key("vine.contact.points[].offset", KeyType::Real, kReq, "m",
          "Position along the body axis from its centre (+d: distal end)."),
      key("vine.obstacles", KeyType::List, kOpt, "", "Fixed obstacles."),
      choice("vine.obstacles[].type", kReq, {"circle", "half_plane", "segment", "box", "polygon"},
             "Obstacle shape."),
      key("vine.obstacles[].center", KeyType::RealList, kOpt, "m", "circle, box: centre (x, y)."),
      key("vine.obstacles[].radius", KeyType::Real, kOpt, "m",
          "circle: radius; segment: half thickness.", 0),
      key("vine.obstacles[].point", KeyType::RealList, kOpt, "m",
          "half_plane: a point (x, y) on the wall line."),
      key("vine.obstacles[].normal", KeyType::RealList, kOpt, "-",
          "half_plane: outward normal (towards free space)."),
      key("vine.obstacles[].a", KeyType::RealList, kOpt, "m", "segment: first end point (x, y)."),
      key("vine.obstacles[].b", KeyType::RealList, kOpt, "m", "segment: second end point (x, y)."),
      key("vine.obstacles[].size", KeyType::RealList, kOpt, "m", "box: outer width and height."),
      key("vine.obstacles[].angle", KeyType::Real, "0", "rad", "box: rotation about its centre."),
      key("vine.obstacles[].corner_radius", KeyType::Real, "0", "m",
          "box: corner rounding (outer size kept); polygon: inflation of the vertices' polygon.",
          0),
      key("vine.obstacles[].vertices", KeyType::RealTable, kOpt, "m",
          "polygon: convex polygon vertices [x, y]."),
      key("vine.initial_state", KeyType::Map, kOpt, "",
          "Start state; default: straight along `heading`, at rest, prismatic joints not "
          "extended."),
      key("vine.initial_state.extension", KeyType::Real, "0", "m",
          "Straight start: extension of every prismatic joint (gap between the bodies' ends).", 0),
      key("vine.initial_state.q", KeyType::RealList, kOpt, "m, m, rad",
          "Explicit q = (x, y, theta) per body (3 n)."),
      key("vine.initial_state.v", KeyType::RealList, kOpt, "m/s, m/s, rad/s",
          "Explicit v per body (3 n); default 0."),
      key("vine.initial_state.csv", KeyType::String, kOpt, "",
          "CSV file (relative to the scene) with a header and one row per body: x, y, theta, vx, "
          "vy, omega."),
      key("vine.initial_state.centerline_csv", KeyType::String, kOpt, "",
          "CSV file (relative to the scene) with a header and a measured centre-line, one point x, "
          "y [m] per row from "
          "the base: the start state at rest with every body a chord of it (prismatic joints share "
          "the extra length)."),
      key("vine.initial_state.run", KeyType::String, kOpt, "",
          "A vine run folder of this scene (relative to the scene file): start from its saved "
          "frame `frame` exactly "
          "(q, v, t and the QP warm start; not projected), so the run continues bit-identically to "
          "one that had "
          "not stopped. `steps` counts from that frame."),
      key("vine.initial_state.frame", KeyType::Int, "-1", "-",
          "The saved frame of `run` to start from: 0 is the first, negative counts from the end "
          "(-1: the last)."),
      key("vine.initial_state.project", KeyType::Bool, "true", "-",
          "Project the start state (q, v or csv) onto the joint and contact constraints; false: "
          "use it as given. A "
          "state that meets them to the QP solver's tolerance (1e-10 m) is never moved. "
          "centerline_csv is always "
          "projected, a run's frame never."),
      key("vine.initial_state.tolerance", KeyType::Real, "0.001", "m",
          "The start state is projected onto the joint and contact constraints (to the QP solver's "
          "tolerance, "
          "1e-10 m times the largest coordinate in m if above 1); it is refused if any point of a "
          "body moves farther "
          "than this.",
          0, true),
  };
  return t;
}

/// Rows of a CSV file with a header line, each with `columns` reals.
std::vector<std::vector<double>> read_csv(const std::filesystem::path& file, int columns,
                                          const std::string& key) {
  std::istringstream in(read_data_file(file, key, "a CSV file (relative to the scene file)"));
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
        throw InputError(fmt::format("{} ({} line {})", key, file.string(), line_number), cell,
                         "a real number");
      if (!std::isfinite(row.back()))
        throw InputError(fmt::format("{} ({} line {})", key, file.string(), line_number), cell,
                         "a finite number");
    }
    if (static_cast<int>(row.size()) != columns)
      throw InputError(fmt::format("{} ({} line {})", key, file.string(), line_number),
                       fmt::format("{} columns", row.size()),
                       fmt::format("{} comma-separated columns", columns));
    rows.push_back(row);
  }
  if (rows.empty()) throw InputError(key, file.string(), "a CSV file with at least one data row");
  return rows;
}

Vec2 vec2(const io::SceneNode& node, std::string_view name) {
  const std::vector<double> v = node.reals(name, 2);
  return Vec2(v[0], v[1]);
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
      o.fail("size", fmt::format("({}, {})", size.x(), size.y()),
             "a width and height > 2 corner_radius");
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

}  // namespace

InflatedBeam read_inflated_beam(const io::SceneNode& b, double tube_diameter, double half_length) {
  InflatedBeam beam;
  beam.pressure = b.real("pressure");
  beam.wrinkling_strain = b.real("wrinkling_strain");
  beam.radius = b.has("radius") ? b.real("radius") : 0.5 * tube_diameter;
  beam.joint_length = b.has("joint_length") ? b.real("joint_length") : 4.0 * half_length;
  return beam;
}

GrowthSchedule read_growth(const io::SceneNode& g, const std::filesystem::path& base_dir) {
  const int given =
      (g.has("rate") ? 1 : 0) + (g.has("schedule") ? 1 : 0) + (g.has("table_csv") ? 1 : 0);
  if (given > 1) g.fail("rate", "only one of rate, schedule, table_csv");
  if (g.has("schedule")) {
    std::vector<double> times, rates;
    for (const auto& row : g.real_table("schedule", 2)) {
      if (row[1] < 0.0)
        g.fail("schedule", fmt::format("{}", row[1]),
               "growth rates u >= 0 (retraction is not modelled)");
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
        g.fail("table_csv", fmt::format("a rate of {}", row[1]),
               "growth rates u >= 0 (retraction is not modelled)");
      times.push_back(row[0]);
      rates.push_back(row[1]);
    }
    return GrowthSchedule::table(times, rates, key);
  }
  return GrowthSchedule::constant(g.has("rate") ? g.real("rate") : 0.0);
}

namespace {

/// The uniform chain: bodies, their size and mass, the heading and the time step.
UniformVineParameters read_uniform_parameters(const io::SceneNode& v) {
  UniformVineParameters p;
  p.bodies = v.integer("bodies");
  p.half_length = v.real("half_length");
  p.tube_diameter = v.real("tube_diameter");
  p.mass = v.real("mass");
  p.inertia = v.has("inertia") ? v.real("inertia") : 0.0;
  p.heading = v.real("heading");
  p.dt = v.real("dt");
  return p;
}

/// The pin joints: stiffness, damping, rest angles and the steering schedule (table or CSV).
void read_pin_joints(const io::SceneNode& v, const std::filesystem::path& base_dir, VineModel& m) {
  read_bending_law(v, m.num_pins(), "pin joint", m);
  if (v.has("rest_angles")) m.rest_angle = v.reals("rest_angles", m.num_pins());
  m.rest_angle_schedule =
      read_steering(v.map("steering"), base_dir, m.num_pins(), "one per pin joint");
  for (std::size_t j = 0; j < m.rest_angle_schedule.size(); ++j)
    m.rest_angle[j] = m.rest_angle_schedule[j](0.0);
}

/// The `growth` map: mode, schedule, lookahead, everted material and control.
void read_growth_control(const io::SceneNode& g, const std::filesystem::path& base_dir,
                         VineModel& m) {
  read_growth_map(g, base_dir, m);
  m.growth_control =
      g.text("control") == "force_limited" ? GrowthControl::force_limited : GrowthControl::rate;
  m.growth_force = g.real("force");
  if (m.growth_control == GrowthControl::force_limited && !(m.growth_force > 0.0))
    g.fail("force", fmt::format("{}", m.growth_force),
           "a force > 0 [N] with control: force_limited");
}

/// The `contact` map and the obstacles.
void read_contact(const io::SceneNode& v, VineModel& m) {
  const io::SceneNode c = v.map("contact");
  read_contact_map(c, m);
  m.contact_model = c.text("model") == "point" ? ContactModel::point : ContactModel::body;
  if (c.has("points")) {
    m.contact_points.clear();
    for (const io::SceneNode& point : c.list("points"))
      m.contact_points.push_back({point.integer("body"), point.real("offset")});
  }
  for (const io::SceneNode& o : v.list("obstacles")) m.obstacles.push_back(read_obstacle(o));
}

/// The initial state from a csv of (q, v) rows, explicit q / v, or a centreline, over the straight
/// vine in `out.initial`; projected onto the joints to `tolerance` [m] if `project`.
void read_initial_state(const io::SceneNode& s, const std::filesystem::path& base_dir,
                        double tolerance, bool project, VineScene& out) {
  const VineModel& m = out.model;
  const int n = m.num_dofs();
  if (s.has("frame")) s.fail("frame", "a frame only with run");
  if (s.has("csv")) {
    const auto rows = read_csv(base_dir / s.text("csv"), 6, s.child_path("csv"));
    if (static_cast<int>(rows.size()) != m.num_bodies)
      s.fail("csv", fmt::format("{} rows", rows.size()),
             fmt::format("{} rows (one per body)", m.num_bodies));
    for (int i = 0; i < m.num_bodies; ++i)
      for (int k = 0; k < 3; ++k) {
        out.initial.q(3 * i + k) = rows[i][k];
        out.initial.v(3 * i + k) = rows[i][3 + k];
      }
  }
  if (s.has("q")) out.initial.q = Eigen::Map<const VecX>(s.reals("q", n).data(), n);
  if (s.has("v")) out.initial.v = Eigen::Map<const VecX>(s.reals("v", n).data(), n);
  if (s.has("centerline_csv")) {
    std::vector<Vec2> points;
    for (const auto& row :
         read_csv(base_dir / s.text("centerline_csv"), 2, s.child_path("centerline_csv")))
      points.emplace_back(row[0], row[1]);
    if (!project)
      s.fail("project",
             "false with centerline_csv (its chords meet the joints only once projected)");
    out.initial = state_from_centerline(m, points, tolerance, s.child_path("centerline_csv"),
                                        &out.projection);
  } else {
    check_prismatic_lengths(m, out.initial.q, "vine.initial_state");
    if (project) out.projection = project_state(m, out.initial, tolerance, "vine.initial_state");
  }
}

}  // namespace

const io::SchemaTable& vine_scene_schema() {
  static const io::SchemaTable table = make_table();
  return table;
}

io::Schema vine_schema() {
  return io::Schema({&io::common_schema(), &vine_scene_schema()});
}

VineScene load_vine_scene(io::Scene& scene) {
  io::SceneNode root = scene.root();
  if (root.has("description")) root.text("description");
  const io::SceneNode v = root.map("vine");
  const std::filesystem::path& base_dir = scene.base_directory();

  const UniformVineParameters p = read_uniform_parameters(v);
  VineScene out;
  VineModel& m = out.model;
  m = uniform_vine(p);
  read_pin_joints(v, base_dir, m);
  m.base = vec2(v, "base");
  m.gravity = vec2(v, "gravity");
  m.springs = v.text("springs") == "implicit" ? SpringIntegration::implicit
                                              : SpringIntegration::explicit_forces;
  out.steps = v.integer("steps");
  out.save_every = v.integer("save_every");
  read_growth_control(v.map("growth"), base_dir, m);
  const io::SceneNode limits = v.map("limits");
  m.max_joint_error = limits.real("joint_error");
  m.max_speed = limits.real("speed");
  read_contact(v, m);
  m.validate("vine");

  // initial state: restored from a run's frame, or read
  const io::SceneNode s = v.map("initial_state");
  out.initial = straight_state(m, p.heading, s.real("extension"));
  const int sources = (s.has("csv") ? 1 : 0) + (s.has("q") || s.has("v") ? 1 : 0) +
                      (s.has("centerline_csv") ? 1 : 0) + (s.has("run") ? 1 : 0);
  if (sources > 1) s.fail("csv", "only one of csv, q/v, centerline_csv, run");
  const double tolerance = s.real("tolerance");
  const bool project = s.boolean("project");
  if (s.has("run")) {
    if (s.has("project"))
      s.fail("project", "no project with run: a run's saved frame is restored exactly");
    read_start_from_run(s, base_dir, out);
  } else {
    read_initial_state(s, base_dir, tolerance, project, out);
  }
  scene.check_unused();
  out.resolved = scene.resolved();
  return out;
}

VineScene load_vine_scene_file(const std::filesystem::path& file,
                               const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_file(file, vine_schema(), overrides);
  return load_vine_scene(scene);
}

void validate_scene(io::Scene& scene) {
  load_vine_scene(scene);
}

void validate_scene_file(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides) {
  load_vine_scene_file(file, overrides);
}

}  // namespace tendril::vine
