// Aerodynamic drag on shell triangles inside the integrators (mat_dismech 5.4, eq. 29): the force
// depends on q through the unit normals and on u quadratically, so Newton with its exact Jacobians
// (dF/dq + c_u dF/du, not symmetric: the Newton system factorizes with LU) must converge
// quadratically: the observed order log(r_{k+1}/r_k) / log(r_k/r_{k-1}) reaches about 2 above the
// round-off floor. A flapping hinge-bending plate (a soft membrane, so the normals turn within a
// step) with gravity, one corner fixed, a seeded random initial velocity.
#include <memory>
#include <random>

#include <gtest/gtest.h>

#include "support/newton_order.hpp"
#include "tendril/forces/aerodynamic_drag.hpp"
#include "tendril/forces/gravity.hpp"
#include "tendril/integrate/time_stepper.hpp"
#include "unit/shell/shell_meshes.hpp"

namespace tendril {
namespace {

TEST(ShellDragNewton, AerodynamicDragConvergesQuadratically) {
  for (Scheme scheme : {Scheme::implicit_euler, Scheme::implicit_midpoint}) {
    test::BuiltShell s =
        test::build(io::rectangle_mesh(1.0, 0.8, 6, 5, io::MeshPattern::equilateral),
                    ShellBending::hinge, ShellMembrane::cst);
    s.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
    s.model.forces.push_back(std::make_shared<AerodynamicDrag>(s.model, 1.2, 5.0));
    for (int d : s.model.dofs.node_dofs(0)) s.model.fixed[static_cast<std::size_t>(d)] = 1;
    State state;
    state.q = s.q;
    state.u = VecX::Zero(s.q.size());
    state.frames = s.frames;
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 3; i < 3 * s.model.dofs.num_nodes; ++i) state.u[i] = 2.0 * unit(rng);
    DynamicsOptions options;
    options.scheme = scheme;
    options.dt = 0.01;
    options.newton.force_tolerance = 1e-13;
    TimeStepper stepper(s.model, options, s.q);
    double best = 0.0;
    for (int k = 0; k < 5; ++k) {
      const StepReport report = stepper.step(state);
      ASSERT_TRUE(report.ok()) << report.message;
      EXPECT_EQ(report.dt_halvings, 0);
      best = std::max(best, testing::best_order(report.residual_history,
                                                1e-10 * report.residual_history.front()));
    }
    EXPECT_GT(best, 1.8) << "scheme " << static_cast<int>(scheme);
  }
}

}  // namespace
}  // namespace tendril
