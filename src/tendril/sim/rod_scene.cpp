#include "tendril/sim/rod_scene.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include <fmt/format.h>

#include "tendril/core/disjoint_sets.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/sim/contact_scene.hpp"
#include "tendril/sim/rod_scene_loader.hpp"

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

RodSceneLoader::RodSceneLoader(io::Scene& parsed, RodScene& result)
    : scene(parsed),
      root(parsed.root()),
      out(result),
      model(result.model),
      scene_rods{rods, result.rod_nodes, result.rod_edges, net.materials} {}

int RodSceneLoader::rod_index(const io::SceneNode& at) const {
  const int r = at.integer("rod");
  if (r >= num_rods)
    at.fail("rod", std::to_string(r),
            fmt::format("a rod index in 0..{} (the scene has {} rods)", num_rods - 1, num_rods));
  return r;
}

int RodSceneLoader::rod_size(int r) const {
  return static_cast<int>(rod_inputs[r].line.nodes.size());
}

int RodSceneLoader::rod_edge_count(int r) const {
  return static_cast<int>(rod_inputs[r].line.edges.size());
}

void RodSceneLoader::read_rods() {
  rods = root.list("rods");
  shell_entries = root.list("shells");
  if (rods.empty() && shell_entries.empty())
    root.fail("rods", "a list of at least one rod (or `shells`)");
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
  num_rods = static_cast<int>(rods.size());
  shells = read_scene_shells(shell_entries, scene.base_directory());
  check_shared_geometry_files(rods, rod_inputs, shell_entries, shells);
}

void RodSceneLoader::join_rods() {
  double scale = 0.0;
  for (const Vec3& x : net.nodes) scale = std::max(scale, (x - net.nodes.front()).norm());
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
}

void RodSceneLoader::read_stiffness_overrides() {
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
}

void RodSceneLoader::build_model() {
  if (num_rods > 0) out.model = build_rod_model(net);
  out.q_initial = rest_configuration(model);
  out.u_initial = VecX::Zero(out.q_initial.size());
  out.shell_nodes =
      add_scene_shells(shell_entries, shells, scene_rods, model, out.q_initial, out.u_initial);
}

namespace {

/// Sets the natural curvature `kappa` [1/m] and twist `tau` [rad/m] of spring `s` (either may be
/// absent: kept); `at` names the scene entry in errors.
void set_natural_shape(BendTwistSpring& s, const std::optional<Vec2>& kappa,
                       const std::optional<double>& tau, const io::SceneNode& at) {
  const double l = s.voronoi_length;
  if (kappa) {
    // the discrete curvature of a circular arc of curvature |kappa|:
    // |kappa b| = 2 tan(|kappa| l / 2)
    const double k = kappa->norm();
    if (k * l >= std::numbers::pi)
      at.fail("natural_curvature", fmt::format("{} 1/m", number_text(k)),
              fmt::format("|kappa| l < pi for Voronoi length l = {} m (refine the rod)",
                          number_text(l)));
    s.natural_curvature = k > 0.0 ? Vec2(*kappa / k * 2.0 * std::tan(0.5 * k * l)) : Vec2::Zero();
  }
  if (tau) s.natural_twist = *tau * l;
}

}  // namespace

void RodSceneLoader::set_natural_shapes() {
  std::vector<int> edge_rod;
  for (int r = 0; r < num_rods; ++r)
    for (int e = 0; e < rod_edge_count(r); ++e) edge_rod.push_back(r);
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
}

void RodSceneLoader::add_contact_terms() {
  std::vector<double> rod_radius;
  for (const RodMaterial& m : net.materials)
    rod_radius.push_back(m.radius ? *m.radius : std::sqrt(*m.area / std::numbers::pi));
  add_contact(root, out, rod_radius, shells);
}

void RodSceneLoader::add_media_and_actuation(const io::SceneNode& forces) {
  load_media_forces(forces, scene_rods, model);
  load_shell_forces(root, scene_rods, shells, out.shell_nodes, model);
  load_actuation(root, scene_rods, scene.base_directory(), model);
  out.observables = load_observables(root, scene_rods);
}

RodScene load_rod_scene(io::Scene& scene) {
  expand_flagellated_robot(scene);
  RodScene out;
  RodSceneLoader loader(scene, out);
  out.description = scene.root().text("description");
  loader.read_time_span();
  loader.read_rods();
  loader.join_rods();
  loader.read_stiffness_overrides();
  loader.build_model();
  loader.set_natural_shapes();
  loader.add_clamps();
  loader.add_boundary_conditions();
  loader.read_initial_conditions();
  const io::SceneNode forces = scene.root().map("forces");
  loader.add_forces(forces);
  loader.add_contact_terms();
  loader.add_media_and_actuation(forces);
  loader.read_integrator();
  loader.read_output();
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
