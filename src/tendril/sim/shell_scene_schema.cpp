#include "tendril/sim/shell_scene.hpp"

#include <limits>

#include "tendril/io/schema_keys.hpp"

namespace tendril::sim {

using io::KeyType;
using namespace io::keys;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kShellExample = R"yaml(duration: 0
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.02, nodes_x: 21, nodes_y: 5}
    material: {E: 1.0e7, nu: 0.3, density: 1200, thickness: 0.001}
    bending: midedge
    clamp: {side: x_min}
forces:
  gravity: [0, 0, -9.81]
integrator: {type: static}
)yaml";

const io::SchemaTable& shell_scene_schema() {
  static const io::SchemaTable table{
      "Shells",
      "Thin shells as triangle meshes (discrete shells, mat_dismech sec. 2, 3.1, 3.3; "
      "docs/physics/shells.md), "
      "point masses, buoyancy and aerodynamic drag. A scene has rods, shells or both (`rods` may "
      "then be empty). "
      "Shell nodes are numbered after all rod nodes, shell by shell (`run.json` "
      "`info.shell_nodes`); nodes are "
      "addressed per shell, 0-based in the order of the mesh (negative: from the end).",
      {
          node("shells", KeyType::List,
               "The shells. Each has a geometry (a triangle mesh) and a material."),
          node("shells[].geometry", KeyType::Map, "The triangle mesh (required)."),
          choice("shells[].geometry.type", kReq, {"rectangle", "hexagon", "disc", "file", "obj"},
                 "Generator: rectangle [0, length] x [0, width] with a mesh pattern, regular "
                 "hexagon, disc (all in "
                 "the plane z = 0, normals +z), a MAT-DiSMech geometry text file with *Nodes and "
                 "*Triangles, or a "
                 "Wavefront OBJ file (v / f lines)."),
          positive("shells[].geometry.length", kReq, "m", "rectangle: extent along x."),
          positive("shells[].geometry.width", kReq, "m", "rectangle: extent along y."),
          integer("shells[].geometry.nodes_x", kReq, 2,
                  "rectangle: nodes along x (equilateral: on even rows)."),
          integer("shells[].geometry.nodes_y", kReq, 2, "rectangle: rows of nodes along y."),
          choice("shells[].geometry.pattern", "equilateral",
                 {"right", "alternating", "equilateral"},
                 "rectangle: right (one diagonal per cell), alternating (checkerboard diagonals) "
                 "or equilateral "
                 "(odd rows shifted by half a cell; equilateral triangles when width / (nodes_y - "
                 "1) is sqrt(3)/2 "
                 "of length / (nodes_x - 1))."),
          positive("shells[].geometry.side", kReq, "m",
                   "hexagon: side length (corners on the x axis)."),
          integer("shells[].geometry.divisions", kReq, 1,
                  "hexagon: divisions n of each side (6 n^2 triangles)."),
          positive("shells[].geometry.radius", kReq, "m", "disc: radius R."),
          integer("shells[].geometry.rings", kReq, 1,
                  "disc: rings of nodes (6 rings^2 triangles)."),
          {.path = "shells[].geometry.file",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc =
               "file, obj: path relative to the scene file. A MAT-DiSMech file must have "
               "*Triangles; its *Edges, "
               "if any, are left to a rod naming the same file (rods[].geometry.type file), and "
               "without "
               "`joints` every node the two share becomes a bend_twist joint (mat_dismech 6.1)."},
          vec3("shells[].geometry.origin", "[0, 0, 0]", "m",
               "Translation added to every node of the mesh."),

          node("shells[].material", KeyType::Map, "Elastic and inertial properties (required)."),
          positive("shells[].material.E", kReq, "Pa", "Young's modulus E."),
          {.path = "shells[].material.nu",
           .type = KeyType::Real,
           .default_value = kReq,
           .unit = "-",
           .doc = "Poisson ratio nu.",
           .min = -1.0,
           .max = 0.5,
           .min_exclusive = true},
          real("shells[].material.density", kReq, "kg/m^3",
               "Mass density rho (lumped: a third of rho h A of each triangle per node).", 0.0),
          positive("shells[].material.thickness", kReq, "m", "Thickness h."),
          choice("shells[].bending", "midedge", {"midedge", "hinge"},
                 "Bending model: midedge (mid-edge normals, eq. 19-20, one DOF xi per shell edge; "
                 "converges to the "
                 "plate on any mesh: the default) or hinge (dihedral angles, eq. 17; cheaper, "
                 "mesh-dependent)."),
          choice("shells[].membrane", "cst", {"cst", "edge_springs"},
                 "Membrane: cst (St. Venant-Kirchhoff constant-strain triangles; the material's E "
                 "and nu on every "
                 "mesh: the default) or edge_springs (the paper's eq. 10; E h with nu = 1/3 on "
                 "equilateral meshes only, whatever the material's nu; anisotropic on others)."),
          positive("shells[].edge_spring_stiffness", kOpt, "N",
                   "edge_springs: k_s of every edge instead of sqrt(3)/4 E h |e_bar| from each "
                   "triangle of the edge (sqrt(3)/2 E h |e_bar| on interior edges)."),
          positive(
              "shells[].hinge_stiffness", kOpt, "N m",
              "hinge: k_b of every hinge instead of 2 D / sqrt 3, D = E h^3 / (12 (1 - nu^2))."),

          {.path = "shells[].fixed_nodes",
           .type = KeyType::IntList,
           .default_value = kOpt,
           .unit = "-",
           .doc = "Nodes of this shell fixed in x, y and z."},
          node("shells[].clamp", KeyType::Map,
               "Clamped edge: fixes every node within the first `rows` rows of nodes from one side "
               "(rows: the "
               "distinct node coordinates along that axis, nearest to the side first). Two rows "
               "clamp the slope."),
          choice("shells[].clamp.side", kReq, {"x_min", "x_max", "y_min", "y_max"},
                 "The clamped side."),
          integer("shells[].clamp.rows", "2", 1, "Rows of nodes fixed."),
          flag("shells[].clamp.hold_normal", "false",
               "bending: midedge: also fix the xi of the shell edges along the first row, and "
               "their edge "
               "frames, so the mid-edge normals there keep their direction at t = 0 (a clamped "
               "edge with one "
               "row of nodes: second-order convergence, docs/physics/shells.md#mid-edge-bending)."),
          node("shells[].fixed_dofs", KeyType::List,
               "Individual fixed components of a node of this shell."),
          integer("shells[].fixed_dofs[].node", kReq, -kInf, "Node index within the shell."),
          {.path = "shells[].fixed_dofs[].components",
           .type = KeyType::StringList,
           .default_value = kReq,
           .unit = "",
           .doc = "Fixed components.",
           .choices = {"x", "y", "z"}},
          node(
              "shells[].clamp_motion", KeyType::Map,
              "Prescribed rigid motion from t = 0 of the nodes fixed by `clamp` and `fixed_nodes`: "
              "x(t) = c + v t + R(omega t) (x(0) - c)."),
          vec3("shells[].clamp_motion.velocity", "[0, 0, 0]", "m/s", "Translation velocity v."),
          vec3("shells[].clamp_motion.angular_velocity", "[0, 0, 0]", "rad/s",
               "Angular velocity omega (axis times rate) about the axis through `center`."),
          vec3(
              "shells[].clamp_motion.center", kOpt, "m",
              "A point on the rotation axis at t = 0 (default: the centroid of the moving nodes)."),
          vec3("shells[].velocity", "[0, 0, 0]", "m/s",
               "Initial velocity of every node of this shell."),
          node("shells[].joints", KeyType::List,
               "Rod-shell joints: a shell node that is the same node as a rod node (coincident "
               "within 1e-9 of the "
               "scene size). The node is shared. Default: none, or for a shell read from a "
               "MAT-DiSMech file that "
               "rods also read, a bend_twist joint at every coincident node of the two."),
          integer("shells[].joints[].node", kReq, -kInf,
                  "Node of this shell (a node of one of its triangles)."),
          integer("shells[].joints[].rod", "0", 0, "Rod index."),
          integer("shells[].joints[].rod_node", kReq, -kInf, "Node of that rod."),
          choice("shells[].joints[].type", "bend_twist", {"bend_twist", "pin"},
                 "bend_twist (mat_dismech 3.4, the default): the shell edges of the triangles "
                 "around the node get "
                 "rod frames and twist angles, and bend-twist springs with the rod's EI and GJ "
                 "join every pair of "
                 "framed edges meeting at a node, so the joint passes bending and twisting "
                 "moments; pin: only the "
                 "positions are shared (no moment passed)."),

          node("shells[].hinge_actuation", KeyType::List,
               "Natural hinge angles scheduled in time along a straight line of hinges "
               "(mat_dismech 7, the manta "
               "ray): phi_bar_k(t) = phi_bar_k(0) + amplitude sin(2 pi frequency t + phase_k), the "
               "phase falling "
               "linearly from 0 at the line's end with the largest coordinate to -phase_lag at the "
               "other end. "
               "Needs bending: hinge."),
          choice(
              "shells[].hinge_actuation[].axis", kReq, {"x", "y"},
              "The line is where this coordinate equals `value` (hinges with both nodes on it)."),
          real("shells[].hinge_actuation[].value", kReq, "m",
               "Coordinate of the line (nodes within 1e-9 of the mesh size)."),
          real("shells[].hinge_actuation[].amplitude", kReq, "rad",
               "Amplitude of the natural angle's oscillation."),
          real("shells[].hinge_actuation[].frequency", kReq, "Hz", "Frequency f.", 0.0),
          real("shells[].hinge_actuation[].phase_lag", "0", "rad",
               "Phase lag from the line's leading end (largest coordinate along it) to its "
               "trailing end."),
          real("shells[].hinge_actuation[].ramp_time", "0", "s",
               "Soft start: the amplitude grows from 0 to `amplitude` over this time (smoothstep 3 "
               "s^2 - 2 s^3 of "
               "s = t / ramp_time); 0: the full amplitude from t = 0.",
               0.0),

          node("point_masses", KeyType::List, "Extra masses lumped at nodes (e.g. a payload)."),
          integer("point_masses[].rod", kOpt, 0, "Rod of the node (give rod or shell)."),
          integer("point_masses[].shell", kOpt, 0, "Shell of the node (give rod or shell)."),
          integer("point_masses[].node", kReq, -kInf, "Node index within that rod or shell."),
          positive("point_masses[].mass", kReq, "kg",
                   "Mass added to the node's three position DOFs."),

          node("forces.buoyancy", KeyType::Map,
               "Buoyancy of rods and shells in a medium (mat_dismech 5.1): F_i = -rho_med V_i g on "
               "each node, V_i "
               "the node's share of the displaced volume (half of A |e| of each rod edge, a third "
               "of h A of each "
               "triangle). Needs forces.gravity. Point masses displace nothing."),
          real("forces.buoyancy.density", kReq, "kg/m^3", "Density of the medium rho_med.", 0.0),
          node("forces.aerodynamic_drag", KeyType::Map,
               "Quadratic drag on shell triangles (mat_dismech 5.4, eq. 29): each node of triangle "
               "k gets "
               "-rho_med C_D A_k / 6 sgn(u_i . n_k) (u_i . n_k)^2 n_k (n_k the current unit "
               "normal, A_k the rest area)."),
          real("forces.aerodynamic_drag.density", kReq, "kg/m^3", "Density of the medium rho_med.",
               0.0),
          real("forces.aerodynamic_drag.drag_coefficient", kReq, "-", "Drag coefficient C_D.", 0.0),
      },
      kShellExample};
  return table;
}

}  // namespace tendril::sim
