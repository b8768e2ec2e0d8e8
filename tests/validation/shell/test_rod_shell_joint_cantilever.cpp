// A rod cantilever welded at its free end to a stiff square plate (rod-shell joint,
// mat_dismech 3.4) and loaded by the plate's weight, against Euler-Bernoulli beam theory (Gere &
// Timoshenko, Mechanics of Materials, 4th ed., Table G-1, cases 4 and 6: a cantilever of length L
// with a tip force P and a tip moment M has w_L = P L^3 / (3 EI) + M L^2 / (2 EI) and theta_L = P
// L^2 / (2 EI) + M L / EI). The plate's weight P acts at its centroid, d = a / 2 beyond the joint,
// so M = P d, and the (rigid) plate's load-weighted mean deflection is w_L + theta_L d. With the
// plate's corner at the rod's tip instead (its centroid d beyond and d to the side), the weight
// also twists the rod by phi_L = P d L / (G J) (Saint-Venant torsion of a circular shaft) and the
// plate's mean deflection is w_L + theta_L d + phi_L d. A bend-twist joint passes both moments;
// with a pin joint (positions shared only) the plate turns freely about the joint node: a
// mechanism. Small-load linear solutions.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "shell/linear_static.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/shell/rod_shell_joint.hpp"
#include "tendril/shell/shell_builder.hpp"

namespace tendril {
namespace {

constexpr double rod_length = 1.0, radius = 0.005, rod_modulus = 1e9;  // EI = 0.49 N m^2
constexpr double side = 0.2, plate_thickness = 0.01, plate_modulus = 1e12,
                 load = 1.0;  // plate D = 8.3e4 N m

struct Cantilever {
  Model model;
  std::vector<int> plate_nodes;  // model nodes of the plate (the joint node included)
};

/// Rod along x to (L, 0, 0), clamped by fixing nodes 0, 1 and the first twist, node 0 half an edge
/// behind the origin so that the clamped edge's midpoint, where DER's clamp acts, is at x = 0 (as
/// io::straight_rod's clamp_offset); plate [L, L + a] x [-a/2, a/2] of `plate_nodes` x
/// `plate_nodes` nodes (odd, so that (L, 0, 0) is a plate node: the joint); `corner`: the plate [L,
/// L + a] x [0, a] instead.
Cantilever build(int rod_edges, int plate_nodes, bool bend_twist, bool corner = false,
                 ShellBending bending = ShellBending::hinge) {
  RodNetworkInput rod;
  const double dl = rod_length / (rod_edges - 0.5);
  for (int i = 0; i <= rod_edges; ++i) rod.nodes.push_back(Vec3((i - 0.5) * dl, 0, 0));
  for (int i = 0; i < rod_edges; ++i) rod.edges.push_back({i, i + 1});
  RodMaterial material;
  material.youngs_modulus = rod_modulus;
  material.poisson_ratio = 0.3;
  material.density = 1.0;
  material.radius = radius;
  rod.materials.push_back(material);
  Cantilever c;
  c.model = build_rod_model(rod);
  io::TriangleMesh mesh =
      io::rectangle_mesh(side, side, plate_nodes, plate_nodes, io::MeshPattern::right);
  std::vector<int> map;
  std::vector<Vec3> fresh;
  for (Vec3& x : mesh.nodes) {
    x += corner ? Vec3(rod_length, 0, 0) : Vec3(rod_length, -0.5 * side, 0);
    if ((x - Vec3(rod_length, 0, 0)).norm() < 1e-12) {
      map.push_back(rod_edges);
      continue;
    }
    map.push_back(c.model.dofs.num_nodes + static_cast<int>(fresh.size()));
    fresh.push_back(x);
  }
  append_nodes(c.model, fresh);
  ShellInput shell;
  for (const auto& t : mesh.triangles) shell.triangles.push_back({map[t[0]], map[t[1]], map[t[2]]});
  shell.material = {plate_modulus, 0.3, 0.0, plate_thickness};
  // hinge bending by default: a rigid motion of the plate is then free of energy without adjusting
  // xi
  shell.bending = bending;
  add_shells(c.model, {shell});
  if (bend_twist) add_rod_shell_joints(c.model, {rod_edges});
  for (int n : {0, 1})
    for (int d : c.model.dofs.node_dofs(n)) c.model.fixed[static_cast<std::size_t>(d)] = 1;
  c.model.fixed[static_cast<std::size_t>(c.model.dofs.twist(0))] = 1;
  c.plate_nodes = map;
  return c;
}

/// Downward load on the plate nodes, proportional to their share of the plate area (a uniform plate
/// weight).
VecX plate_weight(const Cantilever& c) {
  VecX f = VecX::Zero(c.model.dofs.size());
  const auto x = [&](int n) -> Vec3 {
    return c.model.rest_positions.segment<3>(c.model.dofs.node(n));
  };
  const double total_area = side * side;
  for (const auto& t : c.model.shells.triangles) {
    const double area = 0.5 * (x(t[1]) - x(t[0])).cross(x(t[2]) - x(t[0])).norm();
    for (int n : t) f[c.model.dofs.node(n) + 2] -= load * area / total_area / 3.0;
  }
  return f;
}

/// Load-weighted mean deflection of the plate over the beam-theory value.
double deflection_ratio(int rod_edges, int plate_nodes, bool corner,
                        ShellBending bending = ShellBending::hinge) {
  const Cantilever c = build(rod_edges, plate_nodes, true, corner, bending);
  const VecX f = plate_weight(c);
  const VecX u = test::linear_static_displacement(c.model, f);
  const double measured = f.dot(u) / f.sum();  // sum f_i u_i / sum f_i over the z components
  const double ei = rod_modulus * M_PI * std::pow(radius, 4) / 4.0, d = 0.5 * side;
  const double gj = rod_modulus / (2.0 * 1.3) * M_PI * std::pow(radius, 4) / 2.0;
  const double m = load * d, twist = corner ? m * rod_length / gj : 0.0;
  const double w_tip =
      load * std::pow(rod_length, 3) / (3 * ei) + m * rod_length * rod_length / (2 * ei);
  const double slope = load * rod_length * rod_length / (2 * ei) + m * rod_length / ei;
  return measured / -(w_tip + slope * d + twist * d);
}

TEST(RodShellJointCantilever, BendTwistJointCarriesThePlateLikeABeam) {
  // second order in the rod's edge length (measured: bending 0.99902, 0.99975, 0.99999 at 20, 40,
  // 80 edges)
  for (bool corner : {false, true}) {
    double previous = 0.0;
    for (int n : {20, 40, 80}) {
      const double ratio = deflection_ratio(n, 5, corner);
      std::printf("%s, rod edges %d, plate 5 x 5 nodes: deflection / beam theory = %.5f\n",
                  corner ? "bending and torsion" : "bending", n, ratio);
      EXPECT_NEAR(ratio, 1.0, 5e-3);
      EXPECT_LT(std::abs(ratio - 1.0), std::abs(previous - 1.0));
      previous = ratio;
    }
    const double fine = deflection_ratio(40, 9, corner);
    std::printf("%s, rod edges 40, plate 9 x 9 nodes: deflection / beam theory = %.5f\n",
                corner ? "bending and torsion" : "bending", fine);
    EXPECT_NEAR(fine, 1.0, 5e-3);
  }
}

TEST(RodShellJointCantilever, MidEdgePlateToo) {
  // the joint edges of a mid-edge shell carry both xi and theta (mat_dismech 3.4)
  for (bool corner : {false, true}) {
    const double ratio = deflection_ratio(40, 5, corner, ShellBending::midedge);
    std::printf("mid-edge plate, %s, rod edges 40: deflection / beam theory = %.5f\n",
                corner ? "bending and torsion" : "bending", ratio);
    EXPECT_NEAR(ratio, 1.0, 5e-3);
  }
}

TEST(RodShellJointCantilever, PinJointIsAMechanism) {
  // the plate turning rigidly about the joint node (about the y axis, the axis of the weight's
  // moment) costs no energy with a pin joint; with the bend-twist joint, v^T K v of the unit
  // rotation (joint-edge twists held) is much more than the whole rod's EI / L
  for (bool bend_twist : {false, true}) {
    const Cantilever c = build(20, 5, bend_twist);
    VecX v = VecX::Zero(c.model.dofs.size());
    const Vec3 joint(rod_length, 0, 0), axis = Vec3::UnitY();
    for (int n : c.plate_nodes) {
      if (n == 20) continue;  // the joint node, the rod's last
      v.segment<3>(c.model.dofs.node(n)) =
          axis.cross(c.model.rest_positions.segment<3>(c.model.dofs.node(n)) - joint);
    }
    const double stiffness = test::energy_hessian_form(c.model, v);
    const double ei = rod_modulus * M_PI * std::pow(radius, 4) / 4.0;
    std::printf(
        "%s joint: rotational stiffness of the plate about the joint = %.4g N m (EI / L = %.4g)\n",
        bend_twist ? "bend-twist" : "pin", stiffness, ei / rod_length);
    if (bend_twist)
      EXPECT_GT(stiffness, 10.0 * ei / rod_length);
    else  // zero up to the round-off of the plate's membrane stiffness E h
      EXPECT_LT(std::abs(stiffness), 1e-12 * plate_modulus * plate_thickness * v.squaredNorm());
  }
}

}  // namespace
}  // namespace tendril
