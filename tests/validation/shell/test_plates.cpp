// Square Kirchhoff plate under uniform pressure q: centre deflection w = alpha q a^4 / D,
// D = E h^3 / (12 (1 - nu^2)), nu = 0.3: alpha = 0.00406 simply supported, 0.00126 clamped
// (Timoshenko & Woinowsky-Krieger, Theory of Plates and Shells, 2nd ed., Tables 8 and 35); with
// more digits 0.00406235 (Navier series) and 0.00126532 (Taylor & Govindjee, Int. J. Numer. Meth.
// Biomed. Eng. 2004, "Solution of clamped rectangular plate problems"), used here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <gtest/gtest.h>

#include "shell/linear_static.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/shell_builder.hpp"

namespace tendril {
namespace {

constexpr double alpha_simply_supported = 0.00406235, alpha_clamped = 0.00126532;
constexpr double side = 1.0, thickness = 0.01, youngs = 1e9, poisson = 0.3, pressure = 1.0;

enum class Support { simply_supported, clamped };

/// w_centre / (q a^4 / D) of the square plate on a `nodes` x `rows` grid of the given pattern
/// (`rows` 0: `nodes`). (Turning these meshes by 90 degrees maps each onto a mirror image of
/// itself, so it gives the same result.)
double centre_deflection_coefficient(ShellBending bending, io::MeshPattern pattern, Support support,
                                     int nodes = 32, int rows = 0) {
  const io::TriangleMesh mesh =
      io::rectangle_mesh(side, side, nodes, rows > 0 ? rows : nodes, pattern);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {youngs, poisson, 1.0, thickness};
  input.bending = bending;
  Model model = build_shell_model(mesh.nodes, {input});
  const auto on_boundary = [&](int i) {
    const Vec3& x = mesh.nodes[static_cast<std::size_t>(i)];
    const double tol = 1e-9;
    return x.x() < tol || x.y() < tol || x.x() > side - tol || x.y() > side - tol;
  };
  // supports: boundary nodes fixed (the membrane decouples from bending at small loads); clamped:
  // the mid-edge normals of boundary edges stay vertical (xi = 0), or for hinges the nodes next to
  // the boundary stay in the plane as well (zero slope over the first row of triangles)
  const ShellMesh& shells = model.shells;
  std::vector<char> clamp_row(mesh.nodes.size(), 0);
  for (std::size_t e = 0; e < shells.edges.size(); ++e) {
    const bool boundary = shells.edge_triangles[e][1] < 0;
    if (!boundary) continue;
    if (support == Support::clamped && shells.edge_xi[e] >= 0)
      model.fixed[static_cast<std::size_t>(model.dofs.xi(shells.edge_xi[e]))] = 1;
    if (support == Support::clamped && bending == ShellBending::hinge)
      for (int t : shells.edge_triangles[e])
        if (t >= 0)
          for (int node : shells.triangles[static_cast<std::size_t>(t)])
            clamp_row[static_cast<std::size_t>(node)] = 1;
  }
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    if (on_boundary(i) || clamp_row[static_cast<std::size_t>(i)])
      for (int d : model.dofs.node_dofs(i)) model.fixed[static_cast<std::size_t>(d)] = 1;
  // uniform pressure: a third of q A of each triangle on each of its nodes, along -z
  VecX load = VecX::Zero(model.dofs.size());
  for (const auto& t : mesh.triangles) {
    const double area = 0.5 * (mesh.nodes[static_cast<std::size_t>(t[1])] -
                               mesh.nodes[static_cast<std::size_t>(t[0])])
                                  .cross(mesh.nodes[static_cast<std::size_t>(t[2])] -
                                         mesh.nodes[static_cast<std::size_t>(t[0])])
                                  .norm();
    for (int node : t) load[model.dofs.node(node) + 2] -= pressure * area / 3.0;
  }
  const VecX u = test::linear_static_displacement(model, load);
  // centre deflection: at the centre node, or the mean of the nodes nearest the centre
  double nearest = 1e9, sum = 0.0;
  int count = 0;
  for (int i = 0; i < model.dofs.num_nodes; ++i) {
    const double r =
        (mesh.nodes[static_cast<std::size_t>(i)] - Vec3(0.5 * side, 0.5 * side, 0)).norm();
    if (r < nearest - 1e-9) nearest = r, sum = 0.0, count = 0;
    if (std::abs(r - nearest) < 1e-9) sum += -u[model.dofs.node(i) + 2], ++count;
  }
  const double d = youngs * std::pow(thickness, 3) / (12.0 * (1.0 - poisson * poisson));
  return sum / count / (pressure * std::pow(side, 4) / d);
}

const char* pattern_name(io::MeshPattern p) {
  return p == io::MeshPattern::right         ? "right"
         : p == io::MeshPattern::alternating ? "alternating"
                                             : "equilateral";
}

TEST(KirchhoffPlate, MidEdgeWithinTwoPercentOnEveryPattern) {
  // bound: the 2 % on a 32 x 32 vertex grid
  for (io::MeshPattern pattern :
       {io::MeshPattern::right, io::MeshPattern::alternating, io::MeshPattern::equilateral}) {
    const double ss =
        centre_deflection_coefficient(ShellBending::midedge, pattern, Support::simply_supported);
    const double cl =
        centre_deflection_coefficient(ShellBending::midedge, pattern, Support::clamped);
    std::printf("mid-edge %-11s: simply supported %.6f (%+.2f %%), clamped %.6f (%+.2f %%)\n",
                pattern_name(pattern), ss, 100 * (ss / alpha_simply_supported - 1), cl,
                100 * (cl / alpha_clamped - 1));
    EXPECT_NEAR(ss / alpha_simply_supported, 1.0, 0.02) << pattern_name(pattern);
    EXPECT_NEAR(cl / alpha_clamped, 1.0, 0.02) << pattern_name(pattern);
  }
}

TEST(KirchhoffPlate, HingeSpreadOverPatterns) {
  // the hinge model is mesh-dependent (mat_dismech 3.3): this measures how much, and checks that
  // the spread is larger than the mid-edge model's on the same meshes
  double hinge_min = 1e9, hinge_max = 0.0, midedge_min = 1e9, midedge_max = 0.0;
  for (io::MeshPattern pattern :
       {io::MeshPattern::right, io::MeshPattern::alternating, io::MeshPattern::equilateral}) {
    const double hinge =
        centre_deflection_coefficient(ShellBending::hinge, pattern, Support::simply_supported);
    const double midedge =
        centre_deflection_coefficient(ShellBending::midedge, pattern, Support::simply_supported);
    std::printf("hinge %-11s: simply supported %.6f (%+.1f %% of alpha)\n", pattern_name(pattern),
                hinge, 100 * (hinge / alpha_simply_supported - 1));
    hinge_min = std::min(hinge_min, hinge), hinge_max = std::max(hinge_max, hinge);
    midedge_min = std::min(midedge_min, midedge), midedge_max = std::max(midedge_max, midedge);
  }
  std::printf("spread max/min - 1: hinge %.1f %%, mid-edge %.2f %%\n",
              100 * (hinge_max / hinge_min - 1), 100 * (midedge_max / midedge_min - 1));
  RecordProperty("hinge_spread_percent", std::to_string(100 * (hinge_max / hinge_min - 1)));
  EXPECT_GT(hinge_max / hinge_min, midedge_max / midedge_min);
}

TEST(KirchhoffPlate, HingeDefaultIsThePlateOnEquilateralMeshes) {
  // the default k_b = 2 D / sqrt 3 is the mesh-consistent stiffness of equilateral triangles
  // (docs/physics/shells.md#hinge-stiffness): rows 13/15 of the node spacing apart (triangles
  // within 0.1 % of equilateral), 27 x 31 and 53 x 61 nodes. Simply supported (boundary nodes
  // fixed, the hinges next to the boundary free) the centre deflection does not depend on nu, so
  // the hinge model's own Poisson ratio (-1/3 on these meshes) does not enter. Bound 1 %: three
  // times the change between the 14 x 16 and 27 x 31 meshes (0.28 %,
  // bench/shell/hinge_stiffness_table), an estimate of the discretisation error that shrinks with
  // refinement.
  for (const auto& [nodes, rows] : {std::pair{27, 31}, std::pair{53, 61}}) {
    const double ss = centre_deflection_coefficient(
        ShellBending::hinge, io::MeshPattern::equilateral, Support::simply_supported, nodes, rows);
    std::printf("hinge equilateral %d x %d: simply supported %.6f (%+.2f %%)\n", nodes, rows, ss,
                100 * (ss / alpha_simply_supported - 1));
    EXPECT_NEAR(ss / alpha_simply_supported, 1.0, 0.01) << nodes << " x " << rows;
  }
}

}  // namespace
}  // namespace tendril
