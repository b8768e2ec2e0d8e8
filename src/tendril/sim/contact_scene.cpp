#include "tendril/sim/contact_scene.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "tendril/contact/distance/segment_triangle_crossing.hpp"
#include "tendril/contact/friction/obstacle_friction.hpp"
#include "tendril/contact/friction/point_triangle_friction.hpp"
#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/obstacle_contact.hpp"
#include "tendril/contact/point_triangle_contact.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/core/error.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/io/schema_keys.hpp"

namespace tendril::sim {
namespace {

using io::KeySpec;
using io::KeyType;
using namespace io::keys;
/// A Coulomb coefficient mu >= 0 (default 0: frictionless).
KeySpec friction(std::string path, std::string doc) {
  return real(std::move(path), "0", "-", std::move(doc), 0.0);
}

/// Refuses a start in which two bodies intersect: a pair of `term` (neighbours excluded) whose
/// surfaces overlap by more than min(delta, (r_a + r_b) / 2) at q. Kind: the pair type (distance);
/// name(dofs): the two elements of a pair's stencil in words.
template <class Kind, class Term, class Name>
void refuse_intersections(const io::SceneNode& at, const Term& term, const VecX& q, Name name) {
  std::vector<contact::EdgePair> pairs;
  term.pairs().find(q, pairs);
  const double delta = term.parameters().distance_tolerance;
  for (const contact::EdgePair& pair : pairs) {
    const double distance = Kind::distance(term.pairs().stencil(q, pair)),
                 sum = term.pairs().radius_sum(pair);
    if (distance - sum < -std::min(delta, 0.5 * sum))
      at.fail("self",
              fmt::format("{} at t = 0 (centre lines {:g} m apart, surfaces overlap by {:g} m)",
                          name(term.pairs().stencil_dofs(pair)), distance, sum - distance),
              "bodies that start apart (an overlap below min(delta, (r_a + r_b) / 2))");
  }
}

/// Refuses a start in which a contact edge passes through the interior of a shell triangle it
/// shares no node with (a rod through a sheet between its nodes, which the pair checks above miss);
/// node(n) names node n.
template <class Name>
void refuse_edges_through_triangles(const io::SceneNode& at, const contact::ContactEdges& edges,
                                    const contact::ContactTriangles& triangles, const VecX& q,
                                    Name node) {
  std::vector<contact::EdgePair> pairs;
  contact::BroadPhase().find_edge_triangle_pairs(q, edges.nodes, triangles.nodes, pairs);
  for (const contact::EdgePair& pair : pairs) {
    const auto& e = edges.nodes[pair.a];
    const auto& t = triangles.nodes[pair.b];
    const auto x = [&](int n) { return Vec3(q.segment<3>(3 * n)); };
    if (const auto p =
            contact::segment_triangle_crossing(x(e[0]), x(e[1]), x(t[0]), x(t[1]), x(t[2])))
      at.fail(
          "self",
          fmt::format("the edge {}-{} passes through the triangle {}, {}, {} (surfaces overlap by "
                      "{:g} m) at ({:g}, {:g}, {:g}) m",
                      node(e[0]), node(e[1]), node(t[0]), node(t[1]), node(t[2]),
                      edges.radius[pair.a] + triangles.radius[pair.b], p->x(), p->y(), p->z()),
          "bodies that start apart (an overlap below min(delta, (r_a + r_b) / 2))");
  }
}

/// Refuses an obstacle that starts inside a body: a node whose surface it overlaps (gap < 0), or an
/// edge (its nodes outside, e.g. an edge across a small obstacle) whose surface it overlaps by more
/// than min(delta, r_e / 2), the exact distance of the segment (min phi along it). `where`: the
/// obstacle's key; node(n) names node n.
template <class Name>
void refuse_obstacle_inside(const io::SceneNode& root, const std::string& where,
                            const contact::RigidObstacle& obstacle,
                            const contact::ContactNodes& nodes, const contact::ContactEdges& edges,
                            const VecX& q, double delta, Name node) {
  const auto x = [&](int n) { return Vec3(q.segment<3>(3 * n)); };
  for (std::size_t k = 0; k < nodes.nodes.size(); ++k) {
    const Vec3 p = x(nodes.nodes[k]);
    const double gap = obstacle.distance(p, 0.0).distance - nodes.radius[k];
    if (gap < 0.0)
      root.fail(where,
                fmt::format("{} at ({:g}, {:g}, {:g}) m is inside it (gap {:g} m)",
                            node(nodes.nodes[k]), p.x(), p.y(), p.z(), gap),
                "an obstacle that starts outside every rod's and shell's surface (gap >= 0)");
  }
  // a segment first reaches a half-space at one of its ends: the nodes above cover it
  if (!std::isfinite(obstacle.inradius())) return;
  for (std::size_t e = 0; e < edges.nodes.size(); ++e) {
    const Vec3 a0 = x(edges.nodes[e][0]), a1 = x(edges.nodes[e][1]);
    const double r = edges.radius[e], allowed = std::min(delta, 0.5 * r);
    // a lower bound of the edge's distance by its ends' (phi is 1-Lipschitz): far edges need no
    // search
    const double bound = 0.5 * (obstacle.distance(a0, 0.0).distance +
                                obstacle.distance(a1, 0.0).distance - (a1 - a0).norm());
    if (r - bound <= allowed) continue;
    const double centre = obstacle.segment_distance(a0, a1, 0.0);
    if (r - centre > allowed)
      root.fail(where,
                fmt::format("the edge {}-{} overlaps it by {:g} m (its centre line {:g} m from "
                            "the surface, negative inside)",
                            node(edges.nodes[e][0]), node(edges.nodes[e][1]), r - centre, centre),
                "an obstacle that no edge's surface overlaps by more than min(delta, r / 2)");
  }
}

/// An on/off switch, on by default (a map that is present is enabled unless it says otherwise).
KeySpec enabled(std::string path, std::string doc) {
  return flag(std::move(path), "true", std::move(doc));
}

/// The rigid obstacle of the scene entry `o` (contact.obstacles[]), moving along its path if it has
/// one.
std::shared_ptr<contact::RigidObstacle> read_obstacle(const io::SceneNode& o) {
  const std::string shape = o.text("shape");
  std::shared_ptr<contact::RigidObstacle> obstacle;
  if (shape == "plane") {
    const Vec3 normal = o.vec3("normal");
    if (!(normal.norm() > 0.0)) o.fail("normal", "a non-zero vector");
    obstacle = std::make_shared<contact::HalfSpace>(o.vec3("point"), normal);
  } else if (shape == "sphere") {
    obstacle = std::make_shared<contact::Sphere>(o.vec3("center"), o.real("radius"));
  } else if (shape == "capsule") {
    const Vec3 p0 = o.vec3("p0"), p1 = o.vec3("p1");
    obstacle = std::make_shared<contact::Capsule>(p0, p1, o.real("radius"));
  } else {
    const Vec3 rotation = o.vec3("rotation");
    const double angle = rotation.norm();
    const Mat3 r = angle > 0.0 ? Eigen::AngleAxisd(angle, rotation / angle).toRotationMatrix()
                               : Mat3::Identity();
    const Vec3 half = o.vec3("half_extents");
    if (!(half.minCoeff() > 0.0)) o.fail("half_extents", "half extents > 0 [m]");
    obstacle = std::make_shared<contact::Box>(o.vec3("center"), half, r);
  }
  if (o.has("path")) {
    std::vector<double> times;
    std::vector<Vec3> offsets;
    for (const auto& row : o.real_table("path", 4)) {
      if (!times.empty() && !(row[0] > times.back()))
        o.fail(fmt::format("path[{}][0]", times.size()), fmt::format("{:g}", row[0]),
               "times in increasing order");
      times.push_back(row[0]);
      offsets.emplace_back(row[1], row[2], row[3]);
    }
    obstacle->set_path(piecewise_linear(std::move(times), std::move(offsets)));
  }
  return obstacle;
}

}  // namespace

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kContactExample = R"yaml(duration: 0.2
rods:
  - geometry: {type: straight, start: [0, 0, 0.02], direction: [1, 0, 0], length: 0.1, num_nodes: 21}
    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: 0.001}
forces:
  gravity: [0, 0, -9.81]
contact:
  stiffness: 20
  distance_tolerance: 1.0e-3
  ground: {friction: 0.3}
  obstacles:
    - {shape: sphere, center: [0.05, 0, 0], radius: 0.01, friction: 0.3}
integrator: {type: implicit_euler, dt: 1.0e-3}
)yaml";

const io::SchemaTable& contact_scene_schema() {
  static const io::SchemaTable table{
      "Contact",
      "Ground, rigid obstacles and self-contact of rods and shells with smooth Coulomb friction "
      "(IMC, "
      "mat_dismech sec. 4 and 5.2; docs/physics/contact.md). Contact acts on the surfaces: a rod "
      "node's "
      "(edge's) contact radius is its rod's radius (sqrt(A / pi) for a general section), a shell "
      "node's, edge's "
      "or triangle's is half the shell's thickness. The penalty is k_c b(g) with b of eq. 21 and "
      "the gap g; it "
      "is non-zero for g < delta.",
      {
          node("contact", KeyType::Map, "Contact and friction (absent: no contact)."),
          positive("contact.stiffness", "20", "N/m",
                   "Contact stiffness k_c: deep contact is a spring of stiffness 2 k_c per node "
                   "(ground, obstacles) "
                   "or edge pair (self). The rod drop of mat_dismech Fig. 7 uses 20."),
          positive("contact.distance_tolerance", "1e-3", "m",
                   "delta: width of the smooth zone (K1 = 15 / delta); the penalty starts at gap "
                   "delta and is "
                   "(-g)^2 k_c below -delta."),
          positive("contact.slip_tolerance", "1e-3", "m/s",
                   "nu: slip speed above which friction is Coulomb's mu |F_n| (K2 = 15 / nu); "
                   "below it friction "
                   "is a stiff viscous law."),
          indices("contact.rods",
                  "Rods that take part in contact (ground, obstacles and self), by index. Default: "
                  "all rods."),
          indices("contact.shells",
                  "Shells that take part in contact (ground, obstacles and self), by index. "
                  "Default: all shells."),
          node("contact.ground", KeyType::Map,
               "A ground plane (a half-space) the rods and shells rest on."),
          enabled("contact.ground.enabled", "Ground contact on or off."),
          vec3("contact.ground.point", "[0, 0, 0]", "m", "A point of the ground plane."),
          vec3("contact.ground.normal", "[0, 0, 1]", "-",
               "Outward normal of the ground (normalised)."),
          friction("contact.ground.friction",
                   "Coulomb coefficient mu between rods (shell nodes) and ground."),
          node("contact.self", KeyType::Map,
               "Self-contact (IMC) among the rods and shells in contact: pairs of edges (rod and "
               "shell edges) that "
               "share no node, and pairs of a node (rod or shell) and a shell triangle not "
               "containing it; together "
               "rod-rod, rod-shell and shell-shell contact (shell self-contact included). "
               "Neighbouring pairs "
               "already within delta of touching at the start never interact."),
          enabled("contact.self.enabled", "Self-contact on or off."),
          friction(
              "contact.self.friction",
              "Coulomb coefficient mu of every self-contact pair (edge-edge and node-triangle)."),
          {.path = "contact.self.collision_check",
           .type = KeyType::Bool,
           .default_value = "true",
           .unit = "",
           .doc = "Continuous collision check of every Newton step: no edge passes through another "
                  "and no node "
                  "through a triangle however fast or thin the bodies (docs/physics/contact.md, "
                  "\"No tunnelling\"). "
                  "Off only to compare."},
          node("contact.obstacles", KeyType::List,
               "Rigid obstacles, fixed or moving along a path."),
          {.path = "contact.obstacles[].shape",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc = "plane (point, normal), sphere (center, radius), capsule (p0, p1, radius; a "
                  "cylinder with round "
                  "caps) or box (center, half_extents, rotation).",
           .choices = {"plane", "sphere", "capsule", "box"}},
          vec3("contact.obstacles[].point", kReq, "m", "plane: a point of the plane."),
          vec3("contact.obstacles[].normal", kReq, "-", "plane: outward normal."),
          vec3("contact.obstacles[].center", kReq, "m", "sphere, box: centre."),
          positive("contact.obstacles[].radius", kReq, "m", "sphere, capsule: radius."),
          vec3("contact.obstacles[].p0", kReq, "m", "capsule: first end of the axis."),
          vec3("contact.obstacles[].p1", kReq, "m", "capsule: second end of the axis."),
          vec3("contact.obstacles[].half_extents", kReq, "m",
               "box: half side lengths along its axes."),
          vec3("contact.obstacles[].rotation", "[0, 0, 0]", "rad",
               "box: orientation as a rotation vector (axis times angle) from the world axes."),
          friction("contact.obstacles[].friction",
                   "Coulomb coefficient mu between rods (shell nodes) and this obstacle."),
          {.path = "contact.obstacles[].path",
           .type = KeyType::RealTable,
           .default_value = kOpt,
           .unit = "s, m",
           .doc = "Prescribed translation: rows [t, dx, dy, dz], piecewise linear in t, held "
                  "constant outside; "
                  "absent: fixed."},
      },
      kContactExample};
  return table;
}

namespace {

/// The bodies in contact (`key`: rods or shells, `count` of them): the listed ones, default all.
std::vector<int> selected(const io::SceneNode& c, const std::string& key, int count) {
  std::vector<int> out_list;
  if (!c.has(key)) {
    for (int k = 0; k < count; ++k) out_list.push_back(k);
    return out_list;
  }
  const auto list = c.integers(key);
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k] < 0 || list[k] >= count)
      c.fail(fmt::format("{}[{}]", key, k), std::to_string(list[k]),
             count > 0
                 ? fmt::format("a {} index in 0..{}", key == "rods" ? "rod" : "shell", count - 1)
                 : fmt::format("no index (the scene has no {})", key));
    out_list.push_back(list[k]);
  }
  return out_list;
}

/// The nodes, edges and triangles of the bodies in contact, with their contact radii [m].
struct ContactBodies {
  contact::ContactNodes nodes;
  contact::ContactEdges edges;
  contact::ContactTriangles triangles;
};

/// The bodies in contact (`contact`: `c`) with contact radii (a joint node takes the largest): a
/// rod's radius, half a shell's thickness.
ContactBodies contact_bodies(const io::SceneNode& c, const RodScene& out,
                             const std::vector<double>& rod_radius,
                             const std::vector<SceneShell>& shells) {
  const Model& model = out.model;
  std::vector<double> node_radius(model.dofs.num_nodes, -1.0);
  contact::ContactEdges edges;
  for (int r : selected(c, "rods", static_cast<int>(out.rod_nodes.size()))) {
    for (int n : out.rod_nodes[r]) node_radius[n] = std::max(node_radius[n], rod_radius[r]);
    for (int e : out.rod_edges[r]) {
      edges.nodes.push_back(model.rods.edges[e]);
      edges.radius.push_back(rod_radius[r]);
    }
  }
  contact::ContactTriangles triangles;
  for (int s : selected(c, "shells", static_cast<int>(shells.size()))) {
    const double radius = 0.5 * shells[s].input.material.thickness;
    for (int n : out.shell_nodes[s]) node_radius[n] = std::max(node_radius[n], radius);
    std::vector<std::array<int, 2>> shell_edges;
    for (const auto& t : shells[s].input.triangles) {
      triangles.nodes.push_back(t);
      triangles.radius.push_back(radius);
      for (int k = 0; k < 3; ++k)
        shell_edges.push_back({std::min(t[k], t[(k + 1) % 3]), std::max(t[k], t[(k + 1) % 3])});
    }
    std::sort(shell_edges.begin(), shell_edges.end());
    shell_edges.erase(std::unique(shell_edges.begin(), shell_edges.end()), shell_edges.end());
    for (const auto& e : shell_edges) {
      edges.nodes.push_back(e);
      edges.radius.push_back(radius);
    }
  }
  contact::ContactNodes nodes;
  for (int n = 0; n < model.dofs.num_nodes; ++n)
    if (node_radius[n] >= 0.0) {
      nodes.nodes.push_back(n);
      nodes.radius.push_back(node_radius[n]);
    }
  return {std::move(nodes), std::move(edges), std::move(triangles)};
}

/// An on/off contact section (ground or self): whether it is enabled; friction when it is not is an
/// error.
bool check_enabled(const io::SceneNode& at) {
  const bool enabled = at.boolean("enabled");
  const double mu = at.real("friction");
  if (!enabled && mu > 0.0)
    at.fail("friction", fmt::format("{:g}", mu),
            "0 when this contact is disabled (friction needs contact)");
  return enabled;
}

}  // namespace

void add_contact(const io::SceneNode& root, RodScene& out, const std::vector<double>& rod_radius,
                 const std::vector<SceneShell>& shells) {
  if (!root.has("contact")) return;
  const io::SceneNode c = root.map("contact");
  contact::ContactParameters params;
  params.stiffness = c.real("stiffness");
  params.distance_tolerance = c.real("distance_tolerance");
  params.slip_tolerance = c.real("slip_tolerance");
  params.validate("contact.");
  Model& model = out.model;
  const ContactBodies bodies = contact_bodies(c, out, rod_radius, shells);
  const contact::ContactNodes& nodes = bodies.nodes;
  const contact::ContactEdges& edges = bodies.edges;
  const contact::ContactTriangles& triangles = bodies.triangles;

  const auto node_name = [&](int n) { return scene_node_name(out, n); };
  // an obstacle: contact, friction if mu > 0, and no body inside it at t = 0
  const auto add_obstacle = [&](const io::SceneNode& at,
                                std::shared_ptr<contact::RigidObstacle> obstacle, double mu) {
    refuse_obstacle_inside(root, at.path().empty() ? "contact" : at.path(), *obstacle, nodes, edges,
                           out.q_initial, params.distance_tolerance, node_name);
    contact::ContactParameters p = params;
    p.friction = mu;
    model.energies.push_back(std::make_shared<contact::ObstacleContact>(obstacle, nodes, p, edges));
    if (mu > 0.0)
      model.forces.push_back(
          std::make_shared<contact::ObstacleFriction>(obstacle, nodes, p, edges));
  };
  bool any = false;

  if (c.has("ground")) {
    const io::SceneNode g = c.map("ground");
    if (check_enabled(g)) {
      const Vec3 normal = g.vec3("normal");
      if (!(normal.norm() > 0.0)) g.fail("normal", "a non-zero vector");
      add_obstacle(g, std::make_shared<contact::HalfSpace>(g.vec3("point"), normal),
                   g.real("friction"));
      any = true;
    }
  }

  const std::vector<io::SceneNode> obstacles = c.list("obstacles");
  for (const io::SceneNode& o : obstacles) {
    const std::shared_ptr<contact::RigidObstacle> obstacle = read_obstacle(o);
    add_obstacle(o, obstacle, o.real("friction"));
    any = true;
  }

  if (c.has("self")) {
    const io::SceneNode s = c.map("self");
    if (check_enabled(s)) {
      contact::ContactParameters p = params;
      p.friction = s.real("friction");
      const bool check = s.boolean("collision_check");
      const auto node = [&](const std::array<int, 12>& dofs, int k) {
        return scene_node_name(out, dofs[3 * k] / 3);
      };
      auto self = std::make_shared<contact::SelfContact>(edges, p, out.q_initial, check);
      refuse_intersections<contact::EdgeEdgePairs>(
          c, *self, out.q_initial, [&](const std::array<int, 12>& dofs) {
            return fmt::format("the edges {}-{} and {}-{} intersect", node(dofs, 0), node(dofs, 1),
                               node(dofs, 2), node(dofs, 3));
          });
      model.energies.push_back(self);
      if (!triangles.nodes.empty()) {
        auto point_triangle = std::make_shared<contact::PointTriangleContact>(
            nodes, triangles, edges.nodes, p, out.q_initial, check);
        refuse_intersections<contact::PointTrianglePairs>(
            c, *point_triangle, out.q_initial, [&](const std::array<int, 12>& dofs) {
              return fmt::format("{} and the triangle {}, {}, {} intersect", node(dofs, 0),
                                 node(dofs, 1), node(dofs, 2), node(dofs, 3));
            });
        refuse_edges_through_triangles(c, edges, triangles, out.q_initial, node_name);
        model.energies.push_back(point_triangle);
        if (p.friction > 0.0)
          model.forces.push_back(std::make_shared<contact::PointTriangleFriction>(
              nodes, triangles, edges.nodes, p, out.q_initial));
      }
      if (p.friction > 0.0)
        model.forces.push_back(std::make_shared<contact::SelfFriction>(edges, p, out.q_initial));
      any = true;
    }
  }
  if (!any) root.fail("contact", "(nothing enabled)", "a ground, an obstacle or self-contact");
}

}  // namespace tendril::sim
