#include "tendril/sim/rod_scene.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "tendril/core/disjoint_sets.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/forces/follower_load.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/forces/point_moment.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/io/mat_dismech_geometry.hpp"
#include "tendril/io/rod_generators.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/sim/contact_scene.hpp"
#include "tendril/sim/media_scene.hpp"
#include "tendril/sim/shell_scene.hpp"

namespace tendril::sim {

io::Schema rod_schema() {
  return io::Schema({&io::common_schema(), &rod_scene_schema(), &contact_scene_schema(),
                     &media_scene_schema(), &shell_scene_schema()});
}

int resolve_index(const io::SceneNode& at, const std::string& key, int value, int count,
                  const char* what) {
  const int i = value < 0 ? count + value : value;
  if (i < 0 || i >= count)
    at.fail(key, std::to_string(value),
            fmt::format("a {} index in {}..{} (this rod has {} {}s)", what, -count, count - 1,
                        count, what));
  return i;
}

namespace {

/// Unit vector of a Vec3 key; a zero vector is an error.
Vec3 unit_vector(const io::SceneNode& at, const char* key) {
  const Vec3 v = at.vec3(key);
  if (!(v.norm() > 0.0)) at.fail(key, "a non-zero vector");
  return v.normalized();
}

/// The rod's node and edge lists; `file_triangles` is set to the triangles of a geometry file,
/// which the rod leaves to a shell naming the same file (0 for other geometries).
io::Polyline read_geometry(const io::SceneNode& g, bool clamped_at_start,
                           const std::filesystem::path& base, std::size_t& file_triangles) {
  file_triangles = 0;
  const std::string type = g.text("type");
  io::Polyline line;
  if (type == "straight") {
    const Vec3 start = g.vec3("start");
    const int n = g.integer("num_nodes");
    if (clamped_at_start && n < 3)
      g.fail("num_nodes",
             "at least 3 for a rod clamped at its start (the clamped edge and one free edge)");
    Vec3 direction;
    double length = 0.0;
    if (g.has("end")) {
      if (g.has("direction")) g.fail("direction", "absent when end is given");
      if (g.has("length")) g.fail("length", "absent when end is given");
      direction = g.vec3("end") - start;
      length = direction.norm();
      if (!(length > 0.0)) g.fail("end", "a point other than start");
      direction /= length;
    } else {
      direction = unit_vector(g, "direction");
      length = g.real("length");
    }
    line = io::straight_rod(start, direction, length, n - 1, clamped_at_start);
  } else if (type == "helix") {
    const Vec3 center = g.vec3("center");
    const Vec3 axis = unit_vector(g, "axis");
    line = io::helix(center, axis, g.real("radius"), g.real("pitch"), g.real("turns"),
                     g.integer("num_nodes"));
  } else if (type == "circle") {
    const Vec3 center = g.vec3("center");
    const Vec3 normal = unit_vector(g, "axis");
    const double radius = g.real("radius");
    const int n = g.integer("num_nodes");
    if (n < 3) g.fail("num_nodes", "at least 3 for a circle");
    line = io::circle(center, normal, radius, n, g.boolean("closed"));
  } else if (type == "explicit") {
    for (const auto& row : g.real_table("nodes", 3))
      line.nodes.emplace_back(row[0], row[1], row[2]);
    const int n = static_cast<int>(line.nodes.size());
    if (n < 2) g.fail("nodes", "at least two nodes");
    if (g.has("edges")) {
      const auto rows = g.int_table("edges", 2);
      for (std::size_t e = 0; e < rows.size(); ++e) {
        for (int c = 0; c < 2; ++c)
          if (rows[e][c] >= n)
            g.fail(fmt::format("edges[{}][{}]", e, c), std::to_string(rows[e][c]),
                   fmt::format("a node index in 0..{} (the rod has {} nodes)", n - 1, n));
        if (rows[e][0] == rows[e][1])
          g.fail(fmt::format("edges[{}]", e), fmt::format("[{}, {}]", rows[e][0], rows[e][1]),
                 "two different nodes");
        line.edges.push_back({rows[e][0], rows[e][1]});
      }
    } else {
      line.edges = io::chain_edges(n, false);
    }
  } else {  // file
    const std::string name = g.text("file");
    const std::filesystem::path path =
        std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : base / name;
    io::MatDismechGeometry file = io::read_mat_dismech_geometry(path, g.child_path("file"));
    if (file.edges.empty())
      g.fail("file", name + " (no *Edges)", "a geometry with at least one rod edge");
    // the edges' nodes only: a file that also has *Triangles gives those to a shell naming it
    line.nodes = io::compact_nodes(file.nodes, file.edges);
    line.edges = std::move(file.edges);
    file_triangles = file.triangles.size();
  }

  // zero-length edges make frames undefined
  double scale = 0.0;
  for (const Vec3& x : line.nodes) scale = std::max(scale, (x - line.nodes.front()).norm());
  for (std::size_t e = 0; e < line.edges.size(); ++e) {
    const auto [a, b] = line.edges[e];
    const double length = (line.nodes[b] - line.nodes[a]).norm();
    if (!(length > 1e-12 * std::max(scale, 1e-300)))
      g.fail(fmt::format("edges[{}]", e),
             fmt::format("nodes {} and {} at distance {}", a, b, number_text(length)),
             "edges of non-zero length (distinct node positions)");
  }
  return line;
}

RodMaterial read_material(const io::SceneNode& m) {
  RodMaterial out;
  out.youngs_modulus = m.real("E");
  const bool has_nu = m.has("nu"), has_g = m.has("G");
  if (has_nu && has_g) m.fail("G", "either nu or G, not both");
  if (!has_nu && !has_g) m.fail("nu", "(absent)", "a Poisson ratio nu or a shear modulus G");
  if (has_nu)
    out.poisson_ratio = m.real("nu");
  else
    out.shear_modulus = m.real("G");
  out.density = m.real("density");
  const bool has_r = m.has("radius"), has_section = m.has("section");
  if (has_r && has_section) m.fail("section", "either radius or section, not both");
  if (!has_r && !has_section)
    m.fail("radius", "(absent)", "a radius r or a section {A, I1, I2, J}");
  if (has_r) {
    out.radius = m.real("radius");
  } else {
    const io::SceneNode s = m.map("section");
    out.area = s.real("A");
    out.inertia_1 = s.real("I1");
    out.inertia_2 = s.real("I2");
    out.torsion_constant = s.real("J");
  }
  return out;
}

struct RodInput {
  io::Polyline line;
  std::size_t file_triangles =
      0;  // triangles of its geometry file (for a shell naming the same file)
  std::string clamp;
  std::optional<Vec2> natural_curvature;  // [1/m]
  std::optional<double> natural_twist;    // [rad/m]
};

}  // namespace

PrescribedMotion clamp_motion(std::vector<int> nodes, std::vector<int> twist_dofs,
                              std::vector<Vec3> tangents, const Vec3& velocity, const Vec3& omega,
                              const Vec3& center) {
  PrescribedMotion motion;
  for (int n : nodes)
    for (int d = 0; d < 3; ++d) motion.dofs.push_back(3 * n + d);
  for (int t : twist_dofs) motion.dofs.push_back(t);
  motion.apply = [nodes, twist_dofs, tangents, velocity, omega, center](double t, const VecX& q0,
                                                                        VecX& q) {
    const double rate = omega.norm();
    const Mat3 rotation = rate > 0.0 ? Eigen::AngleAxisd(rate * t, omega / rate).toRotationMatrix()
                                     : Mat3::Identity();
    for (int n : nodes)
      q.segment<3>(3 * n) = center + velocity * t + rotation * (q0.segment<3>(3 * n) - center);
    for (std::size_t k = 0; k < twist_dofs.size(); ++k)
      q[twist_dofs[k]] = q0[twist_dofs[k]] + omega.dot(tangents[k]) * t;
  };
  return motion;
}

namespace {

/// A MAT-DiSMech file holding rods and triangles (mat_dismech 6.1) must be named by a rod entry
/// (for its *Edges) and by a shell entry (for its *Triangles): a part nobody reads is an error, not
/// left out.
void check_shared_geometry_files(const std::vector<io::SceneNode>& rods,
                                 const std::vector<RodInput>& rod_inputs,
                                 const std::vector<io::SceneNode>& shell_entries,
                                 const std::vector<SceneShell>& shells) {
  const auto file_of = [](const io::SceneNode& entry) {
    const io::SceneNode g = entry.map("geometry");
    return g.text("type") == "file" ? g.text("file") : std::string();
  };
  for (std::size_t r = 0; r < rods.size(); ++r) {
    const std::string name = file_of(rods[r]);
    const std::size_t triangles = rod_inputs[r].file_triangles;
    if (triangles > 0 && std::none_of(shells.begin(), shells.end(), [&](const SceneShell& s) {
          return s.mat_dismech_file == name;
        }))
      rods[r]
          .map("geometry")
          .fail("file",
                fmt::format("{} ({} triangles, and no shell names this file)", name, triangles),
                "a shells entry with geometry {type: file, file: " + name +
                    "} for its triangles, or a rod geometry without *Triangles");
  }
  for (std::size_t s = 0; s < shells.size(); ++s) {
    const std::string& name = shells[s].mat_dismech_file;
    const std::size_t edges = shells[s].mat_dismech_edges;
    if (edges > 0 && std::none_of(rods.begin(), rods.end(),
                                  [&](const io::SceneNode& rod) { return file_of(rod) == name; }))
      shell_entries[s]
          .map("geometry")
          .fail("file", fmt::format("{} ({} rod edges, and no rod names this file)", name, edges),
                "a rods entry with geometry {type: file, file: " + name +
                    "} for its edges, or a shell geometry without *Edges");
  }
}

/// A constant vector under `key` or a piecewise-linear `table` of rows [t, x, y, z] (one of them)
/// (`rate`: the vector under `key` times t instead).
ForceHistory history(const io::SceneNode& p, const char* key, bool rate = false) {
  const bool has_value = p.has(key), has_table = p.has("table");
  if (has_value == has_table) p.fail(key, fmt::format("either {} or table (one of them)", key));
  if (has_value) {
    const Vec3 value = p.vec3(key);
    if (rate) return [value](double t) { return Vec3(value * t); };
    return [value](double) { return value; };
  }
  std::vector<double> times;
  std::vector<Vec3> values;
  for (const auto& row : p.real_table("table", 4)) {
    if (!times.empty() && !(row[0] > times.back()))
      p.fail(fmt::format("table[{}][0]", times.size()), number_text(row[0]),
             "times in strictly increasing order");
    times.push_back(row[0]);
    values.emplace_back(row[1], row[2], row[3]);
  }
  return piecewise_linear(std::move(times), std::move(values));
}

/// The section integrator.newton (`n`) for a solve of kind `solve`.
NewtonOptions read_newton_options(const io::SceneNode& n, Solve solve) {
  NewtonOptions newton;
  newton.force_tolerance = n.real("force_tolerance");
  newton.force_tolerance_abs = n.real("force_tolerance_abs");
  newton.step_tolerance = n.real("step_tolerance");
  // absent: the options' own default for the kind of solve (30 dynamic, 100 static)
  if (n.has("max_iterations"))
    newton.max_iterations = n.integer("max_iterations");
  else if (solve == Solve::static_equilibrium)
    newton.max_iterations = StaticOptions{}.newton.max_iterations;
  newton.line_search.enabled = n.boolean("line_search");
  newton.chord_contraction = n.real("chord_contraction");
  newton.stopping = parse_stopping_rule(n.text("stopping"), n.child_path("stopping"));
  if (newton.stopping == StoppingRule::dismech) {
    const io::SceneNode d = n.map("dismech");
    newton.dismech = {d.real("force_tolerance"), d.real("relative_tolerance"),
                      d.real("velocity_tolerance")};
  } else if (n.has("dismech")) {
    n.fail("dismech", "only with integrator.newton.stopping: dismech");
  }
  newton.linear_solver =
      parse_linear_solver(n.text("linear_solver"), n.child_path("linear_solver"));
  newton.threads = n.integer("threads");
  return newton;
}

}  // namespace

std::string scene_node_name(const RodScene& scene, int node) {
  const auto name_in = [node](const std::vector<std::vector<int>>& lists,
                              const char* what) -> std::string {
    for (std::size_t r = 0; r < lists.size(); ++r) {
      const auto at = std::find(lists[r].begin(), lists[r].end(), node);
      if (at != lists[r].end())
        return fmt::format("{}[{}].nodes[{}]", what, r, at - lists[r].begin());
    }
    return "";
  };
  const std::string rod = name_in(scene.rod_nodes, "rods");
  return rod.empty() ? name_in(scene.shell_nodes, "shells") : rod;
}

namespace {

/// `duration` and the `restart` frame the run continues from.
void read_time_span(io::Scene& scene, RodScene& out) {
  const io::SceneNode root = scene.root();
  out.duration = root.real("duration");
  if (!root.has("restart")) return;
  const io::SceneNode restart = root.map("restart");
  out.restart_run = scene.base_directory() / restart.text("run");
  out.restart_frame = restart.integer("frame");
}

/// forces.surface_loads: a load per unit rest area [N/m^2] on each listed shell, shared out to its
/// nodes as the mass is (each node's share of the rest area).
void add_surface_loads(const io::SceneNode& forces,
                       const std::vector<std::vector<int>>& shell_nodes,
                       const std::vector<SceneShell>& shells, Model& model) {
  for (const io::SceneNode& p : forces.list("surface_loads")) {
    const int s = shell_index(p, shell_nodes);
    const ForceHistory load = history(p, "load");
    for (const auto& node_area : shell_node_areas(shells[static_cast<std::size_t>(s)], model)) {
      const double area =
          node_area.second;  // (captured below: no structured binding, for clang 14)
      model.forces.push_back(std::make_shared<PointLoad>(
          node_area.first, [load, area](double t) { return Vec3(area * load(t)); }));
    }
  }
}

}  // namespace

RodScene load_rod_scene(io::Scene& scene) {
  expand_flagellated_robot(scene);
  RodScene out;
  io::SceneNode root = scene.root();
  out.description = root.text("description");
  read_time_span(scene, out);

  // rods: geometry and material, numbered globally in order
  const std::vector<io::SceneNode> rods = root.list("rods");
  const std::vector<io::SceneNode> shell_entries = root.list("shells");
  if (rods.empty() && shell_entries.empty())
    root.fail("rods", "a list of at least one rod (or `shells`)");
  RodNetworkInput net;
  std::vector<RodInput> rod_inputs;
  std::vector<int> node_offset, edge_offset;
  for (std::size_t r = 0; r < rods.size(); ++r) {
    const io::SceneNode& rod = rods[r];
    RodInput in;
    in.clamp = rod.text("clamp");
    in.line = read_geometry(rod.map("geometry"), in.clamp == "start" || in.clamp == "both",
                            scene.base_directory(), in.file_triangles);
    net.materials.push_back(read_material(rod.map("material")));
    if (rod.has("natural_curvature")) {
      const auto k = rod.reals("natural_curvature", 2);
      in.natural_curvature = Vec2(k[0], k[1]);
    }
    if (rod.has("natural_twist")) in.natural_twist = rod.real("natural_twist");
    if (net.nodes.size() + in.line.nodes.size() > static_cast<std::size_t>(kMaxNodes))
      rod.fail("geometry",
               fmt::format("{} nodes in rods[0..{}]", net.nodes.size() + in.line.nodes.size(), r),
               fmt::format("at most {} nodes in all rods together (docs/limits.md)", kMaxNodes));
    node_offset.push_back(static_cast<int>(net.nodes.size()));
    edge_offset.push_back(static_cast<int>(net.edges.size()));
    for (const Vec3& x : in.line.nodes) net.nodes.push_back(x);
    for (const auto& e : in.line.edges) {
      net.edges.push_back({e[0] + node_offset.back(), e[1] + node_offset.back()});
      net.edge_material.push_back(static_cast<int>(r));
      net.initial_director_hint.push_back(Vec3::Zero());
    }
    // every rod's first edge seeds the initial frames: m1 = `m1` (absent: +z) made normal to the
    // edge
    const Vec3 first_tangent =
        (in.line.nodes[in.line.edges[0][1]] - in.line.nodes[in.line.edges[0][0]]).normalized();
    Vec3& hint = net.initial_director_hint[edge_offset.back()];
    hint = initial_director(first_tangent);
    if (rod.has("m1")) {
      hint = rod.vec3("m1");
      if (!director_hint_usable(first_tangent, hint))
        rod.fail("m1",
                 fmt::format("[{}, {}, {}]", number_text(hint.x()), number_text(hint.y()),
                             number_text(hint.z())),
                 fmt::format("a vector not parallel to the rod's first edge (tangent [{}, {}, {}])",
                             number_text(first_tangent.x()), number_text(first_tangent.y()),
                             number_text(first_tangent.z())));
    }
    rod_inputs.push_back(std::move(in));
  }
  const int num_rods = static_cast<int>(rods.size());
  auto rod_index = [&](const io::SceneNode& at) {
    const int r = at.integer("rod");
    if (r >= num_rods)
      at.fail("rod", std::to_string(r),
              fmt::format("a rod index in 0..{} (the scene has {} rods)", num_rods - 1, num_rods));
    return r;
  };
  auto rod_size = [&](int r) { return static_cast<int>(rod_inputs[r].line.nodes.size()); };
  auto rod_edge_count = [&](int r) { return static_cast<int>(rod_inputs[r].line.edges.size()); };

  // joints: merge coincident nodes of different rods
  double scale = 0.0;
  for (const Vec3& x : net.nodes) scale = std::max(scale, (x - net.nodes.front()).norm());
  std::vector<SceneShell> shells = read_scene_shells(shell_entries, scene.base_directory());
  check_shared_geometry_files(rods, rod_inputs, shell_entries, shells);
  DisjointSets joined(static_cast<int>(net.nodes.size()));
  for (const io::SceneNode& joint : root.list("joints")) {
    const auto rows = joint.int_table("nodes", 2);
    if (rows.size() < 2) joint.fail("nodes", "at least two [rod, node] rows");
    int first = -1;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const std::string key = fmt::format("nodes[{}]", k);
      if (rows[k][0] < 0 || rows[k][0] >= num_rods)
        joint.fail(key + "[0]", std::to_string(rows[k][0]),
                   fmt::format("a rod index in 0..{}", num_rods - 1));
      const int local = resolve_index(joint, key + "[1]", rows[k][1], rod_size(rows[k][0]), "node");
      const int global = node_offset[rows[k][0]] + local;
      if (first < 0) {
        first = global;
        continue;
      }
      const double gap = (net.nodes[global] - net.nodes[first]).norm();
      if (gap > 1e-9 * std::max(scale, 1.0))
        joint.fail(key,
                   fmt::format("[{}, {}] at distance {} m from the first node", rows[k][0],
                               rows[k][1], number_text(gap)),
                   "coincident nodes (within 1e-9 of the scene size)");
      joined.merge_into(global, first);
    }
  }
  // renumber: one model node per joint class, in order of first appearance
  std::vector<int> model_node(net.nodes.size(), -1);
  std::vector<Vec3> merged;
  for (std::size_t i = 0; i < net.nodes.size(); ++i) {
    const int root_i = joined.find(static_cast<int>(i));
    if (model_node[root_i] < 0) {
      model_node[root_i] = static_cast<int>(merged.size());
      merged.push_back(net.nodes[root_i]);
    }
    model_node[i] = model_node[root_i];
  }
  for (auto& e : net.edges) e = {model_node[e[0]], model_node[e[1]]};
  net.nodes = std::move(merged);
  for (int r = 0; r < num_rods; ++r) {
    out.rod_nodes.emplace_back();
    for (int i = 0; i < rod_size(r); ++i)
      out.rod_nodes[r].push_back(model_node[node_offset[r] + i]);
    out.rod_edges.emplace_back();
    for (int e = 0; e < rod_edge_count(r); ++e) out.rod_edges[r].push_back(edge_offset[r] + e);
  }

  // per-element stiffness overrides
  for (int r = 0; r < num_rods; ++r) {
    const auto overrides = rods[r].list("stiffness_overrides");
    for (const io::SceneNode& o : overrides) {
      const bool has_edges = o.has("edges"), has_nodes = o.has("nodes");
      if (has_edges == has_nodes) o.fail("edges", "either edges or nodes (one of them)");
      StiffnessOverride base;
      if (o.has("stretch_stiffness")) {
        if (has_nodes)
          o.fail("stretch_stiffness", "absent for node overrides (EA belongs to edges)");
        base.stretch_stiffness = o.real("stretch_stiffness");
      }
      if (o.has("bend_stiffness")) base.bend_stiffness = o.real("bend_stiffness");
      if (o.has("twist_stiffness")) base.twist_stiffness = o.real("twist_stiffness");
      if (!base.stretch_stiffness && !base.bend_stiffness && !base.twist_stiffness)
        o.fail("bend_stiffness", "(absent)",
               "at least one of stretch_stiffness, bend_stiffness, twist_stiffness");
      const std::string key = has_edges ? "edges" : "nodes";
      const auto indices = o.integers(key);
      for (std::size_t k = 0; k < indices.size(); ++k) {
        StiffnessOverride so = base;
        const std::string item = fmt::format("{}[{}]", key, k);
        if (has_edges)
          so.edge = out.rod_edges[r][resolve_index(o, item, indices[k], rod_edge_count(r), "edge")];
        else
          so.node = out.rod_nodes[r][resolve_index(o, item, indices[k], rod_size(r), "node")];
        net.overrides.push_back(so);
      }
    }
  }

  // rods, then the shells' nodes and triangles (shell_scene.cpp)
  if (num_rods > 0) out.model = build_rod_model(net);
  Model& model = out.model;
  out.q_initial = rest_configuration(model);
  out.u_initial = VecX::Zero(out.q_initial.size());
  const std::vector<RodMaterial> materials = net.materials;
  const SceneRods scene_rods{rods, out.rod_nodes, out.rod_edges, materials};
  out.shell_nodes =
      add_scene_shells(shell_entries, shells, scene_rods, model, out.q_initial, out.u_initial);

  // natural curvature / twist given per rod (else from the initial shape) or per spring
  // (rest_shape): integrated per spring
  std::vector<int> edge_rod;
  for (int r = 0; r < num_rods; ++r)
    for (int e = 0; e < rod_edge_count(r); ++e) edge_rod.push_back(r);
  auto set_natural_shape = [&](BendTwistSpring& s, const std::optional<Vec2>& kappa,
                               const std::optional<double>& tau, const io::SceneNode& at) {
    const double l = s.voronoi_length;
    if (kappa) {
      // the discrete curvature of a circular arc of curvature |kappa|: |kappa b| = 2 tan(|kappa| l
      // / 2)
      const double k = kappa->norm();
      if (k * l >= std::numbers::pi)
        at.fail("natural_curvature", fmt::format("{} 1/m", number_text(k)),
                fmt::format("|kappa| l < pi for Voronoi length l = {} m (refine the rod)",
                            number_text(l)));
      s.natural_curvature = k > 0.0 ? Vec2(*kappa / k * 2.0 * std::tan(0.5 * k * l)) : Vec2::Zero();
    }
    if (tau) s.natural_twist = *tau * l;
  };
  for (BendTwistSpring& s : model.rods.springs) {
    const int r = edge_rod[s.edge_a];
    if (edge_rod[s.edge_b] != r) continue;  // joint springs between rods keep their initial shape
    set_natural_shape(s, rod_inputs[r].natural_curvature, rod_inputs[r].natural_twist, rods[r]);
  }
  for (int r = 0; r < num_rods; ++r)
    for (const io::SceneNode& shape : rods[r].list("rest_shape")) {
      std::optional<Vec2> kappa;
      std::optional<double> tau;
      if (shape.has("natural_curvature")) {
        const auto k = shape.reals("natural_curvature", 2);
        kappa = Vec2(k[0], k[1]);
      }
      if (shape.has("natural_twist")) tau = shape.real("natural_twist");
      if (!kappa && !tau)
        shape.fail("natural_curvature", "(absent)", "natural_curvature and/or natural_twist");
      const auto nodes = shape.integers("nodes");
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        const std::string key = fmt::format("nodes[{}]", k);
        const int n = out.rod_nodes[r][resolve_index(shape, key, nodes[k], rod_size(r), "node")];
        const std::vector<int> springs = springs_of_rod_at(model, scene_rods, r, n);
        if (springs.empty())
          shape.fail(key, std::to_string(nodes[k]),
                     "a node with a bend-twist spring of this rod (not a rod end)");
        for (int spring : springs) set_natural_shape(model.rods.springs[spring], kappa, tau, shape);
      }
    }

  // boundary conditions: clamps, fixed nodes / twists / components
  auto fix_node = [&](int n) {
    for (int d = 0; d < 3; ++d) model.fixed[3 * n + d] = 1;
  };
  for (int r = 0; r < num_rods; ++r) {
    const RodInput& in = rod_inputs[r];
    const io::SceneNode& rod = rods[r];
    if (in.clamp == "none") {
      if (rod.has("clamp_motion")) rod.fail("clamp_motion", "absent unless the rod has a clamp");
      continue;
    }
    std::vector<int> clamped_edges;
    if (in.clamp == "start" || in.clamp == "both") clamped_edges.push_back(0);
    if (in.clamp == "end" || in.clamp == "both") clamped_edges.push_back(rod_edge_count(r) - 1);
    std::vector<int> nodes, twists;
    std::vector<Vec3> tangents;
    for (int e : clamped_edges) {
      const auto [a, b] = model.rods.edges[out.rod_edges[r][e]];
      fix_node(a);
      fix_node(b);
      nodes.push_back(a);
      nodes.push_back(b);
      const int twist = model.dofs.twist(out.rod_edges[r][e]);
      model.fixed[twist] = 1;
      twists.push_back(twist);
      tangents.push_back(
          (out.q_initial.segment<3>(3 * b) - out.q_initial.segment<3>(3 * a)).normalized());
    }
    if (rod.has("clamp_motion")) {
      const io::SceneNode m = rod.map("clamp_motion");
      const Vec3 v = m.vec3("velocity"), omega = m.vec3("angular_velocity");
      const Vec3 clamp_point =
          0.5 * (out.q_initial.segment<3>(3 * nodes[0]) + out.q_initial.segment<3>(3 * nodes[1]));
      const Vec3 center = m.has("center") ? m.vec3("center") : clamp_point;
      model.prescribed.push_back(clamp_motion(nodes, twists, tangents, v, omega, center));
    }
  }
  const io::SceneNode bc = root.map("boundary_conditions");
  for (const io::SceneNode& f : bc.list("fixed_nodes")) {
    const int r = rod_index(f);
    const auto nodes = f.integers("nodes");
    for (std::size_t k = 0; k < nodes.size(); ++k)
      fix_node(out.rod_nodes[r][resolve_index(f, fmt::format("nodes[{}]", k), nodes[k], rod_size(r),
                                              "node")]);
  }
  for (const io::SceneNode& f : bc.list("fixed_twists")) {
    const int r = rod_index(f);
    const auto edges = f.integers("edges");
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const int e =
          resolve_index(f, fmt::format("edges[{}]", k), edges[k], rod_edge_count(r), "edge");
      model.fixed[model.dofs.twist(out.rod_edges[r][e])] = 1;
    }
  }
  for (const io::SceneNode& f : bc.list("fixed_dofs")) {
    const int r = rod_index(f);
    const int n =
        out.rod_nodes[r][resolve_index(f, "node", f.integer("node"), rod_size(r), "node")];
    for (const std::string& c : f.texts("components")) model.fixed[3 * n + (c[0] - 'x')] = 1;
  }
  for (const io::SceneNode& f : bc.list("moving_nodes")) {
    const int r = rod_index(f);
    const auto nodes = f.integers("nodes");
    PrescribedMotion motion;
    std::vector<int> moved;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const int n = out.rod_nodes[r][resolve_index(f, fmt::format("nodes[{}]", k), nodes[k],
                                                   rod_size(r), "node")];
      fix_node(n);
      moved.push_back(n);
      for (int d = 0; d < 3; ++d) motion.dofs.push_back(3 * n + d);
    }
    motion.apply = [moved, displacement = history(f, "velocity", true)](double t, const VecX& q0,
                                                                        VecX& q) {
      const Vec3 d = displacement(t);
      for (int n : moved) q.segment<3>(3 * n) = q0.segment<3>(3 * n) + d;
    };
    model.prescribed.push_back(std::move(motion));
  }

  // initial conditions: node velocities, twist angles and rates (fixed DOFs keep zero velocity; the
  // shells' velocities are already in u_initial)
  const io::SceneNode initial = root.map("initial_conditions");
  // local indices listed under `key`, or all `count` of them when the key is absent
  auto selected = [&](const io::SceneNode& at, const char* key, int count, const char* what) {
    std::vector<int> local;
    if (!at.has(key)) {
      for (int i = 0; i < count; ++i) local.push_back(i);
      return local;
    }
    const auto indices = at.integers(key);
    for (std::size_t k = 0; k < indices.size(); ++k)
      local.push_back(resolve_index(at, fmt::format("{}[{}]", key, k), indices[k], count, what));
    return local;
  };
  for (const io::SceneNode& v : initial.list("velocities")) {
    const int r = rod_index(v);
    const Vec3 velocity = v.vec3("velocity");
    for (int i : selected(v, "nodes", rod_size(r), "node")) {
      const int n = out.rod_nodes[r][i];
      for (int d = 0; d < 3; ++d) {
        if (model.fixed[3 * n + d] && velocity[d] != 0.0)
          v.fail("velocity",
                 fmt::format("[{}, {}, {}] on node {} of rod {}", number_text(velocity.x()),
                             number_text(velocity.y()), number_text(velocity.z()), i, r),
                 "zero components on fixed DOFs (clamped or fixed nodes, fixed_dofs)");
        out.u_initial[3 * n + d] = velocity[d];
      }
    }
  }
  for (const io::SceneNode& tw : initial.list("twists")) {
    const int r = rod_index(tw);
    const double angle = tw.real("angle"), rate = tw.real("rate");
    for (int e : selected(tw, "edges", rod_edge_count(r), "edge")) {
      const int dof = model.dofs.twist(out.rod_edges[r][e]);
      if (model.fixed[dof] && rate != 0.0)
        tw.fail(
            "rate",
            fmt::format("{} rad/s on edge {} of rod {} (a fixed twist)", number_text(rate), e, r),
            "zero on fixed twists (clamped edges, fixed_twists)");
      out.q_initial[dof] = angle;
      out.u_initial[dof] = rate;
    }
  }

  // forces
  const io::SceneNode forces = root.map("forces");
  const Vec3 g = forces.vec3("gravity");
  if (g.norm() > 0.0) model.energies.push_back(std::make_shared<GravityEnergy>(g));
  for (const io::SceneNode& p : forces.list("point_loads")) {
    if (p.has("shell")) {
      if (p.has("rod")) p.fail("rod", "either rod or shell (one of them)");
      const int n = shell_node(p, out.shell_nodes, p.integer("node"));
      model.forces.push_back(std::make_shared<PointLoad>(n, history(p, "force")));
      continue;
    }
    const int r = p.has("rod") ? rod_index(p) : 0;
    if (r >= num_rods) p.fail("rod", "(absent)", "a rod or shell index (the scene has no rods)");
    const int n =
        out.rod_nodes[r][resolve_index(p, "node", p.integer("node"), rod_size(r), "node")];
    model.forces.push_back(std::make_shared<PointLoad>(n, history(p, "force")));
  }
  add_surface_loads(forces, out.shell_nodes, shells, model);
  for (const io::SceneNode& p : forces.list("point_moments")) {
    const int r = rod_index(p);
    const int e =
        out.rod_edges[r][resolve_index(p, "edge", p.integer("edge"), rod_edge_count(r), "edge")];
    model.forces.push_back(std::make_shared<PointMoment>(e, history(p, "moment")));
  }
  for (const io::SceneNode& p : forces.list("follower_loads")) {
    const int r = rod_index(p);
    const int e =
        out.rod_edges[r][resolve_index(p, "edge", p.integer("edge"), rod_edge_count(r), "edge")];
    const double magnitude = p.real("force");
    model.forces.push_back(
        std::make_shared<FollowerLoad>(e, [magnitude](double) { return magnitude; }));
  }

  // contact: each rod's radius, or sqrt(A / pi) for a general section
  std::vector<double> rod_radius;
  for (const RodMaterial& m : net.materials)
    rod_radius.push_back(m.radius ? *m.radius : std::sqrt(*m.area / std::numbers::pi));
  add_contact(root, out, rod_radius, shells);

  // media forces, actuation schedules, robot observables (media_scene.cpp)
  load_media_forces(forces, scene_rods, model);
  load_shell_forces(root, scene_rods, shells, out.shell_nodes, model);
  load_actuation(root, scene_rods, scene.base_directory(), model);
  out.observables = load_observables(root, scene_rods);

  // integrator and output
  const io::SceneNode integ = root.map("integrator");
  const std::string type = integ.text("type");
  out.solve = type == "implicit_euler"      ? Solve::implicit_euler
              : type == "implicit_midpoint" ? Solve::implicit_midpoint
                                            : Solve::static_equilibrium;
  out.dt = integ.real("dt");
  const NewtonOptions newton = read_newton_options(integ.map("newton"), out.solve);
  if (out.solve == Solve::static_equilibrium) {
    out.statics.initial_load_steps = integ.integer("static_load_steps");
    out.statics.max_load_steps = integ.integer("static_max_load_steps");
    if (out.statics.max_load_steps < out.statics.initial_load_steps)
      integ.fail("static_max_load_steps",
                 fmt::format(">= static_load_steps ({})", out.statics.initial_load_steps));
    out.statics.newton = newton;
    if (integ.has("initial_guess"))
      integ.fail("initial_guess", "only for time stepping (implicit_euler, implicit_midpoint)");
    out.statics.validate("integrator.");
    if (!out.u_initial.isZero())
      root.fail("initial_conditions", "non-zero velocities or twist rates",
                "no initial velocities with integrator.type static (an equilibrium has none)");
  } else {
    out.dynamics.scheme =
        out.solve == Solve::implicit_euler ? Scheme::implicit_euler : Scheme::implicit_midpoint;
    out.dynamics.dt = out.dt;
    out.dynamics.max_dt_halvings = integ.integer("max_dt_halvings");
    out.dynamics.initial_guess =
        parse_initial_guess(integ.text("initial_guess"), "integrator.initial_guess");
    // the penalty's stiff rise evaluated at the midpoint configuration is not energy-stable: an
    // impact can leave a body with more energy than it had (docs/physics/contact.md); contact steps
    // with implicit Euler
    if (out.solve == Solve::implicit_midpoint && root.has("contact"))
      integ.fail("type", "implicit_midpoint",
                 "implicit_euler or static with contact (the midpoint rule gains energy on contact "
                 "impacts; "
                 "docs/physics/contact.md)");
    if (out.solve == Solve::implicit_midpoint)
      out.dynamics.midpoint_alpha = integ.real("midpoint_alpha");
    else if (integ.has("midpoint_alpha"))
      integ.fail("midpoint_alpha", "only with type implicit_midpoint");
    out.dynamics.newton = newton;
    out.dynamics.validate("integrator.");
    if (!(out.duration > 0.0)) root.fail("duration", "a duration > 0 for a dynamic simulation");
  }
  // the step count must be representable (and a run of more steps is a mistake, not a plan)
  constexpr double kMaxSteps = 1e9;
  if (out.duration / out.dt > kMaxSteps)
    root.fail("duration",
              fmt::format("at most {:g} steps of integrator.dt = {:g} s", kMaxSteps, out.dt));
  const io::SceneNode output = root.map("output");
  if (output.has("interval"))
    out.output_interval = output.real("interval");
  else
    out.output_every_steps = output.integer("every_steps");

  scene.check_unused();
  out.resolved = scene.resolved();
  return out;
}

RodScene load_rod_scene_file(const std::filesystem::path& file,
                             const std::vector<std::string>& overrides) {
  io::Scene scene = io::Scene::from_file(file, rod_schema(), overrides);
  return load_rod_scene(scene);
}

RodScene load_rod_scene_text(const std::string& text, const std::vector<std::string>& overrides,
                             const std::string& origin) {
  io::Scene scene = io::Scene::from_text(text, rod_schema(), overrides, origin);
  return load_rod_scene(scene);
}

}  // namespace tendril::sim
