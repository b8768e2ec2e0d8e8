#include "tendril/rod/rod_builder.hpp"

#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "tendril/rod/stretch.hpp"

namespace tendril {
namespace {

std::string text(double value) {
  std::ostringstream out;
  out.precision(10);
  out << value;
  return out.str();
}

std::string key(const std::string& base, std::size_t i) {
  return base + "[" + std::to_string(i) + "]";
}

void require_positive(double value, const std::string& key_path, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value)) throw InputError(key_path, text(value), what);
}

/// Section and moduli of one material, resolved.
struct Section {
  double stretch = 0.0;       // EA [N]
  double bend_1 = 0.0;        // EI_1 [N m^2]
  double bend_2 = 0.0;        // EI_2 [N m^2]
  double twist = 0.0;         // GJ [N m^2]
  double line_density = 0.0;  // rho A [kg/m]
  double line_inertia = 0.0;  // rho (I_1 + I_2) [kg m]
};

Section resolve_material(const RodMaterial& m, const std::string& path) {
  require_positive(m.youngs_modulus, path + ".E", "a finite Young's modulus > 0 [Pa]");
  require_positive(m.density, path + ".density", "a finite density > 0 [kg/m^3]");
  double shear = 0.0;
  if (m.shear_modulus && m.poisson_ratio)
    throw InputError(path + ".G", text(*m.shear_modulus), "either G or nu, not both");
  if (m.shear_modulus) {
    require_positive(*m.shear_modulus, path + ".G", "a finite shear modulus > 0 [Pa]");
    shear = *m.shear_modulus;
  } else if (m.poisson_ratio) {
    const double nu = *m.poisson_ratio;
    if (!(nu > -1.0 && nu <= 0.5))
      throw InputError(path + ".nu", text(nu), "a Poisson ratio in (-1, 0.5]");
    shear = m.youngs_modulus / (2.0 * (1.0 + nu));
  } else {
    throw InputError(path + ".G", "missing", "a shear modulus G [Pa] or a Poisson ratio nu");
  }

  double area = 0.0, i1 = 0.0, i2 = 0.0, torsion = 0.0;
  const bool explicit_section = m.area || m.inertia_1 || m.inertia_2 || m.torsion_constant;
  if (m.radius && explicit_section)
    throw InputError(path + ".radius", text(*m.radius),
                     "either a radius or an explicit section (A, I_1, I_2, J), not both");
  if (m.radius) {
    const double r = *m.radius;
    require_positive(r, path + ".radius", "a finite radius > 0 [m]");
    area = std::numbers::pi * r * r;
    i1 = i2 = std::numbers::pi * r * r * r * r / 4.0;
    torsion = 2.0 * i1;
  } else {
    if (!m.area || !m.inertia_1 || !m.inertia_2 || !m.torsion_constant)
      throw InputError(path + ".radius", "missing", "a radius or all of A, I_1, I_2, J");
    require_positive(*m.area, path + ".A", "a finite area > 0 [m^2]");
    require_positive(*m.inertia_1, path + ".I_1", "a finite second moment of area > 0 [m^4]");
    require_positive(*m.inertia_2, path + ".I_2", "a finite second moment of area > 0 [m^4]");
    require_positive(*m.torsion_constant, path + ".J", "a finite torsion constant > 0 [m^4]");
    area = *m.area;
    i1 = *m.inertia_1;
    i2 = *m.inertia_2;
    torsion = *m.torsion_constant;
  }
  const Section out{m.youngs_modulus * area, m.youngs_modulus * i1, m.youngs_modulus * i2,
                    shear * torsion,         m.density * area,      m.density * (i1 + i2)};
  // each input may be finite while a product overflows (E = 1e200 Pa with r = 1 m)
  for (double value :
       {out.stretch, out.bend_1, out.bend_2, out.twist, out.line_density, out.line_inertia})
    if (!std::isfinite(value) || !(value > 0.0))
      throw InputError(
          path + (m.radius ? ".radius" : ".A"), m.radius ? text(*m.radius) : text(*m.area),
          "a section whose stiffnesses EA, EI, GJ and mass per length are finite and > 0");
  return out;
}

void validate_topology(const RodNetworkInput& in) {
  if (in.nodes.size() < 2)
    throw InputError("nodes", std::to_string(in.nodes.size()) + " nodes", "at least 2 nodes");
  if (in.edges.empty())
    throw InputError("edges", "0 edges", "at least one edge (an empty rod has no edges)");
  for (std::size_t i = 0; i < in.nodes.size(); ++i)
    for (int c = 0; c < 3; ++c)
      if (!std::isfinite(in.nodes[i][c]))
        throw InputError(key(key("nodes", i), static_cast<std::size_t>(c)), text(in.nodes[i][c]),
                         "a finite coordinate [m]");
  const int num_nodes = static_cast<int>(in.nodes.size());
  std::vector<std::uint8_t> used(in.nodes.size(), 0);
  for (std::size_t e = 0; e < in.edges.size(); ++e) {
    for (std::size_t j = 0; j < 2; ++j) {
      const int n = in.edges[e][j];
      if (n < 0 || n >= num_nodes)
        throw InputError(key(key("edges", e), j), std::to_string(n),
                         "a node index in [0, " + std::to_string(num_nodes - 1) + "]");
      used[static_cast<std::size_t>(n)] = 1;
    }
    const double length = (in.nodes[static_cast<std::size_t>(in.edges[e][1])] -
                           in.nodes[static_cast<std::size_t>(in.edges[e][0])])
                              .norm();
    if (!(length > 0.0))
      throw InputError(key("edges", e), "an edge of length " + text(length),
                       "edges of nonzero length");
  }
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      throw InputError(key("nodes", i), "a node on no edge", "every node on at least one rod edge");
  if (!in.initial_director_hint.empty() && in.initial_director_hint.size() != in.edges.size())
    throw InputError("initial_director_hint",
                     std::to_string(in.initial_director_hint.size()) + " entries",
                     "one vector per edge (" + std::to_string(in.edges.size()) + ") or none");
  for (std::size_t e = 0; e < in.initial_director_hint.size(); ++e) {
    const Vec3& u = in.initial_director_hint[e];
    if (u.isZero()) continue;
    const Vec3 t = (in.nodes[static_cast<std::size_t>(in.edges[e][1])] -
                    in.nodes[static_cast<std::size_t>(in.edges[e][0])])
                       .normalized();
    if (!u.allFinite() || !director_hint_usable(t, u))
      throw InputError(key("initial_director_hint", e),
                       "[" + text(u.x()) + ", " + text(u.y()) + ", " + text(u.z()) + "]",
                       "a finite vector not parallel to its edge");
  }
  if (in.materials.empty()) throw InputError("materials", "none", "at least one material");
  if (!in.edge_material.empty() && in.edge_material.size() != in.edges.size())
    throw InputError(
        "edge_material", std::to_string(in.edge_material.size()) + " entries",
        "one material index per edge (" + std::to_string(in.edges.size()) + ") or none");
  for (std::size_t e = 0; e < in.edge_material.size(); ++e)
    if (in.edge_material[e] < 0 || in.edge_material[e] >= static_cast<int>(in.materials.size()))
      throw InputError(key("edge_material", e), std::to_string(in.edge_material[e]),
                       "a material index in [0, " + std::to_string(in.materials.size() - 1) + "]");
}

/// Springs: consecutive edges at a node of degree 2, every pair at a joint (degree >= 3).
std::vector<BendTwistSpring> make_springs(const RodNetworkInput& in) {
  std::vector<std::vector<int>> incident(in.nodes.size());
  for (std::size_t e = 0; e < in.edges.size(); ++e)
    for (int n : in.edges[e]) incident[static_cast<std::size_t>(n)].push_back(static_cast<int>(e));
  std::vector<BendTwistSpring> springs;
  for (std::size_t node = 0; node < incident.size(); ++node) {
    const auto& edges = incident[node];
    for (std::size_t i = 0; i < edges.size(); ++i)
      for (std::size_t j = i + 1; j < edges.size(); ++j) {
        BendTwistSpring s;
        s.node = static_cast<int>(node);
        s.edge_a = edges[i];
        s.edge_b = edges[j];
        s.sign_a = in.edges[static_cast<std::size_t>(s.edge_a)][1] == s.node ? 1 : -1;
        s.sign_b = in.edges[static_cast<std::size_t>(s.edge_b)][0] == s.node ? 1 : -1;
        springs.push_back(s);
      }
  }
  return springs;
}

}  // namespace

Model build_rod_model(const RodNetworkInput& in) {
  validate_topology(in);
  std::vector<Section> sections;
  for (std::size_t m = 0; m < in.materials.size(); ++m)
    sections.push_back(resolve_material(in.materials[m], key("materials", m)));

  Model model;
  const auto num_nodes = in.nodes.size();
  const auto num_edges = in.edges.size();
  model.dofs.num_nodes = static_cast<int>(num_nodes);
  model.dofs.num_edges = static_cast<int>(num_edges);
  model.rest_positions.resize(3 * static_cast<Eigen::Index>(num_nodes));
  for (std::size_t i = 0; i < num_nodes; ++i)
    model.rest_positions.segment<3>(3 * static_cast<Eigen::Index>(i)) = in.nodes[i];

  // edges: rest lengths, per-edge stiffnesses (with overrides), masses
  RodNetwork& rods = model.rods;
  rods.edges = in.edges;
  std::vector<Section> edge_section(num_edges);
  model.mass = VecX::Zero(model.dofs.size());
  for (std::size_t e = 0; e < num_edges; ++e) {
    const Section& s =
        sections[in.edge_material.empty() ? 0 : static_cast<std::size_t>(in.edge_material[e])];
    edge_section[e] = s;
    const double length = (in.nodes[static_cast<std::size_t>(in.edges[e][1])] -
                           in.nodes[static_cast<std::size_t>(in.edges[e][0])])
                              .norm();
    rods.rest_length.push_back(length);
    const double edge_mass = s.line_density * length;
    for (int n : in.edges[e]) model.mass.segment<3>(model.dofs.node(n)).array() += 0.5 * edge_mass;
    model.mass[model.dofs.twist(static_cast<int>(e))] = s.line_inertia * length;
  }
  for (std::size_t o = 0; o < in.overrides.size(); ++o) {
    const StiffnessOverride& ov = in.overrides[o];
    const std::string path = key("overrides", o);
    if ((ov.edge >= 0) == (ov.node >= 0))
      throw InputError(path,
                       "edge " + std::to_string(ov.edge) + ", node " + std::to_string(ov.node),
                       "exactly one of an edge index or a node index");
    if (ov.stretch_stiffness)
      require_positive(*ov.stretch_stiffness, path + ".EA", "a finite EA > 0 [N]");
    if (ov.bend_stiffness)
      require_positive(*ov.bend_stiffness, path + ".EI", "a finite EI > 0 [N m^2]");
    if (ov.twist_stiffness)
      require_positive(*ov.twist_stiffness, path + ".GJ", "a finite GJ > 0 [N m^2]");
    if (ov.edge >= static_cast<int>(num_edges))
      throw InputError(path + ".edge", std::to_string(ov.edge),
                       "an edge index in [0, " + std::to_string(num_edges - 1) + "]");
    if (ov.node >= static_cast<int>(num_nodes))
      throw InputError(path + ".node", std::to_string(ov.node),
                       "a node index in [0, " + std::to_string(num_nodes - 1) + "]");
    if (ov.node >= 0 && ov.stretch_stiffness)
      throw InputError(path + ".EA", text(*ov.stretch_stiffness), "EA on an edge override only");
    if (ov.edge < 0) continue;
    Section& s = edge_section[static_cast<std::size_t>(ov.edge)];
    if (ov.stretch_stiffness) s.stretch = *ov.stretch_stiffness;
    if (ov.bend_stiffness) s.bend_1 = s.bend_2 = *ov.bend_stiffness;
    if (ov.twist_stiffness) s.twist = *ov.twist_stiffness;
  }
  for (const Section& s : edge_section) {
    rods.stretch_stiffness.push_back(s.stretch);
    rods.bend_twist_stiffness.emplace_back(s.bend_1, s.bend_2, s.twist);
  }

  // bend-twist springs: stiffness = mean of the two edges, then node overrides
  rods.springs = make_springs(in);
  for (BendTwistSpring& spring : rods.springs) {
    const Section& a = edge_section[static_cast<std::size_t>(spring.edge_a)];
    const Section& b = edge_section[static_cast<std::size_t>(spring.edge_b)];
    spring.bend_stiffness_1 = 0.5 * (a.bend_1 + b.bend_1);
    spring.bend_stiffness_2 = 0.5 * (a.bend_2 + b.bend_2);
    spring.twist_stiffness = 0.5 * (a.twist + b.twist);
    spring.voronoi_length = 0.5 * (rods.rest_length[static_cast<std::size_t>(spring.edge_a)] +
                                   rods.rest_length[static_cast<std::size_t>(spring.edge_b)]);
    for (const StiffnessOverride& ov : in.overrides) {
      if (ov.node != spring.node) continue;
      if (ov.bend_stiffness) spring.bend_stiffness_1 = spring.bend_stiffness_2 = *ov.bend_stiffness;
      if (ov.twist_stiffness) spring.twist_stiffness = *ov.twist_stiffness;
    }
  }

  model.fixed.assign(static_cast<std::size_t>(model.dofs.size()), 0);
  rods.initial_director_hint = in.initial_director_hint;

  // rest shape: springs oriented, not folding back, natural strains from the geometry if asked
  const VecX q_rest = rest_configuration(model);
  const Kinematics kin = orient_rest_springs(model, q_rest, rods.springs, 0);
  for (std::size_t k = 0; k < rods.springs.size(); ++k) {
    BendTwistSpring& spring = rods.springs[k];
    const BendTwistStencil s = oriented_stencil(model, kin, q_rest, k);
    if (s.edge_a.normalized().dot(s.edge_b.normalized()) < -1.0 + 1e-6)
      throw InputError(key("nodes", static_cast<std::size_t>(spring.node)),
                       "edges " + std::to_string(spring.edge_a) + " and " +
                           std::to_string(spring.edge_b) + " folding back onto each other",
                       "edges meeting at a node with a turning angle below 180 degrees");
    if (in.natural_shape == NaturalShape::from_geometry) {
      spring.natural_curvature = material_curvature(s);
      spring.natural_twist = spring_twist(s);
    }
  }

  model.energies.push_back(std::make_shared<StretchEnergy>());
  model.energies.push_back(std::make_shared<BendTwistEnergy>());
  return model;
}

VecX rest_configuration(const Model& model) {
  VecX q = VecX::Zero(model.dofs.size());
  q.head(3 * model.dofs.num_nodes) = model.rest_positions;
  return q;
}

Kinematics orient_rest_springs(const Model& model, const VecX& q_rest,
                               std::vector<BendTwistSpring>& springs, std::size_t first) {
  RodFrames frames;
  initialize_frames(model, q_rest, frames);
  for (std::size_t k = 0; k < springs.size(); ++k)
    if (std::abs(frames.reference_twist[first + k]) > 0.5 * std::numbers::pi)
      springs[k].director_sign_a = -1;
  initialize_frames(model, q_rest, frames);
  Kinematics kin;
  compute_kinematics(model, frames, q_rest, kin);
  return kin;
}

}  // namespace tendril
