#include "tendril/sim/shell_scene.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>

#include <fmt/format.h>

#include "tendril/actuation/hinge_angle_schedule.hpp"
#include "tendril/forces/aerodynamic_drag.hpp"
#include "tendril/forces/buoyancy.hpp"
#include "tendril/geometry/triangle_normal.hpp"
#include "tendril/io/mat_dismech_geometry.hpp"
#include "tendril/io/obj_mesh.hpp"
#include "tendril/shell/rod_shell_joint.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::sim {

namespace {

io::MeshPattern mesh_pattern(const std::string& name) {
  return name == "right"         ? io::MeshPattern::right
         : name == "alternating" ? io::MeshPattern::alternating
                                 : io::MeshPattern::equilateral;
}

/// The mesh of one `geometry` map; file meshes name their triangles "file:line" for later errors.
/// `file_edges` is set to the rod edges of a MAT-DiSMech file, which the shell leaves to a rod
/// naming the same file (0 for other geometries).
io::TriangleMesh read_mesh(const io::SceneNode& g, const std::filesystem::path& base,
                           std::vector<std::string>& names, std::size_t& file_edges) {
  file_edges = 0;
  const std::string type = g.text("type");
  io::TriangleMesh mesh;
  if (type == "rectangle") {
    mesh = io::rectangle_mesh(g.real("length"), g.real("width"), g.integer("nodes_x"),
                              g.integer("nodes_y"), mesh_pattern(g.text("pattern")));
  } else if (type == "hexagon") {
    mesh = io::hexagon_mesh(g.real("side"), g.integer("divisions"));
  } else if (type == "disc") {
    mesh = io::disc_mesh(g.real("radius"), g.integer("rings"));
  } else {
    const std::string name = g.text("file");
    const std::filesystem::path path =
        std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : base / name;
    std::vector<int> lines;
    if (type == "obj") {
      io::ObjMesh obj = io::read_obj_mesh(path, g.child_path("file"));
      mesh.nodes = std::move(obj.vertices);
      mesh.triangles = std::move(obj.triangles);
      lines = std::move(obj.triangle_lines);
    } else {
      io::MatDismechGeometry file = io::read_mat_dismech_geometry(path, g.child_path("file"));
      if (file.triangles.empty())
        g.fail("file", fmt::format("{} (no *Triangles)", name),
               "a geometry with a *Triangles section");
      // the triangles' nodes only: a file that also has *Edges gives those to a rod naming it
      // (shared nodes become joints)
      mesh.nodes = io::compact_nodes(file.nodes, file.triangles);
      mesh.triangles = std::move(file.triangles);
      file_edges = file.edges.size();
      lines = std::move(file.triangle_lines);
    }
    for (int line : lines)
      names.push_back(fmt::format("{}:{} ({})", path.string(), line, g.child_path("file")));
  }
  const Vec3 origin = g.vec3("origin");
  for (Vec3& x : mesh.nodes) x += origin;
  return mesh;
}

/// Nodes within the first `rows` distinct coordinate values from `side` (within 1e-9 of the mesh
/// size).
std::vector<int> clamped_rows(const std::vector<Vec3>& nodes, const std::string& side, int rows) {
  const int axis = side[0] == 'x' ? 0 : 1;
  const double sign = side.ends_with("min") ? 1.0 : -1.0;
  std::vector<double> levels;
  double scale = 0.0;
  for (const Vec3& x : nodes) {
    levels.push_back(sign * x[axis]);
    scale = std::max(scale, (x - nodes.front()).norm());
  }
  std::sort(levels.begin(), levels.end());
  const double tolerance = 1e-9 * std::max(scale, 1e-300);
  double limit = levels.front();
  for (int row = 1, k = 0; row < rows; ++row) {
    while (k < static_cast<int>(levels.size()) &&
           levels[static_cast<std::size_t>(k)] <= limit + tolerance)
      ++k;
    if (k == static_cast<int>(levels.size())) break;
    limit = levels[static_cast<std::size_t>(k)];
  }
  std::vector<int> out;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (sign * nodes[i][axis] <= limit + tolerance) out.push_back(static_cast<int>(i));
  return out;
}

/// Fixes the xi of the shell edges with both nodes among `row` (shell node indices; `nodes` maps
/// them to the model): a clamped edge's mid-edge normals (their frames then stay at t = 0,
/// geometry/kinematics.hpp).
void hold_edge_normals(const io::SceneNode& clamp, const std::vector<int>& nodes,
                       const std::vector<int>& row, Model& model) {
  std::vector<std::uint8_t> in_row(static_cast<std::size_t>(model.dofs.num_nodes), 0);
  for (int i : row) in_row[static_cast<std::size_t>(nodes[static_cast<std::size_t>(i)])] = 1;
  int held = 0;
  for (std::size_t k = 0; k < model.shells.edges.size(); ++k) {
    const auto& e = model.shells.edges[k];
    const int z = model.shells.edge_xi[k];
    if (z < 0 || !in_row[static_cast<std::size_t>(e[0])] || !in_row[static_cast<std::size_t>(e[1])])
      continue;
    model.fixed[static_cast<std::size_t>(model.dofs.xi(z))] = 1;
    ++held;
  }
  if (held == 0)
    clamp.fail("hold_normal", "true",
               "only on a mid-edge shell (bending: midedge) with an edge along the side");
}

/// `hinge_actuation` of one shell: a sinusoid per hinge on a line, the phase linear along it.
void add_hinge_actuation(const io::SceneNode& entry, const SceneShell& shell,
                         const std::vector<int>& nodes, Model& model) {
  const std::vector<io::SceneNode> lines = entry.list("hinge_actuation");
  if (lines.empty()) return;
  if (shell.input.bending != ShellBending::hinge)
    entry.fail("hinge_actuation", "only with bending: hinge");
  std::vector<std::uint8_t> ours(static_cast<std::size_t>(model.dofs.num_nodes), 0);
  for (int n : nodes) ours[static_cast<std::size_t>(n)] = 1;
  double scale = 0.0;
  for (const Vec3& x : shell.mesh.nodes)
    scale = std::max(scale, (x - shell.mesh.nodes.front()).norm());
  const auto rest = [&](int n) -> Vec3 {
    return model.rest_positions.segment<3>(model.dofs.node(n));
  };
  for (const io::SceneNode& line : lines) {
    const int axis = line.text("axis") == "x" ? 0 : 1, along = 1 - axis;
    const double value = line.real("value");
    std::vector<int> hinges;
    std::vector<double> position;  // coordinate of each hinge's midpoint along the line
    for (std::size_t k = 0; k < model.shells.hinges.size(); ++k) {
      const auto& h = model.shells.hinges[k].nodes;
      const Vec3 a = rest(h[0]), b = rest(h[1]);
      if (!ours[static_cast<std::size_t>(h[0])] || !ours[static_cast<std::size_t>(h[1])]) continue;
      if (std::abs(a[axis] - value) > 1e-9 * scale || std::abs(b[axis] - value) > 1e-9 * scale)
        continue;
      hinges.push_back(static_cast<int>(k));
      position.push_back(0.5 * (a[along] + b[along]));
    }
    if (hinges.empty())
      line.fail("value", fmt::format("{:g} m", value),
                fmt::format("a line {} = const through hinges of this shell", "xy"[axis]));
    const auto [low, high] = std::minmax_element(position.begin(), position.end());
    const double span = std::max(*high - *low, 1e-300), top = *high;
    const double amplitude = line.real("amplitude"), frequency = line.real("frequency"),
                 lag = line.real("phase_lag");
    const double ramp = line.real("ramp_time");
    std::vector<Schedule> schedules;
    for (double p : position) {
      Schedule wave = sinusoid(0.0, amplitude, frequency, -lag * (top - p) / span);
      if (ramp > 0.0)  // amplitude grown by the smoothstep 3 s^2 - 2 s^3, s = t / ramp_time
        wave = [wave, ramp](double t) {
          const double s = std::clamp(t / ramp, 0.0, 1.0);
          return s * s * (3.0 - 2.0 * s) * wave(t);
        };
      schedules.push_back(std::move(wave));
    }
    model.actuators.push_back(
        std::make_shared<HingeAngleSchedule>(model, std::move(hinges), std::move(schedules)));
  }
}

/// MAT-DiSMech's single geometry file (sec. 6.1): every shell node that coincides with a node of a
/// rod read from the same `file` becomes a bend_twist joint (sets joined[i] and adds the node to
/// `joints`). A shell sharing its file with rods but no node with them is an error (a different
/// `origin`?).
void join_rods_of_the_same_file(const io::SceneNode& entry, const SceneShell& shell,
                                const SceneRods& rods, const Model& model, double scale,
                                std::vector<int>& joined, std::vector<int>& joints) {
  bool shares_file = false;
  for (std::size_t r = 0; r < rods.nodes.size(); ++r) {
    const io::SceneNode g = rods.nodes[r].map("geometry");
    if (g.text("type") != "file" || g.text("file") != shell.mat_dismech_file) continue;
    shares_file = true;
    for (std::size_t i = 0; i < shell.mesh.nodes.size(); ++i)
      for (int n : rods.rod_nodes[r])
        if ((model.rest_positions.segment<3>(model.dofs.node(n)) - shell.mesh.nodes[i]).norm() <=
                1e-9 * std::max(scale, 1.0) &&
            joined[i] < 0) {
          joined[i] = n;
          joints.push_back(n);
        }
  }
  if (shares_file && std::all_of(joined.begin(), joined.end(), [](int n) { return n < 0; }))
    entry.map("geometry")
        .fail("file", shell.mat_dismech_file + " (no node shared with the rods of the same file)",
              "rods and a shell of one geometry file that meet at a node (the same `origin`)");
}

}  // namespace

std::vector<SceneShell> read_scene_shells(const std::vector<io::SceneNode>& entries,
                                          const std::filesystem::path& base) {
  std::vector<SceneShell> shells;
  for (const io::SceneNode& s : entries) {
    SceneShell shell;
    shell.mesh =
        read_mesh(s.map("geometry"), base, shell.input.triangle_names, shell.mat_dismech_edges);
    if (s.map("geometry").text("type") == "file")
      shell.mat_dismech_file = s.map("geometry").text("file");
    const io::SceneNode m = s.map("material");
    shell.input.material = {m.real("E"), m.real("nu"), m.real("density"), m.real("thickness")};
    shell.input.bending =
        s.text("bending") == "hinge" ? ShellBending::hinge : ShellBending::midedge;
    shell.input.membrane =
        s.text("membrane") == "edge_springs" ? ShellMembrane::edge_springs : ShellMembrane::cst;
    if (s.has("edge_spring_stiffness")) {
      if (shell.input.membrane != ShellMembrane::edge_springs)
        s.fail("edge_spring_stiffness", "only with membrane: edge_springs");
      shell.input.edge_spring_stiffness = s.real("edge_spring_stiffness");
    }
    if (s.has("hinge_stiffness")) {
      if (shell.input.bending != ShellBending::hinge)
        s.fail("hinge_stiffness", "only with bending: hinge");
      shell.input.hinge_stiffness = s.real("hinge_stiffness");
    }
    shells.push_back(std::move(shell));
  }
  return shells;
}

namespace {

/// A shell's `joints` (shell `s`, `count` nodes): joined[i] is set to the rod node that shell node
/// i is joined to; bend_twist joints' rod nodes are added to `bend_twist_joints`. `scale`: the
/// size of the shells [m].
void read_shell_joints(const io::SceneNode& entry, const SceneShell& shell, const SceneRods& rods,
                       const Model& model, double scale, std::vector<int>& joined,
                       std::vector<int>& bend_twist_joints) {
  const int count = static_cast<int>(shell.mesh.nodes.size());
  const int num_rods = static_cast<int>(rods.rod_nodes.size());
  for (const io::SceneNode& j : entry.list("joints")) {
    const int i = resolve_index(j, "node", j.integer("node"), count, "node");
    const int r = j.integer("rod");
    if (r >= num_rods)
      j.fail("rod", std::to_string(r),
             fmt::format("a rod index in 0..{} (the scene has {} rods)", num_rods - 1, num_rods));
    const auto& nodes = rods.rod_nodes[static_cast<std::size_t>(r)];
    const int n = nodes[static_cast<std::size_t>(resolve_index(
        j, "rod_node", j.integer("rod_node"), static_cast<int>(nodes.size()), "node"))];
    const double gap = (model.rest_positions.segment<3>(model.dofs.node(n)) -
                        shell.mesh.nodes[static_cast<std::size_t>(i)])
                           .norm();
    if (gap > 1e-9 * std::max(scale, 1.0))
      j.fail("node",
             fmt::format("{} at distance {:g} m from rod {} node {}", j.integer("node"), gap, r,
                         j.integer("rod_node")),
             "a shell node coincident with the rod node (within 1e-9 of the scene size)");
    const bool on_triangle =
        std::any_of(shell.mesh.triangles.begin(), shell.mesh.triangles.end(),
                    [&](const auto& t) { return std::find(t.begin(), t.end(), i) != t.end(); });
    if (!on_triangle)
      j.fail("node", std::to_string(j.integer("node")), "a node of a triangle of this shell");
    joined[static_cast<std::size_t>(i)] = n;
    if (j.text("type") == "bend_twist") bend_twist_joints.push_back(n);
  }
}

/// The model node of every shell node (#shells x its nodes): a joint's rod node, else a new node
/// after the model's nodes, whose positions are appended to `new_nodes`.
std::vector<std::vector<int>> number_shell_nodes(const std::vector<io::SceneNode>& entries,
                                                 const std::vector<SceneShell>& shells,
                                                 const SceneRods& rods, const Model& model,
                                                 std::vector<Vec3>& new_nodes,
                                                 std::vector<int>& bend_twist_joints) {
  double scale = 0.0;
  for (const SceneShell& s : shells)
    for (const Vec3& x : s.mesh.nodes)
      scale = std::max(scale, (x - shells.front().mesh.nodes.front()).norm());
  std::vector<std::vector<int>> shell_nodes;
  for (std::size_t s = 0; s < shells.size(); ++s) {
    const int count = static_cast<int>(shells[s].mesh.nodes.size());
    std::vector<int> joined(static_cast<std::size_t>(count), -1);
    if (!entries[s].has("joints") && !shells[s].mat_dismech_file.empty())
      join_rods_of_the_same_file(entries[s], shells[s], rods, model, scale, joined,
                                 bend_twist_joints);
    read_shell_joints(entries[s], shells[s], rods, model, scale, joined, bend_twist_joints);
    std::vector<int> map;
    for (int i = 0; i < count; ++i) {
      if (joined[static_cast<std::size_t>(i)] >= 0) {
        map.push_back(joined[static_cast<std::size_t>(i)]);
        continue;
      }
      map.push_back(model.dofs.num_nodes + static_cast<int>(new_nodes.size()));
      new_nodes.push_back(shells[s].mesh.nodes[static_cast<std::size_t>(i)]);
    }
    shell_nodes.push_back(std::move(map));
  }
  return shell_nodes;
}

/// q and u grown to the model's DOFs once the shells are added: rod positions, new shell nodes
/// (`new_nodes` of them, at rest), twists, xi and joint-edge twists (= 0 in the rest shape).
/// `rod_node_count`: the model's nodes before the shells.
void grow_initial_state(const Model& model, int rod_node_count, std::size_t new_nodes,
                        VecX& q_initial, VecX& u_initial) {
  const auto n_rod = static_cast<Eigen::Index>(3 * rod_node_count);
  const Eigen::Index twists = q_initial.size() - n_rod;
  VecX q = VecX::Zero(model.dofs.size());
  q.head(n_rod) = q_initial.head(n_rod);
  q.segment(n_rod, 3 * static_cast<Eigen::Index>(new_nodes)) =
      model.rest_positions.segment(n_rod, 3 * static_cast<Eigen::Index>(new_nodes));
  q.segment(model.dofs.twist(0), twists) = q_initial.tail(twists);
  VecX u = VecX::Zero(model.dofs.size());
  u.head(n_rod) = u_initial.head(n_rod);
  u.segment(model.dofs.twist(0), twists) = u_initial.tail(twists);
  q_initial = std::move(q);
  u_initial = std::move(u);
}

/// One shell's boundary conditions (fixed nodes, clamp, fixed DOFs, clamp motion), initial
/// velocity and hinge actuation; `nodes`: the model node of each of its nodes.
void add_shell_conditions(const io::SceneNode& e, const SceneShell& shell,
                          const std::vector<int>& nodes, Model& model, const VecX& q_initial,
                          VecX& u_initial) {
  const int count = static_cast<int>(nodes.size());
  std::vector<int> fixed;
  if (e.has("fixed_nodes")) {
    const auto fixed_nodes = e.integers("fixed_nodes");
    for (std::size_t k = 0; k < fixed_nodes.size(); ++k)
      fixed.push_back(
          resolve_index(e, fmt::format("fixed_nodes[{}]", k), fixed_nodes[k], count, "node"));
  }
  if (e.has("clamp")) {
    const io::SceneNode c = e.map("clamp");
    for (int i : clamped_rows(shell.mesh.nodes, c.text("side"), c.integer("rows")))
      fixed.push_back(i);
    if (c.boolean("hold_normal"))
      hold_edge_normals(c, nodes, clamped_rows(shell.mesh.nodes, c.text("side"), 1), model);
  }
  std::sort(fixed.begin(), fixed.end());
  fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
  std::vector<int> moving;
  for (int i : fixed) {
    moving.push_back(nodes[static_cast<std::size_t>(i)]);
    for (int d : model.dofs.node_dofs(moving.back())) model.fixed[static_cast<std::size_t>(d)] = 1;
  }
  for (const io::SceneNode& f : e.list("fixed_dofs")) {
    const int n =
        nodes[static_cast<std::size_t>(resolve_index(f, "node", f.integer("node"), count, "node"))];
    for (const std::string& c : f.texts("components"))
      model.fixed[static_cast<std::size_t>(model.dofs.node(n) + (c[0] - 'x'))] = 1;
  }
  if (e.has("clamp_motion")) {
    if (moving.empty())
      e.fail("clamp_motion", "only with clamp or fixed_nodes (the nodes it moves)");
    const io::SceneNode m = e.map("clamp_motion");
    Vec3 centroid = Vec3::Zero();
    for (int n : moving)
      centroid += q_initial.segment<3>(model.dofs.node(n)) / static_cast<double>(moving.size());
    model.prescribed.push_back(clamp_motion(moving, {}, {}, m.vec3("velocity"),
                                            m.vec3("angular_velocity"),
                                            m.has("center") ? m.vec3("center") : centroid));
  }
  const Vec3 v = e.vec3("velocity");
  for (int n : nodes) u_initial.segment<3>(model.dofs.node(n)) = v;
  add_hinge_actuation(e, shell, nodes, model);
}

}  // namespace

std::vector<std::vector<int>> add_scene_shells(const std::vector<io::SceneNode>& entries,
                                               std::vector<SceneShell>& shells,
                                               const SceneRods& rods, Model& model, VecX& q_initial,
                                               VecX& u_initial) {
  std::vector<Vec3> new_nodes;
  std::vector<int> bend_twist_joints;  // model nodes of the bend_twist joints
  std::vector<std::vector<int>> shell_nodes =
      number_shell_nodes(entries, shells, rods, model, new_nodes, bend_twist_joints);
  const int rod_node_count = model.dofs.num_nodes;
  append_nodes(model, new_nodes);

  std::vector<ShellInput> inputs;
  for (std::size_t s = 0; s < shells.size(); ++s) {
    shells[s].input.triangles.clear();
    for (const auto& t : shells[s].mesh.triangles)
      shells[s].input.triangles.push_back({shell_nodes[s][static_cast<std::size_t>(t[0])],
                                           shell_nodes[s][static_cast<std::size_t>(t[1])],
                                           shell_nodes[s][static_cast<std::size_t>(t[2])]});
    inputs.push_back(shells[s].input);
  }
  add_shells(model, inputs);
  if (!bend_twist_joints.empty()) add_rod_shell_joints(model, bend_twist_joints);

  grow_initial_state(model, rod_node_count, new_nodes.size(), q_initial, u_initial);
  for (std::size_t s = 0; s < shells.size(); ++s)
    add_shell_conditions(entries[s], shells[s], shell_nodes[s], model, q_initial, u_initial);
  return shell_nodes;
}

namespace {

/// Index `at`.key into `lists` (rods or shells), checked (InputError naming the key).
int list_index(const io::SceneNode& at, const char* key,
               const std::vector<std::vector<int>>& lists) {
  const int index = at.integer(key);
  if (index >= static_cast<int>(lists.size()))
    at.fail(key, std::to_string(index),
            fmt::format("an index in 0..{} (the scene has {} of them)",
                        static_cast<int>(lists.size()) - 1, lists.size()));
  return index;
}

/// The model node of node `node` (negative: from the end) of `nodes`.
int node_in(const io::SceneNode& at, const std::vector<int>& nodes, int node) {
  return nodes[static_cast<std::size_t>(
      resolve_index(at, "node", node, static_cast<int>(nodes.size()), "node"))];
}

}  // namespace

int shell_index(const io::SceneNode& at, const std::vector<std::vector<int>>& shell_nodes) {
  return list_index(at, "shell", shell_nodes);
}

int shell_node(const io::SceneNode& at, const std::vector<std::vector<int>>& shell_nodes,
               int node) {
  return node_in(at, shell_nodes[static_cast<std::size_t>(shell_index(at, shell_nodes))], node);
}

std::vector<std::pair<int, double>> shell_node_areas(const SceneShell& shell, const Model& model) {
  std::map<int, double> area;
  for (const auto& t : shell.input.triangles) {
    const auto x = [&](int k) -> Vec3 {
      return model.rest_positions.segment<3>(model.dofs.node(t[static_cast<std::size_t>(k)]));
    };
    const double third = triangle_normal(x(0), x(1), x(2)).norm() / 6.0;
    for (int n : t) area[n] += third;
  }
  return {area.begin(), area.end()};
}

void load_shell_forces(const io::SceneNode& root, const SceneRods& rods,
                       const std::vector<SceneShell>& shells,
                       const std::vector<std::vector<int>>& shell_nodes, Model& model) {
  for (const io::SceneNode& p : root.list("point_masses")) {
    const bool on_rod = p.has("rod"), on_shell = p.has("shell");
    if (on_rod == on_shell) p.fail("rod", "either rod or shell (one of them)");
    const auto& lists = on_rod ? rods.rod_nodes : shell_nodes;
    const int n =
        node_in(p, lists[static_cast<std::size_t>(list_index(p, on_rod ? "rod" : "shell", lists))],
                p.integer("node"));
    model.mass.segment<3>(model.dofs.node(n)).array() += p.real("mass");
  }

  const io::SceneNode forces = root.map("forces");
  if (forces.has("buoyancy")) {
    const Vec3 g = forces.vec3("gravity");
    if (!(g.norm() > 0.0)) forces.fail("gravity", "a non-zero gravity with buoyancy");
    // displaced volume per node: half of A |e_bar| of each rod edge, a third of h A_bar of each
    // triangle
    std::vector<double> volume(static_cast<std::size_t>(model.dofs.num_nodes), 0.0);
    for (std::size_t r = 0; r < rods.rod_edges.size(); ++r) {
      const RodMaterial& m = rods.materials[r];
      const double area = m.radius ? std::numbers::pi * *m.radius * *m.radius : *m.area;
      for (int e : rods.rod_edges[r])
        for (int n : model.rods.edges[static_cast<std::size_t>(e)])
          volume[static_cast<std::size_t>(n)] +=
              0.5 * area * model.rods.rest_length[static_cast<std::size_t>(e)];
    }
    for (const SceneShell& s : shells)
      for (const auto& [n, area] : shell_node_areas(s, model))
        volume[static_cast<std::size_t>(n)] += s.input.material.thickness * area;
    model.energies.push_back(std::make_shared<BuoyancyEnergy>(
        std::move(volume), g, forces.map("buoyancy").real("density")));
  }
  if (forces.has("aerodynamic_drag")) {
    const io::SceneNode d = forces.map("aerodynamic_drag");
    if (model.shells.triangles.empty())
      forces.fail("aerodynamic_drag", "only in a scene with shells (it acts on triangles)");
    model.forces.push_back(
        std::make_shared<AerodynamicDrag>(model, d.real("density"), d.real("drag_coefficient")));
  }
}

}  // namespace tendril::sim
