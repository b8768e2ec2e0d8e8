#include "rod_run_topology.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <Eigen/Core>
#include <Eigen/Geometry>

#include "tendril/core/error.hpp"
#include "tendril/geometry/curvature_binormal.hpp"

namespace tendril::cli {

namespace {

Eigen::Vector3d point(const std::vector<double>& x, std::int64_t i) {
  return {x[static_cast<std::size_t>(3 * i)], x[static_cast<std::size_t>(3 * i + 1)],
          x[static_cast<std::size_t>(3 * i + 2)]};
}

/// The material radius [m] of each of the first `count` rods of run.json's `scene` (0 where the
/// scene has no such rod or radius). InputError naming `where` if `scene` is missing or a radius is
/// not a finite number >= 0 (a damaged run.json).
std::vector<double> rod_radii(const YAML::Node& meta, const std::string& where, std::size_t count) {
  // a missing key of a const node is an invalid node: only IsDefined() may be asked of it
  const auto is = [](const YAML::Node& n, YAML::NodeType::value type) {
    return n.IsDefined() && n.Type() == type;
  };
  const YAML::Node scene = meta["scene"];
  if (!is(scene, YAML::NodeType::Map))
    throw InputError(where + ": scene", scene.IsDefined() ? "(not a map)" : "(missing)",
                     "the scene as run (a map), which run.json of every tendril run holds");
  const YAML::Node rods = scene["rods"];
  std::vector<double> radii(count, 0.0);
  for (std::size_t r = 0; r < count && is(rods, YAML::NodeType::Sequence) && r < rods.size(); ++r) {
    const YAML::Node material =
        is(rods[r], YAML::NodeType::Map) ? rods[r]["material"] : YAML::Node();
    const YAML::Node radius = is(material, YAML::NodeType::Map) ? material["radius"] : YAML::Node();
    if (!radius.IsDefined() || radius.IsNull()) continue;
    const std::string key = fmt::format("{}: scene.rods[{}].material.radius", where, r);
    try {
      radii[r] = radius.as<double>();
    } catch (const YAML::Exception&) {
      radii[r] = std::nan("");
    }
    if (!(std::isfinite(radii[r]) && radii[r] >= 0.0))
      throw InputError(key, radius.IsScalar() ? radius.Scalar() : "(not a number)",
                       "a finite radius >= 0 [m]");
  }
  return radii;
}

}  // namespace

RodRunTopology RodRunTopology::from_run(const io::RunData& run) {
  const std::string where = (run.directory / "run.json").string();
  RodRunTopology t;
  const YAML::Node info = run.meta["info"];
  try {
    t.num_nodes = info["num_nodes"].as<std::size_t>();
    for (const YAML::Node& e : info["edges"])
      t.edges.emplace_back(e[0].as<std::int64_t>(), e[1].as<std::int64_t>());
    if (info["rod_nodes"])
      for (const YAML::Node& r : info["rod_nodes"])
        t.rod_nodes.push_back(r.as<std::vector<std::int64_t>>());
    if (info["triangles"])
      for (const YAML::Node& tri : info["triangles"])
        for (const YAML::Node& v : tri) t.triangles.push_back(v.as<std::int64_t>());
  } catch (const YAML::Exception& e) {
    throw InputError(where + ": info", fmt::format("(missing or mistyped: {})", e.what()),
                     "num_nodes, edges (E x 2), rod_nodes, optional triangles (T x 3)");
  }
  auto check_node = [&](std::int64_t i, const char* what) {
    if (i < 0 || static_cast<std::size_t>(i) >= t.num_nodes)
      throw InputError(where + ": info." + what, std::to_string(i),
                       fmt::format("a node index in [0, {})", t.num_nodes));
  };
  for (const auto& [a, b] : t.edges) check_node(a, "edges"), check_node(b, "edges");
  for (const auto& r : t.rod_nodes)
    for (std::int64_t i : r) check_node(i, "rod_nodes");
  for (std::int64_t i : t.triangles) check_node(i, "triangles");
  const io::NpyArray& x = run.array("positions");
  if (x.shape.size() != 3 || x.shape[1] != t.num_nodes || x.shape[2] != 3)
    throw InputError((run.directory / "positions.npy").string(),
                     fmt::format("shape ({})", fmt::join(x.shape, ", ")),
                     fmt::format("(frames, {}, 3)", t.num_nodes));

  // radius of each edge: the material radius of the rod whose chain holds it
  const std::vector<double> radii = rod_radii(run.meta, where, t.rod_nodes.size());
  std::map<std::pair<std::int64_t, std::int64_t>, double> radius_of;
  for (std::size_t r = 0; r < t.rod_nodes.size(); ++r) {
    const double value = radii[r];
    for (std::size_t k = 0; k + 1 < t.rod_nodes[r].size(); ++k) {
      const auto a = t.rod_nodes[r][k], b = t.rod_nodes[r][k + 1];
      radius_of[{std::min(a, b), std::max(a, b)}] = value;
    }
  }
  for (const auto& [a, b] : t.edges) {
    const auto it = radius_of.find({std::min(a, b), std::max(a, b)});
    t.edge_radius.push_back(it == radius_of.end() ? 0.0 : it->second);
  }
  return t;
}

std::vector<double> RodRunTopology::edge_lengths(const std::vector<double>& x) const {
  std::vector<double> length;
  length.reserve(edges.size());
  for (const auto& [a, b] : edges) length.push_back((point(x, b) - point(x, a)).norm());
  return length;
}

std::vector<double> RodRunTopology::node_curvature(const std::vector<double>& x) const {
  std::vector<double> kappa(num_nodes, 0.0);
  for (const auto& chain : rod_nodes)
    for (std::size_t k = 1; k + 1 < chain.size(); ++k) {
      const Eigen::Vector3d ea = point(x, chain[k]) - point(x, chain[k - 1]);
      const Eigen::Vector3d eb = point(x, chain[k + 1]) - point(x, chain[k]);
      const double la = ea.norm(), lb = eb.norm();
      const double kb = curvature_binormal(ea / la, eb / lb).norm();  // 2 tan(phi/2)
      kappa[static_cast<std::size_t>(chain[k])] = kb / (0.5 * (la + lb));
    }
  return kappa;
}

}  // namespace tendril::cli
