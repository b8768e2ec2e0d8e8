// The slit annular plate lifted by a line force (Sze, Liu & Lo 2004, "Popular benchmark problems
// for geometric nonlinear analysis of shells", Finite Elements in Analysis and Design 40,
// 1551-1569): an annulus R_i = 6 to R_o = 10 (h = 0.03, E = 21e6, nu = 0) cut along one radius,
// clamped on one side of the slit and lifted on the other by a uniform line force of 0.8 per unit
// length; at full load the lifted edge rises above the plate's radius and the plate twists into a
// helicoid. A mid-edge shell on the coarse mesh (6 cells across, 60 around) in one static solve at
// full load, against the same solve on a mesh twice as fine in each direction and against the
// defining property of the frame-consistent equilibrium: solves from the edge frames of the
// solution itself (tau = n_avg x e_hat, the update of mat_dismech 3.3.2) do not move it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/forces/point_load.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/integrate/static_solver.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/shell_builder.hpp"

namespace tendril {
namespace {

constexpr double inner = 6.0, outer = 10.0, line_force = 0.8;

struct SlitPlate {
  Model model;
  VecX q0;
  VecX load;         ///< nodal forces of the line load [N] (#dofs)
  int a = 0, b = 0;  ///< the lifted edge's nodes at R_i (A) and R_o (B)
};

/// The plate with `across` cells from R_i to R_o and `around` cells around, on a right mesh; the
/// nodes at angle 0 are clamped (positions and the xi of the edges between them fixed), those at 2
/// pi (the other side of the slit, not joined to the first) carry the line force along +z.
SlitPlate slit_plate(int across, int around) {
  const double angle = 2.0 * std::numbers::pi;
  const io::TriangleMesh grid =
      io::rectangle_mesh(angle, outer - inner, around + 1, across + 1, io::MeshPattern::right);
  std::vector<Vec3> nodes;
  for (const Vec3& p : grid.nodes) {
    const double r = inner + p.y();
    nodes.emplace_back(r * std::cos(p.x()), r * std::sin(p.x()), 0.0);
  }
  ShellInput input;
  input.triangles = grid.triangles;
  input.material = {21e6, 0.0, 1.0, 0.03};
  input.bending = ShellBending::midedge;
  SlitPlate s{build_shell_model(nodes, {input}), {}, {}};
  Model& model = s.model;
  s.load = VecX::Zero(model.dofs.size());
  const double spacing = (outer - inner) / across;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Vec3& p = grid.nodes[i];
    const int node = static_cast<int>(i);
    if (p.x() < 1e-9)
      for (int d : model.dofs.node_dofs(node)) model.fixed[static_cast<std::size_t>(d)] = 1;
    if (p.x() > angle - 1e-9) {
      const bool end = p.y() < 1e-9 || p.y() > outer - inner - 1e-9;
      s.load[3 * node + 2] = line_force * spacing * (end ? 0.5 : 1.0);
      model.forces.push_back(
          std::make_shared<PointLoad>(node, Vec3(0.0, 0.0, s.load[3 * node + 2])));
      if (p.y() < 1e-9) s.a = node;
      if (p.y() > outer - inner - 1e-9) s.b = node;
    }
  }
  // the clamped side holds its mid-edge normals
  const ShellMesh& shells = model.shells;
  for (std::size_t e = 0; e < shells.edges.size(); ++e)
    if (grid.nodes[static_cast<std::size_t>(shells.edges[e][0])].x() < 1e-9 &&
        grid.nodes[static_cast<std::size_t>(shells.edges[e][1])].x() < 1e-9)
      model.fixed[static_cast<std::size_t>(model.dofs.xi(shells.edge_xi[e]))] = 1;
  s.q0 = rest_configuration(model);
  return s;
}

/// One static solve of `s` from rest at full load with `solver`; `report` set.
State solved_from_rest(const SlitPlate& s, StaticSolver& solver, StaticReport& report) {
  State state;
  state.q = s.q0;
  state.u = VecX::Zero(s.q0.size());
  initialize_frames(s.model, s.q0, state.frames);
  report = solver.solve(state);
  return state;
}

/// The edge frames of mat_dismech 3.3.2 recomputed from the accepted configuration q: n_avg x
/// e_hat of q itself, except the clamped edges', which keep those of the rest shape.
RodFrames own_frames(const SlitPlate& s, const VecX& q) {
  RodFrames own, rest;
  initialize_frames(s.model, q, own);
  initialize_frames(s.model, s.q0, rest);
  for (std::size_t z = 0; z < own.shell_edge_tau.size(); ++z)
    if (s.model.fixed[static_cast<std::size_t>(s.model.dofs.xi(static_cast<int>(z)))])
      own.shell_edge_tau[z] = rest.shell_edge_tau[z];
  return own;
}

TEST(SlitAnnularPlate, OneStaticSolveAtFullLoadIsTheConvergedEquilibrium) {
  const SlitPlate coarse = slit_plate(6, 60);
  StaticSolver solver(coarse.model, StaticOptions{}, coarse.q0);
  StaticReport report;
  State state = solved_from_rest(coarse, solver, report);
  ASSERT_TRUE(report.ok()) << report.message;
  const double w_a = state.q[3 * coarse.a + 2], w_b = state.q[3 * coarse.b + 2];

  // repeated solves, each from the frames recomputed from the solution (the paper's update, xi
  // keeping its value), stay there
  double moved = 0.0;
  for (int k = 1; k <= 4; ++k) {
    const VecX before = state.q;
    state.time = 0.01 * k;
    state.frames = own_frames(coarse, state.q);
    const StaticReport again = solver.solve(state);
    ASSERT_TRUE(again.ok()) << "re-solve " << k << ": " << again.message;
    for (int i = 0; i < coarse.model.dofs.num_nodes; ++i)
      moved = std::max(moved, (state.q - before).segment<3>(3 * i).cwiseAbs().maxCoeff());
  }

  const SlitPlate fine = slit_plate(12, 120);
  StaticSolver fine_solver(fine.model, StaticOptions{}, fine.q0);
  StaticReport fine_report;
  const State fine_state = solved_from_rest(fine, fine_solver, fine_report);
  ASSERT_TRUE(fine_report.ok()) << fine_report.message;
  const double fine_a = fine_state.q[3 * fine.a + 2], fine_b = fine_state.q[3 * fine.b + 2];
  std::printf(
      "slit annular plate, 6 x 60: W_A %.4f W_B %.4f (%d stages, %d iterations), largest node "
      "move in 4 re-solves from its own frames %.2e; 12 x 120: W_A %.4f W_B %.4f\n",
      w_a, w_b, report.load_stages, report.iterations, moved, fine_a, fine_b);
  EXPECT_LT(moved, 1e-6 * (outer - inner));
  EXPECT_GT(w_b, outer) << "a large deflection: the lifted edge rises above the plate's radius";
  EXPECT_NEAR(w_a, fine_a, 0.02 * fine_a);
  EXPECT_NEAR(w_b, fine_b, 0.02 * fine_b);
}

}  // namespace
}  // namespace tendril
