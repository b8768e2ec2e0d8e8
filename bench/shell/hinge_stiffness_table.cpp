// The hinge bending stiffness against plate and beam theory (issue 23; docs/physics/shells.md,
// "Hinge stiffness"): for mesh patterns right / alternating / equilateral at four refinements and
// four choices of k_b, the error of
// - a cantilever strip under an end shear, small deflection, against Euler-Bernoulli
//   P L^3 / (3 EI);
// - a simply supported square Kirchhoff plate under uniform pressure, centre deflection against
//   alpha q a^4 / D, alpha = 0.00406235 (Timoshenko & Woinowsky-Krieger, Table 8; Navier series);
// - the cantilever plate strip under end shear of Sze, Liu & Lo 2004 (Finite Elem. Anal. Des. 40,
//   1551, problem 1: L = 10, b = 1, h = 0.1, E = 1.2e6, nu = 0, end shear 4), large deflection,
//   tip displacements against the Euler elastica (with nu = 0 the strip bends as a beam).
// The choices: the paper's k_b = E h^3 / (12 sqrt 3) (mat_dismech eq. 17), twice that (the
// MAT-DiSMech code), 2 D / sqrt 3 (the default: twice the paper's over 1 - nu^2), and the per-edge
// k_b = D |e_bar|^2 / (A_A + A_B) (plate_hinge_stiffness below).
// Every solve is a static solve (StaticSolver) from the flat rest state; the small-deflection cases
// at loads that keep the deflection below 1e-4 of the length scale. Prints markdown tables.
//
//     build/release/bench/shell/hinge_stiffness_table
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <Eigen/Geometry>

#include "support/elastica.hpp"
#include "tendril/core/model.hpp"
#include "tendril/forces/point_load.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/hinge_bending.hpp"
#include "tendril/shell/shell_builder.hpp"

namespace {

using namespace tendril;

/// A choice of k_b: a name and the stiffness of every hinge of a shell of material m.
struct Choice {
  const char* name;
  std::function<double(const ShellMaterial& m, const HingeStencil& rest)> stiffness;
};

/// The hinge stiffness k_b [N m] that gives a Kirchhoff plate of bending stiffness D [N m] on the
/// rest hinge x_bar, the Discrete Shells weight 3 |e_bar|^2 / (A_A + A_B) (Grinspun et al. 2003;
/// Tamstorf & Grinspun 2013) with the constant D / 6:  k_b = D |e_bar|^2 / (A_A + A_B), A_A, A_B
/// the rest areas of the two triangles [m^2]. (In uniform bending of a right mesh along a leg, the
/// hinges on the other leg's edges turn by |e| kappa and carry the energy D kappa^2 / 2 per area.)
double plate_hinge_stiffness(double plate_stiffness, const HingeStencil& rest) {
  const Vec3 e = rest[1] - rest[0];
  const double areas =
      0.5 * (e.cross(rest[2] - rest[0]).norm() + (rest[3] - rest[0]).cross(e).norm());
  return plate_stiffness * e.squaredNorm() / areas;
}

double plate_stiffness(const ShellMaterial& m) {
  return m.youngs_modulus * std::pow(m.thickness, 3) /
         (12.0 * (1.0 - m.poisson_ratio * m.poisson_ratio));
}

const std::array<Choice, 4> choices = {{
    {"E h^3 / (12 sqrt 3)",
     [](const ShellMaterial& m, const HingeStencil&) {
       return m.youngs_modulus * std::pow(m.thickness, 3) / (12.0 * std::sqrt(3.0));
     }},
    {"E h^3 / (6 sqrt 3)",
     [](const ShellMaterial& m, const HingeStencil&) {
       return m.youngs_modulus * std::pow(m.thickness, 3) / (6.0 * std::sqrt(3.0));
     }},
    {"2 D / sqrt 3", [](const ShellMaterial& m,
                        const HingeStencil&) { return 2.0 * plate_stiffness(m) / std::sqrt(3.0); }},
    {"D \\|e\\|^2 / (A_A + A_B)",
     [](const ShellMaterial& m, const HingeStencil& rest) {
       return plate_hinge_stiffness(plate_stiffness(m), rest);
     }},
}};

const std::array<io::MeshPattern, 3> patterns = {
    io::MeshPattern::right, io::MeshPattern::alternating, io::MeshPattern::equilateral};

const char* pattern_name(io::MeshPattern p) {
  return p == io::MeshPattern::right         ? "right"
         : p == io::MeshPattern::alternating ? "alternating"
                                             : "equilateral";
}

/// A hinge-bending shell model on `mesh` with every hinge's stiffness from `choice`.
Model hinge_model(const io::TriangleMesh& mesh, const ShellMaterial& material,
                  const Choice& choice) {
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = material;
  input.bending = ShellBending::hinge;
  Model model = build_shell_model(mesh.nodes, {input});
  for (ShellHinge& hinge : model.shells.hinges) {
    HingeStencil rest;
    for (std::size_t k = 0; k < 4; ++k)
      rest[k] = mesh.nodes[static_cast<std::size_t>(hinge.nodes[k])];
    hinge.stiffness = choice.stiffness(material, rest);
  }
  return model;
}

void fix_node(Model& model, std::size_t node) {
  for (int d : model.dofs.node_dofs(static_cast<int>(node)))
    model.fixed[static_cast<std::size_t>(d)] = 1;
}

/// The static displacement of every node (#nodes) under constant nodal forces (#nodes), from rest;
/// empty when the solve fails.
std::vector<Vec3> static_displacement(Model& model, const std::vector<Vec3>& forces) {
  for (std::size_t i = 0; i < forces.size(); ++i)
    if (forces[i] != Vec3::Zero())
      model.forces.push_back(std::make_shared<PointLoad>(static_cast<int>(i), forces[i]));
  const VecX q0 = rest_configuration(model);
  StaticSolver solver(model, StaticOptions{}, q0);
  State state;
  state.q = q0;
  state.u = VecX::Zero(q0.size());
  initialize_frames(model, q0, state.frames);
  const StaticReport report = solver.solve(state);
  if (!report.ok()) {
    std::fprintf(stderr, "static solve failed: %s\n", report.message.c_str());
    return {};
  }
  std::vector<Vec3> u(forces.size());
  for (std::size_t i = 0; i < u.size(); ++i)
    u[i] = state.q.segment<3>(3 * static_cast<Eigen::Index>(i)) -
           q0.segment<3>(3 * static_cast<Eigen::Index>(i));
  return u;
}

// ---- the cantilever strip (Sze et al. problem 1; small and large end shear) ----

constexpr double strip_length = 10.0, strip_width = 1.0;
const ShellMaterial strip_material{1.2e6, 0.0, 1.0, 0.1};

/// The strip with `nodes` nodes along x: node columns at x = -dx/2 + k dx, the two columns at
/// x <= dx/2 fixed (the clamp of a discrete beam at the midpoint of its first cell, x = 0), the tip
/// at x = L; equilateral meshes get rows sqrt(3)/2 dx apart; the width is rounded to whole rows.
struct Strip {
  io::TriangleMesh mesh;
  double width = 0.0;
  std::vector<std::size_t> clamped, tip;
};

Strip make_strip(io::MeshPattern pattern, int nodes) {
  const double dx = strip_length / (nodes - 1.5);
  const double dy = pattern == io::MeshPattern::equilateral ? std::sqrt(3.0) / 2.0 * dx : dx;
  const int rows = std::max(2, static_cast<int>(std::lround(strip_width / dy)));
  Strip s;
  s.width = rows * dy;
  s.mesh = io::rectangle_mesh(strip_length + 0.5 * dx, s.width, nodes, rows + 1, pattern);
  for (std::size_t i = 0; i < s.mesh.nodes.size(); ++i) {
    Vec3& x = s.mesh.nodes[i];
    x.x() -= 0.5 * dx;
    if (x.x() < 0.5 * dx + 1e-9 * dx) s.clamped.push_back(i);
    if (x.x() > strip_length - 1e-9 * dx) s.tip.push_back(i);
  }
  return s;
}

/// The mean tip displacement (x, z) of the strip under a total end shear `load` [N] along -z,
/// spread over the tip nodes by their share of the tip edge.
std::array<double, 2> strip_tip(const Strip& s, const Choice& choice, double load) {
  Model model = hinge_model(s.mesh, strip_material, choice);
  for (std::size_t i : s.clamped) fix_node(model, i);
  std::vector<std::size_t> tip = s.tip;
  std::sort(tip.begin(), tip.end(), [&](std::size_t a, std::size_t b) {
    return s.mesh.nodes[a].y() < s.mesh.nodes[b].y();
  });
  std::vector<Vec3> forces(s.mesh.nodes.size(), Vec3::Zero());
  for (std::size_t k = 0; k < tip.size(); ++k) {
    const double below = k > 0 ? s.mesh.nodes[tip[k]].y() - s.mesh.nodes[tip[k - 1]].y() : 0.0;
    const double above =
        k + 1 < tip.size() ? s.mesh.nodes[tip[k + 1]].y() - s.mesh.nodes[tip[k]].y() : 0.0;
    forces[tip[k]] = Vec3(0.0, 0.0, -load * 0.5 * (below + above) / s.width);
  }
  const std::vector<Vec3> u = static_displacement(model, forces);
  if (u.empty()) return {NAN, NAN};
  std::array<double, 2> mean{0.0, 0.0};
  for (std::size_t i : s.tip)
    mean[0] += u[i].x() / s.tip.size(), mean[1] += u[i].z() / s.tip.size();
  return mean;
}

/// The tip's (axial shortening, deflection) [m] of the Euler elastica of the strip (EI per unit
/// width, inextensible) under a dead end shear `load` per unit width [N/m]
/// (tests/support/elastica.hpp).
std::array<double, 2> elastica_tip(double bend_stiffness, double load) {
  testing::ElasticaProblem p;
  p.length = strip_length;
  p.bend_stiffness = bend_stiffness;
  p.tip_force = {0.0, -load};
  const testing::ElasticaTip tip = testing::solve_cantilever_elastica(p);
  return {strip_length - tip.x, -tip.z};
}

// ---- the simply supported square plate ----

constexpr double alpha_simply_supported = 0.00406235;
constexpr double plate_side = 1.0;
const ShellMaterial plate_material{1e9, 0.3, 1.0, 0.01};

/// The piecewise-linear surface's value of field f (#nodes) at point p of the plane z = 0.
double interpolate(const io::TriangleMesh& mesh, const std::vector<double>& f, const Vec3& p) {
  for (const auto& t : mesh.triangles) {
    const Vec3 a = mesh.nodes[static_cast<std::size_t>(t[0])];
    const Vec3 b = mesh.nodes[static_cast<std::size_t>(t[1])];
    const Vec3 c = mesh.nodes[static_cast<std::size_t>(t[2])];
    const double area = (b - a).cross(c - a).z();
    const double wa = (b - p).cross(c - p).z() / area, wb = (c - p).cross(a - p).z() / area;
    const double wc = 1.0 - wa - wb, tol = -1e-12;
    if (wa >= tol && wb >= tol && wc >= tol)
      return wa * f[static_cast<std::size_t>(t[0])] + wb * f[static_cast<std::size_t>(t[1])] +
             wc * f[static_cast<std::size_t>(t[2])];
  }
  return NAN;
}

/// w_centre / (alpha q a^4 / D) of the simply supported square plate (boundary nodes fixed) on a
/// mesh of `cells` = (cells along x, rows along y).
double plate_ratio(io::MeshPattern pattern, std::array<int, 2> cells, const Choice& choice) {
  const io::TriangleMesh mesh =
      io::rectangle_mesh(plate_side, plate_side, cells[0] + 1, cells[1] + 1, pattern);
  Model model = hinge_model(mesh, plate_material, choice);
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    const Vec3& x = mesh.nodes[i];
    const double tol = 1e-9;
    if (x.x() < tol || x.y() < tol || x.x() > plate_side - tol || x.y() > plate_side - tol)
      fix_node(model, i);
  }
  const double d = plate_stiffness(plate_material);
  const double pressure = 1e-4 * plate_material.thickness * d /
                          (alpha_simply_supported * std::pow(plate_side, 4));  // w ~ 1e-4 h
  std::vector<Vec3> forces(mesh.nodes.size(), Vec3::Zero());
  for (const auto& t : mesh.triangles) {  // a third of q A of each triangle on each of its nodes
    const auto x = [&](std::size_t k) { return mesh.nodes[static_cast<std::size_t>(t[k])]; };
    const double share = pressure * 0.5 * (x(1) - x(0)).cross(x(2) - x(0)).norm() / 3.0;
    for (int node : t) forces[static_cast<std::size_t>(node)].z() -= share;
  }
  const std::vector<Vec3> u = static_displacement(model, forces);
  if (u.empty()) return NAN;
  std::vector<double> w(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) w[i] = -u[i].z();
  const double centre = interpolate(mesh, w, Vec3(0.5 * plate_side, 0.5 * plate_side, 0.0));
  return centre / (alpha_simply_supported * pressure * std::pow(plate_side, 4) / d);
}

void print_header(const char* title, const char* unit) {
  std::printf("\n%s\n\n| pattern | nodes |", title);
  for (const Choice& c : choices) std::printf(" %s: %s |", c.name, unit);
  std::printf("\n| --- | --- |");
  for (std::size_t k = 0; k < choices.size(); ++k) std::printf(" --- |");
  std::printf("\n");
}

void strip_tables() {
  const double ei = strip_material.youngs_modulus * std::pow(strip_material.thickness, 3) / 12.0;
  print_header(
      "Cantilever strip, small end shear (L = 10, b ~ 1, h = 0.1, E = 1.2e6, nu = 0): "
      "w_tip / (P L^3 / (3 EI)) - 1",
      "error");
  for (io::MeshPattern p : patterns)
    for (int nodes : {21, 41, 81, 161}) {
      const Strip s = make_strip(p, nodes);
      std::printf("| %s | %d x %zu |", pattern_name(p), nodes, s.tip.size());
      for (const Choice& c : choices) {
        const double load = 1e-4 * ei * s.width / strip_width / (strip_length * strip_length);
        const double beam = load * std::pow(strip_length, 3) / (3.0 * ei * s.width / strip_width);
        std::printf(" %+.2f %% |", 100.0 * (-strip_tip(s, c, load)[1] / beam - 1.0));
      }
      std::printf("\n");
    }
  const std::array<double, 2> reference = elastica_tip(ei, 4.0);
  char title[256];
  std::snprintf(title, sizeof title,
                "Sze et al. 2004 cantilever strip, end shear 4 per unit width (P L^2 / EI = 4), "
                "tip -u_x / %.4f - 1 and w / %.4f - 1 (Euler elastica)",
                reference[0], reference[1]);
  print_header(title, "-u, w error");
  for (io::MeshPattern p : patterns)
    for (int nodes : {21, 41, 81, 161}) {
      const Strip s = make_strip(p, nodes);
      std::printf("| %s | %d x %zu |", pattern_name(p), nodes, s.tip.size());
      for (const Choice& c : choices) {
        const std::array<double, 2> tip = strip_tip(s, c, 4.0 * s.width / strip_width);
        std::printf(" %+.2f %%, %+.2f %% |", 100.0 * (-tip[0] / reference[0] - 1.0),
                    100.0 * (-tip[1] / reference[1] - 1.0));
      }
      std::printf("\n");
    }
}

void plate_table() {
  print_header(
      "Simply supported square plate, uniform pressure (a = 1, h = 0.01, E = 1e9, nu = "
      "0.3): w_centre / (0.00406235 q a^4 / D) - 1",
      "error");
  const std::map<io::MeshPattern, std::vector<std::array<int, 2>>> grids = {
      {io::MeshPattern::right, {{16, 16}, {32, 32}, {64, 64}, {128, 128}}},
      {io::MeshPattern::alternating, {{16, 16}, {32, 32}, {64, 64}, {128, 128}}},
      // rows 13/15 of the node spacing apart: triangles within 0.1 % of equilateral
      {io::MeshPattern::equilateral, {{13, 15}, {26, 30}, {52, 60}, {104, 120}}}};
  for (io::MeshPattern p : patterns)
    for (const auto& cells : grids.at(p)) {
      std::printf("| %s | %d x %d |", pattern_name(p), cells[0] + 1, cells[1] + 1);
      for (const Choice& c : choices)
        std::printf(" %+.2f %% |", 100.0 * (plate_ratio(p, cells, c) - 1.0));
      std::printf("\n");
    }
  // the equilateral pattern with rows one node spacing apart: isosceles triangles (base a, height
  // a)
  for (int cells : {16, 32, 64, 128}) {
    std::printf("| equilateral, isosceles | %d x %d |", cells + 1, cells + 1);
    for (const Choice& c : choices)
      std::printf(" %+.2f %% |",
                  100.0 * (plate_ratio(io::MeshPattern::equilateral, {cells, cells}, c) - 1.0));
    std::printf("\n");
  }
}

}  // namespace

int main() {
  strip_tables();
  plate_table();
  return 0;
}
