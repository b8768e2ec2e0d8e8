#include "tendril/sim/rod_scene.hpp"

#include <limits>

#include "tendril/io/schema_keys.hpp"

namespace tendril::sim {

namespace {

using io::KeySpec;
using io::KeyType;
using namespace io::keys;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// A piecewise-linear vector history: rows [t, x, y, z] [s, `unit`] (scene loader: `history` in
/// rod_scene.cpp).
KeySpec vector_table(std::string path, const std::string& unit, const std::string& what) {
  return {.path = std::move(path),
          .type = KeyType::RealTable,
          .default_value = kOpt,
          .unit = "s, " + unit,
          .doc = "Piecewise-linear " + what +
                 ": rows [t, x, y, z] with increasing t, held constant outside."};
}

}  // namespace

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kRodExample = R"yaml(duration: 0
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 0.1, num_nodes: 11}
    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.002}
  - geometry: {type: straight, start: [0.05, 0, 0], direction: [0, 0, 1], length: 0.05, num_nodes: 6}
    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.002}
    natural_curvature: [10, 0]
joints:
  - nodes: [[0, 5], [1, 0]]
boundary_conditions:
  fixed_nodes: [{rod: 0, nodes: [0, 1, -2, -1]}]
forces:
  gravity: [0, 0, -9.81]
  point_loads: [{rod: 1, node: -1, force: [0.01, 0, 0]}]
integrator: {type: static}
)yaml";

const io::SchemaTable& rod_scene_schema() {
  static const io::SchemaTable table{
      "Rod scenes",
      "Rods and rod networks (Discrete Elastic Rods, mat_dismech sec. 2-3). Nodes are addressed "
      "per rod: "
      "`rod` is the index in `rods`, `node` / `nodes` are 0-based indices within that rod "
      "(negative: from the "
      "end, -1 is the last node); edges likewise. Conventions (clamp, frames, DOF layout): "
      "docs/conventions.md.",
      {
          {.path = "duration",
           .type = KeyType::Real,
           .default_value = kReq,
           .unit = "s",
           .doc =
               "Simulated time T: ceil(T / dt) steps, the last one shortened to end at T when T is "
               "not a multiple of dt. A static scene with duration 0 is solved once at t = 0.",
           .min = 0.0},

          node("rods", KeyType::List,
               "The rods (at least one). Each has a geometry and a material."),
          node("rods[].geometry", KeyType::Map, "Where the rod's nodes are (required)."),
          choice("rods[].geometry.type", kReq, {"straight", "helix", "circle", "explicit", "file"},
                 "Generator: straight rod, helix, circle/ring, explicit nodes and edges, or a "
                 "MAT-DiSMech "
                 "geometry text file (*Nodes / *Edges / *Triangles, 1-based)."),
          vec3("rods[].geometry.start", "[0, 0, 0]", "m",
               "straight: first point, or the clamp point (midpoint of the first edge) when the "
               "rod is clamped "
               "at its start."),
          vec3("rods[].geometry.direction", kOpt, "-",
               "straight: direction of the rod (normalised); give either direction and length, or "
               "end."),
          vec3("rods[].geometry.end", kOpt, "m",
               "straight: last point (instead of direction and length)."),
          positive("rods[].geometry.length", kOpt, "m",
                   "straight: length; measured from the clamp point when clamp is start "
                   "(docs/conventions.md)."),
          integer(
              "rods[].geometry.num_nodes", kReq, 2,
              "straight, helix, circle: number of nodes N (straight: N - 1 edges; circle: N >= 3).",
              kMaxNodes),
          positive("rods[].geometry.radius", kReq, "m",
                   "helix, circle: radius R of the centreline."),
          real("rods[].geometry.pitch", kReq, "m",
               "helix: rise along the axis per turn (may be negative)."),
          positive("rods[].geometry.turns", kReq, "-", "helix: number of turns."),
          vec3("rods[].geometry.axis", "[0, 0, 1]", "-",
               "helix: axis direction; circle: plane normal."),
          vec3("rods[].geometry.center", "[0, 0, 0]", "m",
               "helix: a point on the axis at the first node's height; circle: centre."),
          flag("rods[].geometry.closed", "true",
               "circle: a closed ring (N edges) or an open arc (N - 1 edges)."),
          {.path = "rods[].geometry.nodes",
           .type = KeyType::RealTable,
           .default_value = kReq,
           .unit = "m",
           .doc = "explicit: node positions, one [x, y, z] row per node."},
          {.path = "rods[].geometry.edges",
           .type = KeyType::IntTable,
           .default_value = kOpt,
           .unit = "-",
           .doc = "explicit: edges as [n0, n1] rows (0-based node indices of this rod; edge points "
                  "n0 -> n1). "
                  "Default: the chain 0-1, 1-2, ...",
           .min = 0},
          {.path = "rods[].geometry.file",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc = "file: path of a MAT-DiSMech geometry text file, relative to the scene file. The "
                  "rod takes its "
                  "*Edges and their nodes; *Triangles are for a shell naming the same file "
                  "(shells[].geometry)."},

          choice("rods[].clamp", "none", {"none", "start", "end", "both"},
                 "Clamp: fixes the first (start) and/or last (end) edge, both of its nodes and its "
                 "twist. A "
                 "straight rod clamped at its start is generated with the first edge centred on "
                 "`start`."),
          node("rods[].clamp_motion", KeyType::Map,
               "Prescribed motion of the clamped edge(s): rigid translation and rotation from t = "
               "0."),
          vec3("rods[].clamp_motion.velocity", "[0, 0, 0]", "m/s",
               "Translation velocity v of the clamp."),
          vec3("rods[].clamp_motion.angular_velocity", "[0, 0, 0]", "rad/s",
               "Angular velocity omega (axis times rate) of a rotation about the axis through "
               "`center`."),
          vec3("rods[].clamp_motion.center", kOpt, "m",
               "A point on the rotation axis at t = 0 (default: the clamp point); it moves with "
               "`velocity`."),

          node("rods[].material", KeyType::Map, "Elastic and inertial properties (required)."),
          positive("rods[].material.E", kReq, "Pa", "Young's modulus E."),
          {.path = "rods[].material.nu",
           .type = KeyType::Real,
           .default_value = kOpt,
           .unit = "-",
           .doc = "Poisson ratio nu; the shear modulus is G = E / (2 (1 + nu)). Give nu or G.",
           .min = -1.0,
           .max = 0.5,
           .min_exclusive = true},
          positive("rods[].material.G", kOpt, "Pa", "Shear modulus G (instead of nu)."),
          positive("rods[].material.density", kReq, "kg/m^3", "Mass density rho."),
          positive("rods[].material.radius", kOpt, "m",
                   "Circular cross-section radius r: A = pi r^2, I1 = I2 = pi r^4 / 4, J = pi r^4 "
                   "/ 2. Give "
                   "radius or section."),
          node("rods[].material.section", KeyType::Map,
               "A general cross-section (instead of radius)."),
          positive("rods[].material.section.A", kReq, "m^2", "Area A."),
          positive("rods[].material.section.I1", kReq, "m^4",
                   "Second moment of area I1: EI1 is the stiffness of kappa1 "
                   "(bending in the plane of t and m1)."),
          positive("rods[].material.section.I2", kReq, "m^4",
                   "Second moment of area I2: EI2 is the stiffness of kappa2 "
                   "(bending in the plane of t and m2)."),
          positive("rods[].material.section.J", kReq, "m^4", "Torsion constant J."),

          vec3("rods[].m1", kOpt, "-",
               "Initial first material director m1 of the rod's first edge: this vector projected "
               "onto the plane "
               "normal to the edge (not parallel to it); the other edges get m1 by parallel "
               "transport along the "
               "rod. Absent: +z (+x when the first edge is within 1e-6 rad of vertical; "
               "docs/conventions.md#material-frame-at-t--0). natural_curvature [k, 0] bends "
               "towards m1."),
          {.path = "rods[].natural_curvature",
           .type = KeyType::RealList,
           .default_value = kOpt,
           .unit = "1/m",
           .doc = "Uniform natural curvature [kappa1, kappa2] in the material frame "
                  "(docs/conventions.md). "
                  "Absent: taken from the initial shape (stress-free start)."},
          real("rods[].natural_twist", kOpt, "rad/m",
               "Uniform natural twist rate tau. Absent: taken from the initial shape."),
          node("rods[].stiffness_overrides", KeyType::List,
               "Per-element stiffnesses replacing the material's (e.g. near-rigid parts as very "
               "stiff edges)."),
          {.path = "rods[].stiffness_overrides[].edges",
           .type = KeyType::IntList,
           .default_value = kOpt,
           .unit = "-",
           .doc =
               "Edges of this rod (0-based; negative from the end) whose EA / EI / GJ are "
               "replaced; "
               "EI and GJ enter the springs touching an edge through the mean of its two edges."},
          {.path = "rods[].stiffness_overrides[].nodes",
           .type = KeyType::IntList,
           .default_value = kOpt,
           .unit = "-",
           .doc = "Nodes of this rod whose bend-twist springs get the given EI / GJ."},
          positive("rods[].stiffness_overrides[].stretch_stiffness", kOpt, "N",
                   "Stretching stiffness EA (edges)."),
          positive("rods[].stiffness_overrides[].bend_stiffness", kOpt, "N m^2",
                   "Bending stiffness EI (both axes)."),
          positive("rods[].stiffness_overrides[].twist_stiffness", kOpt, "N m^2",
                   "Twisting stiffness GJ."),

          node("joints", KeyType::List, "Rod networks: nodes of different rods that are one node."),
          {.path = "joints[].nodes",
           .type = KeyType::IntTable,
           .default_value = kReq,
           .unit = "-",
           .doc = "Rows [rod, node] naming coincident nodes (within 1e-9 of the scene size) that "
                  "become one."},

          node("boundary_conditions", KeyType::Map,
               "Fixed nodes, twists and individual DOFs (besides clamps)."),
          node("boundary_conditions.fixed_nodes", KeyType::List, "Nodes fixed in x, y and z."),
          integer("boundary_conditions.fixed_nodes[].rod", "0", 0, "Rod index."),
          {.path = "boundary_conditions.fixed_nodes[].nodes",
           .type = KeyType::IntList,
           .default_value = kReq,
           .unit = "-",
           .doc = "Node indices within the rod (negative: from the end)."},
          node("boundary_conditions.fixed_twists", KeyType::List,
               "Edges whose twist angle is fixed."),
          integer("boundary_conditions.fixed_twists[].rod", "0", 0, "Rod index."),
          {.path = "boundary_conditions.fixed_twists[].edges",
           .type = KeyType::IntList,
           .default_value = kReq,
           .unit = "-",
           .doc = "Edge indices within the rod (negative: from the end)."},
          node("boundary_conditions.fixed_dofs", KeyType::List,
               "Individual fixed components of a node, e.g. a roller {node: 5, components: [z]}."),
          integer("boundary_conditions.fixed_dofs[].rod", "0", 0, "Rod index."),
          integer("boundary_conditions.fixed_dofs[].node", kReq, -kInf,
                  "Node index within the rod."),
          {.path = "boundary_conditions.fixed_dofs[].components",
           .type = KeyType::StringList,
           .default_value = kReq,
           .unit = "",
           .doc = "Fixed components.",
           .choices = {"x", "y", "z"}},
          node("boundary_conditions.moving_nodes", KeyType::List,
               "Displacement control of pinned nodes: their positions follow x(t) = x(0) + d(t); "
               "twists and other "
               "nodes stay free (a clamp's rigid motion is rods[].clamp_motion)."),
          integer("boundary_conditions.moving_nodes[].rod", "0", 0, "Rod index."),
          {.path = "boundary_conditions.moving_nodes[].nodes",
           .type = KeyType::IntList,
           .default_value = kReq,
           .unit = "-",
           .doc = "Node indices within the rod (negative: from the end)."},
          vec3("boundary_conditions.moving_nodes[].velocity", kOpt, "m/s",
               "Constant velocity v: d(t) = v t. Give velocity or table."),
          vector_table("boundary_conditions.moving_nodes[].table", "m",
                       "displacement d(t) (start at d = 0)"),

          node("initial_conditions", KeyType::Map,
               "State at t = 0 besides the geometry: node velocities, edge twist angles and twist "
               "rates."),
          node(
              "initial_conditions.velocities", KeyType::List,
              "Node velocities at t = 0 (implicit_euler / implicit_midpoint; zero on fixed DOFs)."),
          integer("initial_conditions.velocities[].rod", "0", 0, "Rod index."),
          {.path = "initial_conditions.velocities[].nodes",
           .type = KeyType::IntList,
           .default_value = kOpt,
           .unit = "-",
           .doc = "Node indices within the rod (negative: from the end). Absent: every node of the "
                  "rod."},
          vec3("initial_conditions.velocities[].velocity", kReq, "m/s",
               "Velocity v of these nodes at t = 0."),
          node("initial_conditions.twists", KeyType::List,
               "Edge twist angles and twist rates at t = 0."),
          integer("initial_conditions.twists[].rod", "0", 0, "Rod index."),
          {.path = "initial_conditions.twists[].edges",
           .type = KeyType::IntList,
           .default_value = kOpt,
           .unit = "-",
           .doc = "Edge indices within the rod (negative: from the end). Absent: every edge of the "
                  "rod."},
          real("initial_conditions.twists[].angle", "0", "rad",
               "Twist angle theta at t = 0: turns m1 by theta about the edge. The natural twist "
               "stays that of "
               "theta = 0, so angles that differ between neighbouring edges strain the rod."),
          real("initial_conditions.twists[].rate", "0", "rad/s",
               "Twist rate dtheta/dt at t = 0 (dynamic integrators; zero on fixed twists)."),

          node("forces", KeyType::Map, "External loads."),
          vec3("forces.gravity", "[0, 0, 0]", "m/s^2",
               "Gravitational acceleration g (e.g. [0, 0, -9.81])."),
          node("forces.point_loads", KeyType::List,
               "Concentrated forces on nodes of rods or shells."),
          integer("forces.point_loads[].rod", kOpt, 0,
                  "Rod of the node (give rod or shell; neither: rod 0)."),
          integer("forces.point_loads[].shell", kOpt, 0, "Shell of the node (give rod or shell)."),
          integer("forces.point_loads[].node", kReq, -kInf,
                  "Node index within that rod or shell (-1: last)."),
          vec3("forces.point_loads[].force", kOpt, "N", "Constant force F. Give force or table."),
          vector_table("forces.point_loads[].table", "N", "force F(t)"),

          node("forces.surface_loads", KeyType::List,
               "Distributed loads on shells, per unit rest area, fixed in space (a uniformly "
               "loaded plate): each "
               "node gets the load times a third of the rest area of each of its triangles."),
          integer("forces.surface_loads[].shell", kReq, 0, "Shell index."),
          vec3("forces.surface_loads[].load", kOpt, "N/m^2",
               "Constant load p per unit area. Give load or table."),
          vector_table("forces.surface_loads[].table", "N/m^2", "load p(t)"),

          node("forces.point_moments", KeyType::List,
               "Concentrated moments on edges, fixed in space: the part along the edge twists it, "
               "the rest is a "
               "couple of forces on its two nodes (docs/physics/rods.md#point-moments)."),
          integer("forces.point_moments[].rod", "0", 0, "Rod index."),
          integer("forces.point_moments[].edge", kReq, -kInf,
                  "Edge index within the rod (-1: last)."),
          vec3("forces.point_moments[].moment", kOpt, "N m",
               "Constant moment M (axis times magnitude). Give moment or table."),
          vector_table("forces.point_moments[].table", "N m", "moment M(t)"),

          node("forces.follower_loads", KeyType::List,
               "Follower loads: a force along the current tangent of an edge, at its end node; it "
               "turns with "
               "the rod (docs/physics/rods.md#follower-loads)."),
          integer("forces.follower_loads[].rod", "0", 0, "Rod index."),
          integer("forces.follower_loads[].edge", kReq, -kInf,
                  "Edge index within the rod (-1: last)."),
          {.path = "forces.follower_loads[].force",
           .type = KeyType::Real,
           .default_value = kReq,
           .unit = "N",
           .doc = "Magnitude P along the edge's tangent (first to second node); negative: pushing "
                  "against it "
                  "(a compressive tip load on the last edge, Beck's column)."},

          node("integrator", KeyType::Map, "Time stepping or static solve."),
          choice("integrator.type", "implicit_euler",
                 {"implicit_euler", "implicit_midpoint", "static"},
                 "implicit_euler (backward Euler, mat_dismech Alg. 1; numerically damped), "
                 "implicit_midpoint "
                 "(no numerical damping) or static (equilibrium at each output time, loads ramped "
                 "if needed)."),
          positive("integrator.dt", "1e-3", "s",
                   "Time step (static: spacing of the quasi-static solves when duration > 0)."),
          integer("integrator.max_dt_halvings", "12", 0,
                  "A failed step is split in halves at most this deep; each half is tried whole "
                  "again, so the "
                  "step grows back after the part that needed the split. The run keeps its dt; "
                  "step_substeps "
                  "counts the substeps.",
                  30),
          choice("integrator.initial_guess", "inertial", {"inertial", "previous"},
                 "Where each step's Newton iteration starts: inertial (q_k + dt u_k, the "
                 "force-free motion, cut "
                 "short by the continuous collision check) or previous (q_k, mat_dismech Alg. 1). "
                 "Time stepping "
                 "only."),
          {.path = "integrator.midpoint_alpha",
           .type = KeyType::Real,
           .default_value = "0.5",
           .unit = "-",
           .doc = "implicit_midpoint: forces at (1 - alpha) q_k + alpha q_{k+1}; 0.5 is the "
                  "midpoint rule (no "
                  "numerical damping), larger values damp stiff modes (1 is implicit Euler).",
           .min = 0.5,
           .max = 1.0},
          node("integrator.newton", KeyType::Map, "Newton solver options."),
          {.path = "integrator.newton.force_tolerance",
           .type = KeyType::Real,
           .default_value = "1e-8",
           .unit = "-",
           .doc = "Force-residual tolerance relative to the loads and inertial forces "
                  "(docs/physics/time_integration.md).",
           .min = 0.0},
          {.path = "integrator.newton.force_tolerance_abs",
           .type = KeyType::Real,
           .default_value = "0",
           .unit = "N",
           .doc = "Absolute force-residual floor.",
           .min = 0.0},
          {.path = "integrator.newton.step_tolerance",
           .type = KeyType::Real,
           .default_value = "1e-12",
           .unit = "-",
           .doc = "Newton step (relative to the scene size) below which the residual is compared "
                  "with its round-off floor.",
           .min = 0.0},
          integer("integrator.newton.max_iterations", kOpt, 1,
                  "Newton iterations per solve. Absent: 30 for time steps, 100 for static solves "
                  "(from a straight "
                  "rod a large deflection takes 30-40).",
                  kMaxIterations),
          {.path = "integrator.newton.chord_contraction",
           .type = KeyType::Real,
           .default_value = "0",
           .unit = "-",
           .doc = "Chord steps: after an iteration that cut the force residual to at most this "
                  "fraction of the previous one, the next solves with the factorization already "
                  "held instead of a new Jacobian (docs/physics/time_integration.md); 0: off.",
           .min = 0.0,
           .max = 0.5},
          choice("integrator.newton.stopping", "tendril", {"tendril", "dismech"},
                 "What ends a Newton solve: tendril (the residual at the current iterate within "
                 "force_tolerance "
                 "or its round-off floor) or dismech (py-dismech's rule: the residual before the "
                 "last update "
                 "below integrator.newton.dismech.force_tolerance or relative_tolerance times the "
                 "first "
                 "residual, or the update's largest velocity change below velocity_tolerance; "
                 "docs/physics/time_integration.md)."),
          node("integrator.newton.dismech", KeyType::Map,
               "Tolerances of stopping: dismech (defaults: py-dismech's test fixtures); only with "
               "that rule."),
          {.path = "integrator.newton.dismech.force_tolerance",
           .type = KeyType::Real,
           .default_value = "1e-4",
           .unit = "N",
           .doc = "py-dismech's tol: the residual before the last update below this.",
           .min = 0.0},
          {.path = "integrator.newton.dismech.relative_tolerance",
           .type = KeyType::Real,
           .default_value = "1e-4",
           .unit = "-",
           .doc = "py-dismech's ftol: the residual before the last update below this times the "
                  "residual at the initial guess.",
           .min = 0.0},
          {.path = "integrator.newton.dismech.velocity_tolerance",
           .type = KeyType::Real,
           .default_value = "1e-2",
           .unit = "m/s",
           .doc = "py-dismech's dtol: the last update's largest change of a velocity (max |dq| / "
                  "dt over the free DOFs, rad/s for angles) below this.",
           .min = 0.0},
          flag("integrator.newton.line_search", "true", "Backtracking line search on or off."),
          choice("integrator.newton.linear_solver", "automatic",
                 {"automatic", "banded_ldlt", "sparse_ldlt", "banded_lu", "sparse_lu"},
                 "Linear solver for the Newton systems (an LDL^T kind becomes the LU of the same "
                 "structure "
                 "when a force's Jacobian is not symmetric)."),
          integer("integrator.newton.threads", "1", 1,
                  "Threads evaluating each Newton iterate (kinematics, bending and twisting, RFT; "
                  "docs/physics/time_integration.md#threads): the results are bitwise those of 1 "
                  "thread. "
                  "`tendril sweep` runs each point with this value too (1 unless set), so --jobs "
                  "times this "
                  "many threads run at once.",
                  NewtonOptions::kMaxThreads),
          integer("integrator.static_load_steps", "1", 1, "static: load increments tried first.",
                  kMaxIterations),
          integer("integrator.static_max_load_steps", "1024", 1,
                  "static: smallest increment is 1 / this.", kMaxIterations),

          node("output", KeyType::Map, "What is saved and how often."),
          integer("output.every_steps", "1", 1,
                  "Save a frame every this many steps (and always the last)."),
          positive("output.interval", kOpt, "s",
                   "Save a frame whenever t crosses a multiple of this interval (instead of "
                   "every_steps); an "
                   "interval not longer than integrator.dt saves every step."),

          node("restart", KeyType::Map,
               "Continue a run of this scene from one of its saved frames, bit-identically to the "
               "run that had not "
               "stopped (docs/output_format.md#restarting-a-rod-or-shell-run); `duration` stays "
               "the end time."),
          {.path = "restart.run",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc = "The run folder (relative to the scene file), written by this scene."},
          {.path = "restart.frame",
           .type = KeyType::Int,
           .default_value = "-1",
           .unit = "-",
           .doc = "The saved frame to continue from: 0 is the first, negative counts from the end "
                  "(-1: the last)."},
      },
      kRodExample};
  return table;
}

}  // namespace tendril::sim
