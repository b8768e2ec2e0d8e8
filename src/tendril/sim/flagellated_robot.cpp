// The flagellated robot of granular_flagella Fig. 3 as a scene generator: `flagellated_robot:
// {...}` is expanded into ordinary rod-scene keys (rods, joints, forces, actuation, observables),
// so the generated scene is validated, resolved and written to run.json like a hand-written one.
// Geometry and every choice the paper leaves open: docs/physics/flagellated_robot.md.
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "tendril/sim/media_scene.hpp"
#include "tendril/sim/rod_scene.hpp"

namespace tendril::sim {
namespace {

YAML::Node point(const Vec3& x) {
  YAML::Node n(YAML::NodeType::Sequence);
  n.SetStyle(YAML::EmitterStyle::Flow);
  for (int a = 0; a < 3; ++a) n.push_back(x[a]);
  return n;
}

YAML::Node pair(int a, int b) {
  YAML::Node n(YAML::NodeType::Sequence);
  n.push_back(a);
  n.push_back(b);
  return n;
}

}  // namespace

void expand_flagellated_robot(io::Scene& scene) {
  if (!scene.has_top_level("flagellated_robot")) return;
  const io::SceneNode p = scene.root().map("flagellated_robot");
  const int n = p.integer("tails");
  const double a = p.real("head_radius"), disc = p.real("disc_diameter"),
               tail = p.real("tail_length");
  const double shaft = p.real("shaft_length");
  const double edges_per_tail = tail / p.real("tail_edge_length");
  if (!(edges_per_tail < kMaxNodes))
    p.fail("tail_edge_length", fmt::format("{:g} edges per tail", edges_per_tail),
           fmt::format("at most {} edges per tail (tail_length / tail_edge_length)", kMaxNodes));
  const int tail_edges = std::max(1, static_cast<int>(std::lround(edges_per_tail)));
  const double E = p.real("E"), nu = p.real("nu"), r0 = p.real("tail_radius"),
               factor = p.real("rigid_factor");
  const double pi = std::numbers::pi;

  YAML::Node material;
  material["E"] = E;
  material["nu"] = nu;
  material["density"] = p.real("density");
  material["radius"] = r0;
  // rigid parts: the tails' EA, EI, GJ times the factor (granular_flagella IV-B: "sufficiently
  // large")
  const double G = E / (2.0 * (1.0 + nu));
  YAML::Node rigid;
  rigid["stretch_stiffness"] = factor * E * pi * r0 * r0;
  rigid["bend_stiffness"] = factor * E * pi * std::pow(r0, 4) / 4.0;
  rigid["twist_stiffness"] = factor * G * pi * std::pow(r0, 4) / 2.0;

  // body (rod 0): head edge x_0 -> x_h along -x (forward is +x), shaft x_h -> x_a, disc spokes x_a
  // -> x_b_i
  const Vec3 head_front(0.0, 0.0, 0.0), head_node(-2.0 * a, 0.0, 0.0),
      centre(-2.0 * a - shaft, 0.0, 0.0);
  YAML::Node body;
  body["geometry"]["type"] = "explicit";
  body["geometry"]["nodes"].push_back(point(head_front));
  body["geometry"]["nodes"].push_back(point(head_node));
  body["geometry"]["nodes"].push_back(point(centre));
  body["geometry"]["edges"].push_back(pair(0, 1));
  body["geometry"]["edges"].push_back(pair(1, 2));
  std::vector<Vec3> rims;
  for (int i = 0; i < n; ++i) {
    const double phi = 2.0 * pi * i / n;
    rims.push_back(centre + 0.5 * disc * Vec3(0.0, std::cos(phi), std::sin(phi)));
    body["geometry"]["nodes"].push_back(point(rims.back()));
    body["geometry"]["edges"].push_back(pair(2, 3 + i));
  }
  body["material"] = material;
  YAML::Node body_rigid = YAML::Clone(rigid);
  for (int e = 0; e < 2 + n; ++e) body_rigid["edges"].push_back(e);
  body["stiffness_overrides"].push_back(body_rigid);

  YAML::Node rods, joint;
  rods.push_back(body);
  // tails (rods 1..n): straight, naturally straight, from each rim node backwards along -x
  for (int i = 0; i < n; ++i) {
    YAML::Node t;
    t["geometry"]["type"] = "straight";
    t["geometry"]["start"] = point(rims[i]);
    t["geometry"]["direction"] = point(Vec3(-1.0, 0.0, 0.0));
    t["geometry"]["length"] = tail;
    t["geometry"]["num_nodes"] = tail_edges + 1;
    t["material"] = material;
    rods.push_back(t);
    YAML::Node j;
    j["nodes"].push_back(pair(0, 3 + i));
    j["nodes"].push_back(pair(1 + i, 0));
    joint.push_back(j);
  }
  scene.add_generated("rods", rods, "flagellated_robot");
  scene.add_generated("joints", joint, "flagellated_robot");

  // medium: RFT on the tails, drag and torque on the head (granular_flagella IV-C)
  YAML::Node forces;
  YAML::Node rft;
  for (int i = 0; i < n; ++i) rft["rods"].push_back(1 + i);
  rft["mu"] = p.real("mu");
  forces["rft"].push_back(rft);
  forces["head_drag"]["rod"] = 0;
  forces["head_drag"]["node"] = 1;
  forces["head_drag"]["edge"] = 0;
  forces["head_drag"]["C1"] = p.real("C1");
  forces["head_drag"]["C2"] = p.real("C2");
  forces["head_drag"]["mu"] = p.real("mu");
  forces["head_drag"]["radius"] = a;
  scene.add_generated("forces", forces, "flagellated_robot");

  // motor: the natural twist of the spring at x_h (between head and shaft) ramped at omega_T (IV-E)
  YAML::Node motor;
  motor["quantity"] = "natural_twist";
  motor["rod"] = 0;
  motor["nodes"].push_back(1);
  motor["schedule"]["type"] = "rate";
  motor["schedule"]["rate"] = p.real("motor_rpm") * 2.0 * pi / 60.0;
  YAML::Node actuation;
  actuation.push_back(motor);
  scene.add_generated("actuation", actuation, "flagellated_robot");

  YAML::Node observables;
  observables["rod"] = 0;
  observables["head_edge"] = 0;
  observables["tail_edge"] = 1;
  observables["axis"] = point(Vec3(1.0, 0.0, 0.0));
  if (p.has("steady_start")) observables["steady_start"] = p.real("steady_start");
  scene.add_generated("observables", observables, "flagellated_robot");
}

}  // namespace tendril::sim
