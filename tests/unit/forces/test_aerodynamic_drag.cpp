// AerodynamicDrag: F_i = - rho_med C_D A_k / 6 sgn(u_i . n_k) (u_i . n_k)^2 n_k summed over the
// triangles of node i (mat_dismech 5.4, eq. 29, Appendix B), on a regular and an irregular curved
// mesh.
#include <gtest/gtest.h>

#include "media_state.hpp"
#include "support/conformance.hpp"
#include "support/input_error.hpp"
#include "tendril/forces/aerodynamic_drag.hpp"
#include "unit/shell/shell_meshes.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(AerodynamicDrag, JacobiansMatchFiniteDifferencesOnRegularAndIrregularMeshes) {
  for (const io::TriangleMesh& mesh :
       {io::rectangle_mesh(1.0, 0.8, 4, 3, io::MeshPattern::equilateral),
        test::irregular_mesh(3)}) {
    const test::BuiltShell s = test::build(mesh, ShellBending::hinge, ShellMembrane::cst);
    const AerodynamicDrag drag(s.model, 1.2, 0.8);
    for (unsigned seed : {1u, 2u, 3u}) {
      const VecX q = perturbed(s.model, s.q, 0.05, 0.0, seed);
      const VecX u = testing::random_velocity(q.size(), 2.0, seed + 10);
      expect_force_conforms(drag, s.model, s.frames, q, u, 0.0);
    }
  }
}

TEST(AerodynamicDrag, HandComputedValueOnOneTriangle) {
  // the right triangle (0,0,0), (2,0,0), (0,1,0): A = 1, n = +z; node 1 moves with u = (1, 2, -3)
  io::TriangleMesh mesh;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 1, 0)};
  mesh.triangles = {{0, 1, 2}};
  const test::BuiltShell s = test::build(mesh, ShellBending::hinge, ShellMembrane::cst);
  const double rho = 1.5, cd = 2.0;
  const AerodynamicDrag drag(s.model, rho, cd);
  VecX u = VecX::Zero(s.q.size());
  u.segment<3>(3) = Vec3(1, 2, -3);
  const ForceEval f = evaluate_force(drag, s.model, s.frames, s.q, u, 0.0);
  // s = u . n = -3: F = - rho C_D A / 6 sgn(s) s^2 n = + 1.5 * 2 / 6 * 9 z
  EXPECT_NEAR((f.force.segment<3>(3) - Vec3(0, 0, rho * cd / 6.0 * 9.0)).norm(), 0.0, 1e-14);
  EXPECT_EQ(f.force.segment<3>(0).norm(), 0.0);
  EXPECT_EQ(f.force.segment<3>(6).norm(), 0.0);
  EXPECT_FALSE(drag.has_symmetric_jacobian());
}

TEST(AerodynamicDrag, RigidTranslationInThePlaneFeelsNoDrag) {
  const test::BuiltShell s =
      test::build(io::hexagon_mesh(1.0, 2), ShellBending::midedge, ShellMembrane::cst);
  const AerodynamicDrag drag(s.model, 1.0, 10.0);
  VecX u = VecX::Zero(s.q.size());
  for (int i = 0; i < s.model.dofs.num_nodes; ++i) u.segment<3>(3 * i) = Vec3(0.3, -2.0, 0.0);
  EXPECT_LT(evaluate_force(drag, s.model, s.frames, s.q, u, 0.0).force.norm(), 1e-14);
  // falling flat at speed v: the total drag is rho C_D A v^2 / 2 (each node carries A_k / 3 of each
  // triangle, and the paper's factor 1/6 gives half of that: the flat plate drag m g = 1/2 rho C_D
  // A v^2)
  for (int i = 0; i < s.model.dofs.num_nodes; ++i) u.segment<3>(3 * i) = Vec3(0.0, 0.0, -2.0);
  const VecX f = evaluate_force(drag, s.model, s.frames, s.q, u, 0.0).force;
  double fz = 0.0;
  for (int i = 0; i < s.model.dofs.num_nodes; ++i) fz += f[3 * i + 2];
  const double area = 1.5 * std::sqrt(3.0);  // regular hexagon of side 1
  EXPECT_NEAR(fz, 0.5 * 1.0 * 10.0 * area * 4.0, 1e-12);
}

TEST(AerodynamicDrag, BadInputNamesTheKey) {
  const test::BuiltShell s =
      test::build(io::hexagon_mesh(1.0, 1), ShellBending::hinge, ShellMembrane::cst);
  testing::expect_input_error([&] { AerodynamicDrag(s.model, -1.0, 1.0); },
                              {"aerodynamic_drag.density", "-1"});
  testing::expect_input_error([&] { AerodynamicDrag(s.model, 1.0, -2.0); },
                              {"aerodynamic_drag.drag_coefficient", "-2"});
}

}  // namespace
}  // namespace tendril
