#include "tendril/vine3d/vine3d_scene.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"
#include "tendril/io/schema_keys.hpp"
#include "tendril/vine/run_restart.hpp"
#include "tendril/vine/scene_sections.hpp"
#include "tendril/vine3d/obj_mesh.hpp"
#include "tendril/vine3d/run_warm_start.hpp"
#include "tendril/vine3d/vine3d_stepper.hpp"

namespace tendril::vine3d {

namespace {

using io::KeySpec;
using io::KeyType;
using io::keys::choice;
using io::keys::integer;
using io::keys::kOpt;
using io::keys::kReq;
using io::keys::node;
using io::keys::positive;
using io::keys::real;
using io::keys::vec3;

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kVine3dExample = R"yaml(vine3d:
  bodies: 10
  half_length: 0.01
  stiffness: [0.05]
  damping: [1.0e-4]
  springs: implicit
  steps: 200
  growth: {rate: 0.04}
  contact: {friction: 0.3}
  obstacles:
    - {shape: sphere, center: [0.3, 0.02, 0.01], radius: 0.03}
    - {shape: box, center: [0.15, -0.05, 0], half_extents: [0.05, 0.01, 0.05]}
)yaml";

KeySpec table(std::string path, std::string unit, std::string doc) {
  return io::keys::key(std::move(path), KeyType::RealTable, kOpt, std::move(unit), std::move(doc));
}

KeySpec text(std::string path, std::string doc) {
  return io::keys::key(std::move(path), KeyType::String, kOpt, "", std::move(doc));
}

KeySpec reals(std::string path, std::string def, std::string unit, std::string doc) {
  return io::keys::key(std::move(path), KeyType::RealList, std::move(def), std::move(unit),
                       std::move(doc), 0.0);
}

/// The chain: bodies, inertia, joints, steering and the base.
std::vector<KeySpec> chain_keys() {
  return {
      {.path = "vine3d",
       .type = KeyType::Map,
       .default_value = kReq,
       .unit = "",
       .doc = "The 3D vine scene."},
      integer("vine3d.bodies", kReq, 1,
              "Number of rigid bodies n (bending and prismatic joints alternate, body 0 is joined "
              "to the base by a bending joint).",
              vine::kMaxBodies),
      positive("vine3d.half_length", kReq, "m",
               "Half body length d (centre of mass to either end); > 0 (a zero-length body has no "
               "axis)."),
      positive("vine3d.tube_diameter", "0.024", "m", "Outer tube diameter D."),
      positive("vine3d.mass", "0.001", "kg", "Mass m of each body."),
      positive("vine3d.axial_inertia", kOpt, "kg m^2",
               "Inertia about the body's axis; default thin-walled tube, m D^2 / 4."),
      positive("vine3d.transverse_inertia", kOpt, "kg m^2",
               "Inertia about a normal axis through the centre; default m (D^2 / 8 + (2 d)^2 / "
               "12)."),
      reals("vine3d.stiffness", kOpt, "N m/rad",
            "Bending stiffness K of the bending joints (both bending directions): one value for "
            "all, or one per bending joint (ceil(n / 2)); required with bending_law linear, "
            "refused with inflated_beam."),
      reals("vine3d.damping", "[0]", "N m s/rad",
            "Bending damping C of the bending joints: one value for all, or one per bending "
            "joint."),
      choice("vine3d.bending_law", "linear", {"linear", "inflated_beam"},
             "Bending joints' moment: linear (K times the bend) or inflated_beam (a wrinkling "
             "tube's moment of the bend's magnitude, saturating at pi p r^3; explicit springs "
             "only)."),
      node("vine3d.inflated_beam", KeyType::Map,
           "The inflated-beam law's tube (docs/physics/vine.md#inflated-beam-bending); required "
           "with bending_law inflated_beam."),
      positive("vine3d.inflated_beam.pressure", kReq, "Pa", "Gauge pressure p."),
      positive("vine3d.inflated_beam.radius", kOpt, "m", "Tube radius r; default D / 2."),
      positive("vine3d.inflated_beam.wrinkling_strain", kReq, "-",
               "Critical wrinkling strain eps_w of the wall."),
      positive("vine3d.inflated_beam.joint_length", kOpt, "m",
               "Arc a bending joint's bend is spread over; default 4 half_length."),
      table("vine3d.rest_bend", "rad",
            "Rest bends [beta_y, beta_z] (rotation about the parent's y and z axes; joint 0: "
            "about the base frame's): one row for all bending joints or one per joint; default "
            "0 (straight)."),
      node("vine3d.steering", KeyType::Map,
           "Tendon or pouch steering: the rest bends over time (default: `rest_bend` held)."),
      table("vine3d.steering.table", "s, rad",
            "Rows [t, beta_y,0, beta_z,0, ..., beta_y,p-1, beta_z,p-1] (two per bending joint), "
            "interpolated linearly, held outside."),
      text("vine3d.steering.csv",
           "CSV file (relative to the scene): columns t, then beta_y and beta_z of every bending "
           "joint, as for `table`."),
      vec3("vine3d.base", "[0, 0, 0]", "m", "World point the proximal end of body 0 is pinned to."),
      vec3("vine3d.base_rotation", "[0, 0, 0]", "rad",
           "Base frame as a rotation vector (axis times angle) from the world axes: the straight "
           "vine starts along its x axis; bending joint 0 bends relative to it."),
      vec3("vine3d.gravity", "[0, 0, 0]", "m/s^2", "Gravity g."),
  };
}

/// Time stepping, growth and limits.
std::vector<KeySpec> run_keys() {
  return {
      real("vine3d.dt", "0.01", "s", "Time step.", 1e-9),
      choice("vine3d.springs", "explicit", {"explicit", "implicit"},
             "Bending springs and dampers: explicit at (q_k, V_k) as in the paper, or implicit in "
             "V_{k+1} (stable for any K, C)."),
      integer("vine3d.steps", kReq, 1, "Number of steps to run."),
      integer("vine3d.save_every", "1", 1, "Save a frame every this many steps."),
      node("vine3d.limits", KeyType::Map, "Limits beyond which the run fails (exit 1)."),
      positive("vine3d.limits.joint_error", "0.001", "m",
               "Largest joint position error at the start of a step (constraint drift)."),
      node("vine3d.growth", KeyType::Map, "The growth-rate control u(t); default: no growth."),
      choice("vine3d.growth.mode", "uniform", {"uniform", "tip"},
             "uniform: u split equally among the prismatic joints (the paper); tip: only the last "
             "one grows."),
      real("vine3d.growth.rate", kOpt, "m/s", "Constant total growth rate u >= 0.", 0),
      table("vine3d.growth.schedule", "s, m/s",
            "Piecewise-constant u: rows [t_start, u] with ascending t_start."),
      text("vine3d.growth.table_csv",
           "CSV file (relative to the scene) with a header and columns t [s], u [m/s], "
           "interpolated linearly."),
      real("vine3d.growth.everted_density", "0", "kg/m",
           "Mass per length of the material everted at the tip: the tip body carries the grown "
           "length's material, added at rest (0: bodies of fixed mass, the paper).",
           0),
      real("vine3d.growth.lookahead", "1", "-",
           "beta in G_bar = g_v + beta dt g_q: 1 is eq. 14 of the paper, 0.5 the midpoint rule.", 0,
           1),
  };
}

/// Contact, obstacles and the initial state.
std::vector<KeySpec> contact_and_start_keys() {
  return {
      node("vine3d.contact", KeyType::Map, "Contact of the bodies (capsules) with the obstacles."),
      real("vine3d.contact.radius", kOpt, "m",
           "Capsule radius r_c around each body's axis; default tube_diameter / 2.", 0),
      real("vine3d.contact.friction", "0", "-",
           "Coulomb coefficient mu (four-sided pyramid; 0: frictionless, the paper).", 0),
      real("vine3d.contact.gap", "1e-5", "m",
           "Contact points closer than this get the friction pyramid's rows.", 0),
      node("vine3d.obstacles", KeyType::List, "Fixed rigid obstacles."),
      choice("vine3d.obstacles[].shape", kReq, {"sphere", "plane", "box", "cylinder", "mesh"},
             "sphere (center, radius), plane (point, normal: the solid half-space below it), "
             "box (center, half_extents, rotation), cylinder (center, axis, radius, half_height: "
             "solid, flat caps) or mesh (file: the triangles of a Wavefront OBJ file, surfaces "
             "without an inside)."),
      vec3("vine3d.obstacles[].center", kOpt, "m", "sphere, box, cylinder: centre."),
      positive("vine3d.obstacles[].radius", kOpt, "m", "sphere, cylinder: radius."),
      vec3("vine3d.obstacles[].axis", "[0, 0, 1]", "-", "cylinder: direction of its axis."),
      positive("vine3d.obstacles[].half_height", kOpt, "m",
               "cylinder: half its length along the axis (centre to either cap)."),
      text("vine3d.obstacles[].file",
           "mesh: Wavefront OBJ file (relative to the scene; vertices in m, faces of 3 or more "
           "corners split into fans; docs/limits.md for its size)."),
      vec3("vine3d.obstacles[].point", kOpt, "m", "plane: a point of the plane."),
      vec3("vine3d.obstacles[].normal", kOpt, "-", "plane: outward normal (towards free space)."),
      vec3("vine3d.obstacles[].half_extents", kOpt, "m",
           "box: half side lengths along its axes (each > 0)."),
      vec3("vine3d.obstacles[].rotation", "[0, 0, 0]", "rad",
           "box: orientation as a rotation vector (axis times angle) from the world axes."),
      node("vine3d.initial_state", KeyType::Map,
           "Start state; default: straight along the base frame's x axis, at rest."),
      real("vine3d.initial_state.extension", "0", "m",
           "Straight start: extension of every prismatic joint (gap between the bodies' ends).", 0),
      table("vine3d.initial_state.positions", "m",
            "Explicit start: centre [x, y, z] of every body (n rows), with `rotations`; at rest."),
      table("vine3d.initial_state.rotations", "rad",
            "Explicit start: orientation of every body as a rotation vector (n rows); its x axis "
            "along the vine."),
      positive("vine3d.initial_state.tolerance", "1e-6", "m",
               "Explicit start: largest joint error allowed (a chain whose joints are farther "
               "apart is broken and refused)."),
      text("vine3d.initial_state.run",
           "A vine3d run folder of this scene (relative to the scene file): start from its saved "
           "frame `frame` exactly (state, time and QP warm start), so the run continues "
           "bit-identically. `steps` counts from that frame."),
      integer("vine3d.initial_state.frame", "-1", -std::numeric_limits<double>::infinity(),
              "The saved frame of `run`: 0 is the first, negative counts from the end."),
  };
}

io::SchemaTable make_table() {
  io::SchemaTable t;
  t.title = "3D vine robot (`vine3d:`)";
  t.example = kVine3dExample;
  t.intro =
      "A growing vine robot in 3D: rigid bodies (quaternion orientations) in maximal coordinates "
      "joined by alternating bending joints (two bending directions, torsion held) and prismatic "
      "growth joints, one QP per step (docs/physics/vine3d.md). Body 0 is pinned to `base`; "
      "lengths "
      "in m, angles in rad. Obstacle shapes are read by one function each (vine3d_scene.cpp, "
      "obstacle_readers): the extension point for new shapes.";
  for (auto keys : {chain_keys(), run_keys(), contact_and_start_keys()})
    t.keys.insert(t.keys.end(), keys.begin(), keys.end());
  return t;
}

/// A scene key that a shape needs.
void require(const io::SceneNode& o, std::string_view name, const std::string& shape) {
  if (!o.has(name)) o.fail(name, fmt::format("required for an obstacle of shape {}", shape));
}

/// Reads one obstacle entry (of the scene in `base_dir`) into its obstacles.
using ObstacleReader =
    std::function<std::vector<Obstacle3>(const io::SceneNode&, const std::filesystem::path&)>;

/// The obstacle readers by shape: one function per shape (a new shape adds its reader here, its
/// name to the schema's `shape` choices and its keys).
const std::map<std::string, ObstacleReader>& obstacle_readers() {
  static const std::map<std::string, ObstacleReader> readers = {
      {"sphere",
       [](const io::SceneNode& o, const std::filesystem::path&) {
         require(o, "center", "sphere");
         require(o, "radius", "sphere");
         return std::vector{make_sphere(o.vec3("center"), o.real("radius"))};
       }},
      {"plane",
       [](const io::SceneNode& o, const std::filesystem::path&) {
         require(o, "point", "plane");
         require(o, "normal", "plane");
         const Vec3 n = o.vec3("normal");
         if (!(n.norm() > 0.0)) o.fail("normal", "a non-zero vector");
         return std::vector{make_half_space(o.vec3("point"), n)};
       }},
      {"box",
       [](const io::SceneNode& o, const std::filesystem::path&) {
         require(o, "center", "box");
         require(o, "half_extents", "box");
         const Vec3 h = o.vec3("half_extents");
         if (!(h.minCoeff() > 0.0))
           o.fail("half_extents", fmt::format("[{}, {}, {}]", h.x(), h.y(), h.z()),
                  "three half side lengths > 0 [m]");
         return std::vector{make_box(o.vec3("center"), h, rotation_exp(o.vec3("rotation")))};
       }},
      {"cylinder",
       [](const io::SceneNode& o, const std::filesystem::path&) {
         for (const char* key : {"center", "radius", "half_height"}) require(o, key, "cylinder");
         const Vec3 axis = o.vec3("axis");
         if (!(axis.norm() > 0.0)) o.fail("axis", "a non-zero vector");
         return std::vector{
             make_cylinder(o.vec3("center"), axis, o.real("radius"), o.real("half_height"))};
       }},
      {"mesh",
       [](const io::SceneNode& o, const std::filesystem::path& base_dir) {
         require(o, "file", "mesh");
         return mesh_obstacles(read_obj(base_dir / o.text("file"), o.child_path("file")), o.path());
       }},
  };
  return readers;
}

/// Refuses obstacles that enclose the base or hold a body at the start (naming both).
void check_start_clear(const Vine3dModel& m, const Vine3dState& s) {
  const double tol = 1e-9 * std::max(1.0, m.base.norm());
  Vec3 normal;
  for (const Obstacle3& o : m.obstacles) {
    const double base_distance = signed_distance(o, m.base, normal);
    if (base_distance - m.contact_radius < -tol)
      throw InputError(o.name,
                       fmt::format("an obstacle whose surface is {:.6g} m from the base (contact "
                                   "radius {:.6g} m)",
                                   base_distance, m.contact_radius),
                       "obstacles clear of the base by at least the contact radius (the base "
                       "cannot be moved out of them)");
    for (int b = 0; b < m.num_bodies; ++b) {
      double distance = 0.0;
      closest_offset(o, s.position[b], s.orientation[b] * Vec3::UnitX(), m.half_length[b],
                     distance);
      if (distance - m.contact_radius < -tol)
        throw InputError(o.name,
                         fmt::format("an obstacle {:.6g} m into body {} at the start",
                                     m.contact_radius - distance, b),
                         "obstacles clear of every body at the start by the contact radius");
    }
  }
}

/// Refuses an explicit start whose joints do not meet (naming the joint and its bodies).
void check_chain(const Vine3dModel& m, const Vine3dState& s, double tolerance,
                 const std::string& key) {
  const Vine3dStepper stepper(m);
  const VecX c = stepper.joint_errors(s);
  for (int r = 0; r < c.size(); ++r) {
    const JointRow& row = stepper.rows()[r];
    const bool length = row.kind != JointRowKind::twist;
    if (std::abs(c(r)) <= (length ? tolerance : tolerance / m.half_length[row.body_b])) continue;
    const char* what = row.kind == JointRowKind::position  ? "the bending joint's ends are"
                       : row.kind == JointRowKind::lateral ? "the prismatic joint's bodies are"
                                                           : "the joint is twisted by";
    throw InputError(key,
                     fmt::format("a broken chain at the joint of body {}: {} {:.6g} {} apart",
                                 row.body_b, what, std::abs(c(r)), length ? "m" : "rad"),
                     fmt::format("a chain whose joints meet to within initial_state.tolerance = "
                                 "{:.3g} m (untwisted, prismatic bodies collinear)",
                                 tolerance));
  }
  for (int j = 0; j < m.num_prismatic(); ++j) {
    const int b = m.prismatic_body(j);
    const Vec3 e = s.orientation[b - 1] * Vec3::UnitX();
    const double gap =
        e.dot(s.position[b] - s.position[b - 1]) - m.half_length[b - 1] - m.half_length[b];
    if (gap < -tolerance)
      throw InputError(key, fmt::format("bodies {} and {} overlapping by {:.6g} m", b - 1, b, -gap),
                       "prismatic joints extended by >= 0 (bodies end to end or apart)");
  }
}

/// An explicit start from `positions` and `rotations`, at rest.
Vine3dState explicit_state(const io::SceneNode& s, const Vine3dModel& m) {
  if (!s.has("positions") || !s.has("rotations"))
    s.fail(s.has("positions") ? "rotations" : "positions",
           "both positions and rotations for an explicit start");
  const auto positions = s.real_table("positions", 3);
  const auto rotations = s.real_table("rotations", 3);
  for (const auto* rows : {&positions, &rotations})
    if (static_cast<int>(rows->size()) != m.num_bodies)
      s.fail(rows == &positions ? "positions" : "rotations", fmt::format("{} rows", rows->size()),
             fmt::format("{} rows (one per body)", m.num_bodies));
  Vine3dState state;
  for (int i = 0; i < m.num_bodies; ++i) {
    state.position.emplace_back(positions[i][0], positions[i][1], positions[i][2]);
    state.orientation.push_back(
        rotation_exp(Vec3(rotations[i][0], rotations[i][1], rotations[i][2])));
  }
  state.velocity.setZero(m.num_dofs());
  return state;
}

/// The bending joints: law, stiffness, damping, rest bends and the steering schedules.
void read_bending(const io::SceneNode& v, const std::filesystem::path& base_dir, Vine3dModel& m) {
  const int nb = m.num_bending();
  vine::read_bending_law(v, nb, "bending joint", m);
  if (v.has("rest_bend")) {
    const auto rows = v.real_table("rest_bend", 2);
    if (rows.size() != 1 && static_cast<int>(rows.size()) != nb)
      v.fail("rest_bend", fmt::format("{} rows", rows.size()),
             fmt::format("1 row or {} (one per bending joint)", nb));
    for (int j = 0; j < nb; ++j)
      m.rest_bend[j] = Vec2(rows[j % rows.size()][0], rows[j % rows.size()][1]);
  }
  m.steering =
      vine::read_steering(v.map("steering"), base_dir, 2 * nb, "beta_y, beta_z per bending joint");
  for (std::size_t k = 0; k < m.steering.size(); ++k)
    m.rest_bend[k / 2](static_cast<int>(k % 2)) = m.steering[k](0.0);
}

/// The uniform chain of the scene's sizes and masses, with its base, gravity and time step.
Vine3dModel read_chain(const io::SceneNode& v) {
  UniformVine3dParameters p;
  p.bodies = v.integer("bodies");
  p.half_length = v.real("half_length");
  p.tube_diameter = v.real("tube_diameter");
  p.mass = v.real("mass");
  p.dt = v.real("dt");
  Vine3dModel m = uniform_vine3d(p);
  if (v.has("axial_inertia")) m.axial_inertia.assign(p.bodies, v.real("axial_inertia"));
  if (v.has("transverse_inertia"))
    m.transverse_inertia.assign(p.bodies, v.real("transverse_inertia"));
  m.base = v.vec3("base");
  m.base_frame = rotation_exp(v.vec3("base_rotation"));
  m.gravity = v.vec3("gravity");
  m.springs = v.text("springs") == "implicit" ? SpringIntegration::implicit
                                              : SpringIntegration::explicit_forces;
  m.max_joint_error = v.map("limits").real("joint_error");
  return m;
}

/// Growth, contact and obstacles.
void read_growth_and_contact(const io::SceneNode& v, const std::filesystem::path& base_dir,
                             Vine3dModel& m) {
  vine::read_growth_map(v.map("growth"), base_dir, m);
  vine::read_contact_map(v.map("contact"), m);
  for (const io::SceneNode& o : v.list("obstacles")) {
    std::vector<Obstacle3> read = obstacle_readers().at(o.text("shape"))(o, base_dir);
    if (o.text("shape") != "mesh") read[0].name = o.path();  // a mesh's triangles: path[t]
    m.obstacles.insert(m.obstacles.end(), read.begin(), read.end());
  }
}

}  // namespace

const io::SchemaTable& vine3d_scene_schema() {
  static const io::SchemaTable t = make_table();
  return t;
}

io::Schema vine3d_schema() {
  return io::Schema({&io::common_schema(), &vine3d_scene_schema()});
}

Vine3dScene load_vine3d_scene(io::Scene& scene) {
  io::SceneNode root = scene.root();
  if (root.has("description")) root.text("description");
  const io::SceneNode v = root.map("vine3d");
  const std::filesystem::path& base_dir = scene.base_directory();
  Vine3dScene out;
  Vine3dModel& m = out.model;
  m = read_chain(v);
  read_bending(v, base_dir, m);
  read_growth_and_contact(v, base_dir, m);
  out.steps = v.integer("steps");
  out.save_every = v.integer("save_every");
  m.validate("vine3d");

  const io::SceneNode s = v.map("initial_state");
  const bool explicit_start = s.has("positions") || s.has("rotations");
  if (static_cast<int>(explicit_start) + static_cast<int>(s.has("run")) +
          static_cast<int>(s.has("extension")) >
      1)
    s.fail("run", "only one of extension, positions/rotations, run");
  if (s.has("frame") && !s.has("run")) s.fail("frame", "a frame only with run");
  if (s.has("run")) {
    vine::read_start_from_run(s, base_dir, out);
  } else if (explicit_start) {
    out.initial = explicit_state(s, m);
    check_chain(m, out.initial, s.real("tolerance"), s.path());
  } else {
    out.initial = straight_state(m, s.real("extension"));
  }
  if (!s.has("run")) check_start_clear(m, out.initial);  // a saved frame is restored as it was
  scene.check_unused();
  out.resolved = scene.resolved();
  return out;
}

Vine3dScene load_vine3d_scene_file(const std::filesystem::path& file,
                                   const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_file(file, vine3d_schema(), overrides);
  return load_vine3d_scene(scene);
}

SavedVine3dState read_saved_state(const std::filesystem::path& run_dir, long frame,
                                  const Vine3dModel& model, const std::string& key,
                                  const std::string& frame_key) {
  const vine::RestartFrame saved = vine::read_restart_frame(
      run_dir, frame, "vine3d", model.num_bodies,
      {"body_position", "body_orientation", "body_velocity"}, key, frame_key);
  const io::RunData& run = saved.run;
  const io::NpyArray& position = run.array("body_position");
  const io::NpyArray& orientation = run.array("body_orientation");
  const io::NpyArray& velocity = run.array("body_velocity");
  const io::NpyArray& time = run.array("frame_time");
  const auto n = static_cast<std::size_t>(model.num_bodies);
  const std::size_t f = saved.frame;
  SavedVine3dState out;
  out.state.time = time.data[f];
  for (std::size_t i = 0; i < n; ++i) {
    const double* p = position.data.data() + 3 * (n * f + i);
    const double* r = orientation.data.data() + 4 * (n * f + i);
    out.state.position.emplace_back(p[0], p[1], p[2]);
    out.state.orientation.emplace_back(r[0], r[1], r[2], r[3]);  // (w, x, y, z)
  }
  out.state.velocity =
      Eigen::Map<const VecX>(velocity.data.data() + 6 * n * f, static_cast<Eigen::Index>(6 * n));
  out.warm_start = saved_warm_start(run, f, model, key);
  return out;
}

}  // namespace tendril::vine3d
