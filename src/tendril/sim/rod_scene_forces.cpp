// The `forces` of a rod scene: gravity, point loads on rod or shell nodes, surface loads on shells,
// point moments and follower loads on rod edges (rod_scene_loader.hpp).
#include <memory>

#include <fmt/format.h>

#include "tendril/core/number_text.hpp"
#include "tendril/forces/follower_load.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/forces/point_moment.hpp"
#include "tendril/sim/rod_scene_loader.hpp"

namespace tendril::sim {

ForceHistory history(const io::SceneNode& p, const char* key, bool rate) {
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

namespace {

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

void RodSceneLoader::add_forces(const io::SceneNode& forces) {
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
}

}  // namespace tendril::sim
