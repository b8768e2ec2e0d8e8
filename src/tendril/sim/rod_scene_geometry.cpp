// A rod's geometry (straight, helix, circle, explicit nodes and edges, MAT-DiSMech file) and
// material as read from its `rods` entry (rod_scene_loader.hpp).
#include <algorithm>
#include <cstddef>
#include <filesystem>

#include <fmt/format.h>

#include "tendril/core/number_text.hpp"
#include "tendril/io/mat_dismech_geometry.hpp"
#include "tendril/sim/rod_scene_loader.hpp"

namespace tendril::sim {
namespace {

/// Unit vector of a Vec3 key; a zero vector is an error.
Vec3 unit_vector(const io::SceneNode& at, const char* key) {
  const Vec3 v = at.vec3(key);
  if (!(v.norm() > 0.0)) at.fail(key, "a non-zero vector");
  return v.normalized();
}

/// A straight rod from `start` to `end`, or along `direction` for `length`.
io::Polyline read_straight(const io::SceneNode& g, bool clamped_at_start) {
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
  return io::straight_rod(start, direction, length, n - 1, clamped_at_start);
}

/// Explicit `nodes` and `edges` (default: a chain through the nodes in order).
io::Polyline read_explicit(const io::SceneNode& g) {
  io::Polyline line;
  for (const auto& row : g.real_table("nodes", 3)) line.nodes.emplace_back(row[0], row[1], row[2]);
  const int n = static_cast<int>(line.nodes.size());
  if (n < 2) g.fail("nodes", "at least two nodes");
  if (!g.has("edges")) {
    line.edges = io::chain_edges(n, false);
    return line;
  }
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
  return line;
}

/// The rod edges of a MAT-DiSMech geometry `file` (relative to `base`) with their nodes only;
/// `file_triangles` is set to its triangles, which a shell naming the same file takes.
io::Polyline read_geometry_file(const io::SceneNode& g, const std::filesystem::path& base,
                                std::size_t& file_triangles) {
  const std::string name = g.text("file");
  const std::filesystem::path path =
      std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : base / name;
  io::MatDismechGeometry file = io::read_mat_dismech_geometry(path, g.child_path("file"));
  if (file.edges.empty())
    g.fail("file", name + " (no *Edges)", "a geometry with at least one rod edge");
  io::Polyline line;
  line.nodes = io::compact_nodes(file.nodes, file.edges);
  line.edges = std::move(file.edges);
  file_triangles = file.triangles.size();
  return line;
}

/// Zero-length edges make frames undefined: an edge shorter than 1e-12 of the rod's size is an
/// error.
void check_edge_lengths(const io::SceneNode& g, const io::Polyline& line) {
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
}

}  // namespace

io::Polyline read_geometry(const io::SceneNode& g, bool clamped_at_start,
                           const std::filesystem::path& base, std::size_t& file_triangles) {
  file_triangles = 0;
  const std::string type = g.text("type");
  io::Polyline line;
  if (type == "straight") {
    line = read_straight(g, clamped_at_start);
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
    line = read_explicit(g);
  } else {
    line = read_geometry_file(g, base, file_triangles);
  }
  check_edge_lengths(g, line);
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

}  // namespace tendril::sim
