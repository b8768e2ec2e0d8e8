#include "tendril/shell/shell_builder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/geometry/dihedral_angle.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/geometry/triangle_normal.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/hinge_bending.hpp"
#include "tendril/shell/membrane_cst.hpp"
#include "tendril/shell/membrane_springs.hpp"
#include "tendril/shell/midedge_bending.hpp"

namespace tendril {
namespace {

std::string text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string text(const std::array<int, 3>& t) {
  std::ostringstream out;
  out << '[' << t[0] << ", " << t[1] << ", " << t[2] << ']';
  return out.str();
}

std::string shell_path(std::size_t s) {
  return "shells[" + std::to_string(s) + "]";
}

void check_material(const ShellMaterial& m, const std::string& path) {
  if (!(m.youngs_modulus > 0.0) || !std::isfinite(m.youngs_modulus))
    throw InputError(path + ".material.E", text(m.youngs_modulus), "a Young's modulus E > 0 [Pa]");
  if (!(m.poisson_ratio > -1.0 && m.poisson_ratio <= 0.5))
    throw InputError(path + ".material.nu", text(m.poisson_ratio), "a Poisson ratio in (-1, 0.5]");
  if (!(m.density >= 0.0) || !std::isfinite(m.density))
    throw InputError(path + ".material.density", text(m.density), "a density rho >= 0 [kg/m^3]");
  if (!(m.thickness > 0.0) || !std::isfinite(m.thickness))
    throw InputError(path + ".material.thickness", text(m.thickness), "a thickness h > 0 [m]");
}

/// Where one triangle came from: its shell and its index in that shell.
struct TriangleSource {
  std::size_t shell = 0;
  std::size_t index = 0;
};

/// What add_shells builds, step by step: the model's shell mesh from the shells' inputs, with
/// where each triangle came from.
struct ShellAssembly {
  Model& model;
  const std::vector<ShellInput>& shells;
  ShellMesh& mesh;
  std::vector<TriangleSource> source;  ///< the shell and index of each triangle of `mesh`

  /// The rest position of a model node [m].
  Vec3 rest(int node) const { return model.rest_positions.segment<3>(model.dofs.node(node)); }
  /// The scene's name of triangle t of shell s.
  std::string triangle_path(std::size_t s, std::size_t t) const {
    const auto& names = shells[s].triangle_names;
    return t < names.size() ? names[t] : shell_path(s) + ".triangles[" + std::to_string(t) + "]";
  }

  /// Materials and triangles checked (indices in range, three distinct nodes, not degenerate, not
  /// duplicated) and appended to the mesh.
  void add_triangles();
  /// Shell edges: at most two triangles each, running it in opposite directions (consistent
  /// orientation), one bending model on both sides.
  void add_edges();
  /// One xi per shell edge of a mid-edge shell, appended to q with zero mass.
  void add_edge_xi();
  /// Lumped masses and the constant-strain membrane triangles.
  void add_masses_and_membranes();
  /// Edge springs on the edges of edge-spring shells.
  void add_edge_springs();
  /// Hinges on edges shared by two hinge-bending triangles, at the rest dihedral angle.
  void add_hinges();
  /// Mid-edge triangles: coefficients, natural shape operator and metric of the rest triangle.
  void add_midedge_triangles();
  /// One energy term per kind of element the mesh has.
  void add_energy_terms();
};

void ShellAssembly::add_triangles() {
  const int num_nodes = model.dofs.num_nodes;
  std::map<std::array<int, 3>, std::size_t> seen;  // sorted nodes -> global triangle
  for (std::size_t s = 0; s < shells.size(); ++s) {
    check_material(shells[s].material, shell_path(s));
    if (shells[s].edge_spring_stiffness && !(*shells[s].edge_spring_stiffness > 0.0))
      throw InputError(shell_path(s) + ".edge_spring_stiffness",
                       text(*shells[s].edge_spring_stiffness), "k_s > 0 [N]");
    if (shells[s].hinge_stiffness && !(*shells[s].hinge_stiffness > 0.0))
      throw InputError(shell_path(s) + ".hinge_stiffness", text(*shells[s].hinge_stiffness),
                       "k_b > 0 [N m]");
    if (shells[s].triangles.empty())
      throw InputError(shell_path(s) + ".triangles", "none", "at least one triangle");
    for (std::size_t t = 0; t < shells[s].triangles.size(); ++t) {
      const auto& tri = shells[s].triangles[t];
      for (std::size_t k = 0; k < 3; ++k)
        if (tri[k] < 0 || tri[k] >= num_nodes)
          throw InputError(triangle_path(s, t) + "[" + std::to_string(k) + "]",
                           std::to_string(tri[k]),
                           "a node index in [0, " + std::to_string(num_nodes - 1) + "]");
      if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
        throw InputError(triangle_path(s, t), text(tri), "three distinct nodes");
      const Vec3 n = triangle_normal(rest(tri[0]), rest(tri[1]), rest(tri[2]));
      const double longest = std::max({(rest(tri[1]) - rest(tri[0])).squaredNorm(),
                                       (rest(tri[2]) - rest(tri[1])).squaredNorm(),
                                       (rest(tri[0]) - rest(tri[2])).squaredNorm()});
      if (!(n.norm() > 1e-10 * longest))
        throw InputError(triangle_path(s, t),
                         text(tri) + " (area " + text(0.5 * n.norm()) + " m^2)",
                         "a triangle of non-zero area (its nodes are collinear)");
      std::array<int, 3> key = tri;
      std::sort(key.begin(), key.end());
      const auto [it, fresh] = seen.emplace(key, mesh.triangles.size());
      if (!fresh) {
        const TriangleSource& first = source[it->second];
        throw InputError(triangle_path(s, t), text(tri),
                         "a triangle not given before (duplicate of " +
                             triangle_path(first.shell, first.index) + ")");
      }
      mesh.triangles.push_back(tri);
      source.push_back({s, t});
    }
  }
}

void ShellAssembly::add_edges() {
  std::map<std::array<int, 2>, int> edge_of;
  mesh.triangle_edges.resize(mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (std::size_t k = 0; k < 3; ++k) {
      const int a = tri[(k + 1) % 3];
      const int b = tri[(k + 2) % 3];
      const std::array<int, 2> key = {std::min(a, b), std::max(a, b)};
      auto [it, fresh] = edge_of.emplace(key, static_cast<int>(mesh.edges.size()));
      const auto e = static_cast<std::size_t>(it->second);
      const std::string where = triangle_path(source[t].shell, source[t].index);
      const std::string edge_text =
          "edge (" + std::to_string(a) + ", " + std::to_string(b) + ") of " + text(tri);
      if (fresh) {
        mesh.edges.push_back(key);
        mesh.edge_triangles.push_back({static_cast<int>(t), -1});
      } else {
        auto& adjacent = mesh.edge_triangles[e];
        const auto& other_source = source[static_cast<std::size_t>(adjacent[0])];
        const std::string other = triangle_path(other_source.shell, other_source.index);
        if (adjacent[1] >= 0)
          throw InputError(where, edge_text,
                           "edges shared by at most two triangles (non-manifold: also in " + other +
                               " and another triangle)");
        const auto& first = mesh.triangles[static_cast<std::size_t>(adjacent[0])];
        for (std::size_t j = 0; j < 3; ++j)
          if (first[(j + 1) % 3] == a && first[(j + 2) % 3] == b)
            throw InputError(where, edge_text,
                             "triangles oriented like their neighbours (" + other +
                                 " runs this edge the same way: flipped or inverted triangle)");
        if (shells[source[static_cast<std::size_t>(adjacent[0])].shell].bending !=
            shells[source[t].shell].bending)
          throw InputError(where, edge_text,
                           "one bending model on both sides of an edge (" + other + " differs)");
        adjacent[1] = static_cast<int>(t);
      }
      mesh.triangle_edges[t][k] = static_cast<int>(e);
    }
  }
}

void ShellAssembly::add_edge_xi() {
  mesh.edge_xi.assign(mesh.edges.size(), -1);
  for (std::size_t e = 0; e < mesh.edges.size(); ++e) {
    const auto t = static_cast<std::size_t>(mesh.edge_triangles[e][0]);
    if (shells[source[t].shell].bending != ShellBending::midedge) continue;
    mesh.edge_xi[e] = static_cast<int>(mesh.xi_edge.size());
    mesh.xi_edge.push_back(static_cast<int>(e));
  }
  model.dofs.num_shell_edges = static_cast<int>(mesh.xi_edge.size());
  grow_massless_dofs(model);
}

void ShellAssembly::add_masses_and_membranes() {
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const ShellInput& shell = shells[source[t].shell];
    const ShellMaterial& m = shell.material;
    const auto& tri = mesh.triangles[t];
    const Vec3 x0 = rest(tri[0]), x1 = rest(tri[1]), x2 = rest(tri[2]);
    const Vec3 n = triangle_normal(x0, x1, x2);
    const double area = 0.5 * n.norm();
    for (int node : tri)
      model.mass.segment<3>(model.dofs.node(node)).array() += m.density * m.thickness * area / 3.0;
    if (shell.membrane == ShellMembrane::cst) {
      // rest edges in the orthonormal basis (e_1 along x_1 - x_0, e_2 = n_hat x e_1)
      const Vec3 e1 = (x1 - x0).normalized();
      const Vec3 e2 = n.normalized().cross(e1);
      Eigen::Matrix2d dm;
      dm << (x1 - x0).dot(e1), (x2 - x0).dot(e1), (x1 - x0).dot(e2), (x2 - x0).dot(e2);
      MembraneTriangle mt;
      mt.triangle = static_cast<int>(t);
      mt.rest_shape_inverse = dm.inverse();
      mt.rest_area = area;
      mt.thickness = m.thickness;
      mt.lame_mu = m.youngs_modulus / (2.0 * (1.0 + m.poisson_ratio));
      mt.lame_lambda =
          m.youngs_modulus * m.poisson_ratio / (1.0 - m.poisson_ratio * m.poisson_ratio);
      mesh.membrane_triangles.push_back(mt);
    }
  }
}

void ShellAssembly::add_edge_springs() {
  for (std::size_t e = 0; e < mesh.edges.size(); ++e) {
    // edge springs: sqrt(3)/4 E h |e_bar| from each triangle, sqrt(3)/2 E h |e_bar| inside (E h,
    // nu = 1/3 on equilateral meshes: docs/physics/shells.md), or the shell's k_s per edge
    const double rest_length = (rest(mesh.edges[e][1]) - rest(mesh.edges[e][0])).norm();
    const double share = mesh.edge_triangles[e][1] >= 0 ? 0.5 : 1.0;
    double stiffness = 0.0;
    for (int t : mesh.edge_triangles[e]) {
      if (t < 0) continue;
      const ShellInput& shell = shells[source[static_cast<std::size_t>(t)].shell];
      if (shell.membrane != ShellMembrane::edge_springs) continue;
      const ShellMaterial& m = shell.material;
      stiffness += shell.edge_spring_stiffness
                       ? share * *shell.edge_spring_stiffness
                       : std::sqrt(3.0) / 4.0 * m.youngs_modulus * m.thickness * rest_length;
    }
    if (stiffness > 0.0) mesh.edge_springs.push_back({static_cast<int>(e), rest_length, stiffness});
  }
}

void ShellAssembly::add_hinges() {
  // x_2 in the triangle running x_0 -> x_1 (ShellHinge::nodes)
  for (std::size_t e = 0; e < mesh.edges.size(); ++e) {
    const auto& adjacent = mesh.edge_triangles[e];
    if (adjacent[1] < 0) continue;
    const ShellInput& shell_a = shells[source[static_cast<std::size_t>(adjacent[0])].shell];
    const ShellInput& shell_b = shells[source[static_cast<std::size_t>(adjacent[1])].shell];
    if (shell_a.bending != ShellBending::hinge) continue;
    const auto& ta = mesh.triangles[static_cast<std::size_t>(adjacent[0])];
    const auto& tb = mesh.triangles[static_cast<std::size_t>(adjacent[1])];
    const auto k_a = static_cast<std::size_t>(
        std::find(mesh.triangle_edges[static_cast<std::size_t>(adjacent[0])].begin(),
                  mesh.triangle_edges[static_cast<std::size_t>(adjacent[0])].end(),
                  static_cast<int>(e)) -
        mesh.triangle_edges[static_cast<std::size_t>(adjacent[0])].begin());
    const int opposite_b = tb[0] + tb[1] + tb[2] - ta[(k_a + 1) % 3] - ta[(k_a + 2) % 3];
    ShellHinge hinge;
    hinge.nodes = {ta[(k_a + 1) % 3], ta[(k_a + 2) % 3], ta[k_a], opposite_b};
    const auto k_b = [](const ShellInput& s) {
      return s.hinge_stiffness.value_or(default_hinge_stiffness(s.material));
    };
    hinge.stiffness = 0.5 * (k_b(shell_a) + k_b(shell_b));
    hinge.natural_angle = dihedral_angle(rest(hinge.nodes[0]), rest(hinge.nodes[1]),
                                         rest(hinge.nodes[2]), rest(hinge.nodes[3]));
    mesh.hinges.push_back(hinge);
  }
}

void ShellAssembly::add_midedge_triangles() {
  // the edge frames tau of the rest shape
  RodFrames frames;
  initialize_frames(model, rest_configuration(model), frames);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const ShellInput& shell = shells[source[t].shell];
    if (shell.bending != ShellBending::midedge) continue;
    const auto& tri = mesh.triangles[t];
    const Vec3 n = triangle_normal(rest(tri[0]), rest(tri[1]), rest(tri[2]));
    const Vec3 n_hat = n.normalized();
    const double area = 0.5 * n.norm();
    MidEdgeTriangle mt;
    mt.triangle = static_cast<int>(t);
    std::array<Vec3, 3>
        tangent;  // t_bar^k = e_bar^k x n_hat, |t_bar^k| = |e_bar^k|, pointing out of the triangle
    for (std::size_t k = 0; k < 3; ++k) {
      const int a = tri[(k + 1) % 3];
      const int b = tri[(k + 2) % 3];
      const auto e = static_cast<std::size_t>(mesh.triangle_edges[t][k]);
      mt.xi[k] = mesh.edge_xi[e];
      const auto i = static_cast<Eigen::Index>(k);
      mt.edge_sign[i] = mesh.edges[e][0] == a ? 1.0 : -1.0;
      const Vec3 edge = rest(b) - rest(a);
      tangent[k] = edge.cross(n_hat);
      const Vec3 tau = mt.edge_sign[i] * frames.shell_edge_tau[static_cast<std::size_t>(mt.xi[k])];
      mt.coefficient[i] = 1.0 / (area * edge.norm() * tangent[k].normalized().dot(tau));
      mt.natural_weight[i] =
          -mt.coefficient[i] *
          midedge_frame_angle(rest(a), rest(b), rest(tri[k]), tau, nullptr, nullptr);
    }
    const double nu = shell.material.poisson_ratio;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        const double tt = tangent[i].dot(tangent[j]);
        mt.metric(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
            (1.0 - nu) * tt * tt + nu * tangent[i].squaredNorm() * tangent[j].squaredNorm();
      }
    const double h = shell.material.thickness;
    mt.stiffness = shell.material.youngs_modulus * h * h * h / (24.0 * (1.0 - nu * nu)) * area;
    mesh.midedge_triangles.push_back(mt);
  }
}

void ShellAssembly::add_energy_terms() {
  if (!mesh.edge_springs.empty())
    model.energies.push_back(std::make_shared<MembraneSpringEnergy>());
  if (!mesh.membrane_triangles.empty())
    model.energies.push_back(std::make_shared<MembraneCstEnergy>());
  if (!mesh.hinges.empty()) model.energies.push_back(std::make_shared<HingeBendingEnergy>());
  if (!mesh.midedge_triangles.empty())
    model.energies.push_back(std::make_shared<MidEdgeBendingEnergy>());
}

}  // namespace

void add_shells(Model& model, const std::vector<ShellInput>& shells) {
  TENDRIL_ASSERT(model.shells.triangles.empty(),
                 "add_shells called on a model that already has shells");
  ShellAssembly assembly{model, shells, model.shells, {}};
  assembly.add_triangles();
  assembly.add_edges();
  assembly.add_edge_xi();
  assembly.add_masses_and_membranes();
  assembly.add_edge_springs();
  assembly.add_hinges();
  assembly.add_midedge_triangles();
  assembly.add_energy_terms();
}

double default_hinge_stiffness(const ShellMaterial& m) {
  const double h = m.thickness, nu = m.poisson_ratio;
  const double plate = m.youngs_modulus * h * h * h / (12.0 * (1.0 - nu * nu));
  return 2.0 * plate / std::sqrt(3.0);
}

void grow_massless_dofs(Model& model) {
  const auto num_dofs = static_cast<Eigen::Index>(model.dofs.size());
  const Eigen::Index old_dofs = model.mass.size();
  model.mass.conservativeResize(num_dofs);
  model.mass.tail(num_dofs - old_dofs).setZero();
  model.fixed.resize(static_cast<std::size_t>(num_dofs), 0);
}

int append_nodes(Model& model, const std::vector<Vec3>& nodes) {
  TENDRIL_ASSERT(
      model.dofs.num_shell_edges == 0 && model.shells.triangles.empty() && model.prescribed.empty(),
      "append_nodes called on a model with shells or prescribed DOFs");
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (!nodes[i].allFinite())
      throw InputError("nodes[" + std::to_string(i) + "]", "a non-finite coordinate",
                       "finite coordinates [m]");
  const int first = model.dofs.num_nodes;
  const auto old_positions = static_cast<Eigen::Index>(3 * first);
  const auto added = static_cast<Eigen::Index>(3 * nodes.size());
  // q = [x (3N) | theta (E)]: the new positions go between the old positions and the twists
  VecX rest(old_positions + added);
  rest << model.rest_positions, VecX::Zero(added);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    rest.segment<3>(old_positions + 3 * static_cast<Eigen::Index>(i)) = nodes[i];
  model.rest_positions = std::move(rest);
  const Eigen::Index old_dofs = model.mass.size();
  VecX mass = VecX::Zero(old_dofs + added);
  mass.head(old_positions) = model.mass.head(old_positions);
  mass.tail(old_dofs - old_positions) = model.mass.tail(old_dofs - old_positions);
  model.mass = std::move(mass);
  model.fixed.insert(model.fixed.begin() + old_positions, static_cast<std::size_t>(added), 0);
  model.dofs.num_nodes += static_cast<int>(nodes.size());
  return first;
}

Model build_shell_model(const std::vector<Vec3>& nodes, const std::vector<ShellInput>& shells) {
  Model model;
  append_nodes(model, nodes);
  add_shells(model, shells);
  return model;
}

}  // namespace tendril
