#include "tendril/sim/media_scene.hpp"

#include <memory>
#include <numeric>

#include <fmt/format.h>

#include "tendril/actuation/rest_shape_schedule.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/head_drag.hpp"
#include "tendril/forces/rft.hpp"
#include "tendril/forces/viscous_drag.hpp"

namespace tendril::sim {
namespace {

int rod_index(const io::SceneNode& at, const char* key, int num_rods, int value) {
  if (value < 0 || value >= num_rods)
    at.fail(key, std::to_string(value),
            fmt::format("a rod index in 0..{} (the scene has {} rods)", num_rods - 1, num_rods));
  return value;
}

/// The model nodes named by `key` of `at` in rod r (all of the rod's nodes if absent).
std::vector<int> rod_nodes(const io::SceneNode& at, const char* key, const SceneRods& rods, int r) {
  const std::vector<int>& nodes = rods.rod_nodes[r];
  if (!at.has(key)) return nodes;
  std::vector<int> out;
  const auto given = at.integers(key);
  for (std::size_t k = 0; k < given.size(); ++k)
    out.push_back(nodes[resolve_index(at, fmt::format("{}[{}]", key, k), given[k],
                                      static_cast<int>(nodes.size()), "node")]);
  return out;
}

/// Arc length of every model node of rod r from its first node along its edges in order [m]
/// (#nodes, -1 off the rod).
std::vector<double> arc_length(const Model& model, const SceneRods& rods, int r) {
  std::vector<double> s(model.dofs.num_nodes, -1.0);
  s[rods.rod_nodes[r].front()] = 0.0;
  for (int e : rods.rod_edges[r]) {
    const auto [a, b] = model.rods.edges[e];
    if (s[a] >= 0.0 && s[b] < 0.0)
      s[b] = s[a] + model.rods.rest_length[e];
    else if (s[b] >= 0.0 && s[a] < 0.0)
      s[a] = s[b] + model.rods.rest_length[e];
  }
  return s;
}

}  // namespace

std::vector<int> springs_of_rod_at(const Model& model, const SceneRods& rods, int rod, int node) {
  const std::vector<int>& edges = rods.rod_edges[rod];
  auto in_rod = [&](int e) { return std::find(edges.begin(), edges.end(), e) != edges.end(); };
  std::vector<int> out;
  for (std::size_t k = 0; k < model.rods.springs.size(); ++k) {
    const BendTwistSpring& s = model.rods.springs[k];
    if (s.node == node && in_rod(s.edge_a) && in_rod(s.edge_b)) out.push_back(static_cast<int>(k));
  }
  return out;
}

void load_media_forces(const io::SceneNode& forces, const SceneRods& rods, Model& model) {
  const int num_rods = static_cast<int>(rods.rod_nodes.size());
  for (const io::SceneNode& v : forces.list("viscous_drag")) {
    std::vector<int> nodes;  // empty: every node
    if (v.has("rod"))
      nodes = rod_nodes(v, "nodes", rods, rod_index(v, "rod", num_rods, v.integer("rod")));
    else if (v.has("nodes"))
      v.fail("nodes", "absent unless rod is given (without rod the drag acts on every node)");
    model.forces.push_back(
        std::make_shared<ViscousDrag>(model, std::move(nodes), v.real("viscosity")));
  }

  for (const io::SceneNode& f : forces.list("rft")) {
    const auto rod_list = f.integers("rods");
    const bool given = f.has("eta_t") || f.has("eta_n");
    if (given == f.has("mu")) f.fail("mu", "either mu or both eta_t and eta_n");
    if (given && !(f.has("eta_t") && f.has("eta_n")))
      f.fail(f.has("eta_t") ? "eta_n" : "eta_t", "(absent)", "both eta_t and eta_n");
    if (given && (f.has("length") || f.has("radius")))
      f.fail(f.has("length") ? "length" : "radius", "absent when eta_t and eta_n are given");
    for (std::size_t k = 0; k < rod_list.size(); ++k) {
      const int r = rod_index(f, fmt::format("rods[{}]", k).c_str(), num_rods, rod_list[k]);
      RftCoefficients eta;
      if (given) {
        eta = {f.real("eta_t"), f.real("eta_n")};
      } else {
        double length = 0.0;
        for (int e : rods.rod_edges[r]) length += model.rods.rest_length[e];
        if (f.has("length")) length = f.real("length");
        const std::optional<double> material_radius = rods.materials[r].radius;
        if (!f.has("radius") && !material_radius)
          f.fail("radius", "(absent)", fmt::format("a radius r0: rod {} has a general section", r));
        const double radius = f.has("radius") ? f.real("radius") : *material_radius;
        try {
          eta = rft_coefficients_from_medium(f.real("mu"), length, radius);
        } catch (const InputError& e) {
          f.fail(e.key_path() == "length" && !f.has("length") ? fmt::format("rods[{}]", k)
                                                              : e.key_path(),
                 e.key_path() == "length" ? fmt::format("rod {} of length {:g} m", r, length)
                                          : e.value(),
                 e.allowed());
        }
      }
      model.forces.push_back(std::make_shared<ResistiveForce>(model, rods.rod_edges[r], eta));
    }
  }

  if (forces.has("head_drag")) {
    const io::SceneNode h = forces.map("head_drag");
    const int r = rod_index(h, "rod", num_rods, h.integer("rod"));
    const int node = rods.rod_nodes[r][resolve_index(
        h, "node", h.integer("node"), static_cast<int>(rods.rod_nodes[r].size()), "node")];
    const int edge = rods.rod_edges[r][resolve_index(
        h, "edge", h.integer("edge"), static_cast<int>(rods.rod_edges[r].size()), "edge")];
    const HeadDragParameters p{h.real("C1"), h.real("C2"), h.real("mu"), h.real("radius")};
    model.forces.push_back(std::make_shared<HeadDrag>(node, edge, p));
  }
}

void load_actuation(const io::SceneNode& root, const SceneRods& rods,
                    const std::filesystem::path& base, Model& model) {
  const int num_rods = static_cast<int>(rods.rod_nodes.size());
  for (const io::SceneNode& a : root.list("actuation")) {
    const std::string q = a.text("quantity");
    const RestQuantity quantity = q == "natural_curvature_1"   ? RestQuantity::natural_curvature_1
                                  : q == "natural_curvature_2" ? RestQuantity::natural_curvature_2
                                  : q == "natural_twist"       ? RestQuantity::natural_twist
                                                               : RestQuantity::rest_length;
    const int r = rod_index(a, "rod", num_rods, a.integer("rod"));
    const std::vector<double> s = arc_length(model, rods, r);

    // targets: springs at the nodes (exactly one of this rod per node), or edges
    std::vector<int> targets;
    std::vector<double> target_s;  // arc length of each target (spring node, edge midpoint) [m]
    std::vector<double> built;     // each target's value in the built model
    if (quantity == RestQuantity::rest_length) {
      if (a.has("nodes")) a.fail("nodes", "absent for rest_length (give edges)");
      const std::vector<int>& edges = rods.rod_edges[r];
      std::vector<int> local(edges.size());
      std::iota(local.begin(), local.end(), 0);
      if (a.has("edges")) {
        local.clear();
        const auto given = a.integers("edges");
        for (std::size_t k = 0; k < given.size(); ++k)
          local.push_back(resolve_index(a, fmt::format("edges[{}]", k), given[k],
                                        static_cast<int>(edges.size()), "edge"));
      }
      for (int l : local) {
        const int e = edges[l];
        targets.push_back(e);
        const auto [n0, n1] = model.rods.edges[e];
        target_s.push_back(0.5 * (s[n0] + s[n1]));
        built.push_back(model.rods.rest_length[e]);
      }
    } else {
      if (a.has("edges")) a.fail("edges", "absent for a curvature or twist (give nodes)");
      const std::vector<int>& nodes = rods.rod_nodes[r];
      if (a.has("nodes")) {
        const auto given = a.integers("nodes");
        for (std::size_t k = 0; k < given.size(); ++k) {
          const std::string key = fmt::format("nodes[{}]", k);
          const int n =
              nodes[resolve_index(a, key, given[k], static_cast<int>(nodes.size()), "node")];
          const std::vector<int> springs = springs_of_rod_at(model, rods, r, n);
          if (springs.size() != 1)
            a.fail(key, std::to_string(given[k]),
                   fmt::format("a node with exactly one bend-twist spring of rod {} (this node has "
                               "{}; rod ends have "
                               "none, branch nodes several)",
                               r, springs.size()));
          targets.push_back(springs[0]);
        }
      } else {
        for (int n : nodes) {
          const std::vector<int> springs = springs_of_rod_at(model, rods, r, n);
          if (springs.size() == 1) targets.push_back(springs[0]);
        }
        if (targets.empty())
          a.fail("rod", std::to_string(r), "a rod with at least one bend-twist spring");
      }
      for (int k : targets) {
        const BendTwistSpring& spring = model.rods.springs[k];
        target_s.push_back(s[spring.node]);
        built.push_back(quantity == RestQuantity::natural_curvature_1 ? spring.natural_curvature[0]
                        : quantity == RestQuantity::natural_curvature_2
                            ? spring.natural_curvature[1]
                            : spring.natural_twist);
      }
    }

    // schedules
    const io::SceneNode sc = a.map("schedule");
    const std::string type = sc.text("type");
    std::vector<Schedule> schedules;
    if (type == "rate") {
      const double rate = sc.real("rate");
      for (double b : built)
        schedules.push_back(constant_rate(sc.has("start") ? sc.real("start") : b, rate));
    } else if (type == "sinusoid") {
      const double amplitude = sc.real("amplitude"), frequency = sc.real("frequency"),
                   phase = sc.real("phase");
      const double k = sc.real("phase_per_length");
      for (std::size_t i = 0; i < targets.size(); ++i)
        schedules.push_back(sinusoid(sc.has("mean") ? sc.real("mean") : built[i], amplitude,
                                     frequency, phase - k * target_s[i]));
    } else if (type == "table") {
      std::vector<double> times, values;
      const auto rows = sc.real_table("table", 2);
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0 && !(rows[i][0] > rows[i - 1][0]))
          sc.fail(fmt::format("table[{}][0]", i), fmt::format("{:g}", rows[i][0]),
                  "times in strictly increasing order [s]");
        times.push_back(rows[i][0]);
        values.push_back(rows[i][1]);
      }
      schedules.push_back(table_schedule(std::move(times), std::move(values)));
    } else {
      const std::filesystem::path name = sc.text("file");
      std::vector<Schedule> columns =
          csv_schedules(name.is_absolute() ? name : base / name, sc.child_path("file"));
      if (columns.size() != 1 && columns.size() != targets.size())
        sc.fail("file", fmt::format("{} ({} value columns)", name.string(), columns.size()),
                fmt::format("a CSV with one value column or one per target ({})", targets.size()));
      schedules = std::move(columns);
    }
    model.actuators.push_back(std::make_shared<RestShapeSchedule>(
        model, quantity, std::move(targets), std::move(schedules)));
  }
}

std::optional<ObservableSpec> load_observables(const io::SceneNode& root, const SceneRods& rods) {
  if (!root.has("observables")) return std::nullopt;
  const io::SceneNode o = root.map("observables");
  const int r = rod_index(o, "rod", static_cast<int>(rods.rod_nodes.size()), o.integer("rod"));
  const int count = static_cast<int>(rods.rod_edges[r].size());
  ObservableSpec spec;
  spec.head_edge =
      rods.rod_edges[r][resolve_index(o, "head_edge", o.integer("head_edge"), count, "edge")];
  spec.tail_edge =
      rods.rod_edges[r][resolve_index(o, "tail_edge", o.integer("tail_edge"), count, "edge")];
  const Vec3 axis = o.vec3("axis");
  if (!(axis.norm() > 0.0)) o.fail("axis", "a non-zero vector");
  spec.axis = axis.normalized();
  if (o.has("steady_start")) spec.steady_start = o.real("steady_start");
  return spec;
}

}  // namespace tendril::sim
