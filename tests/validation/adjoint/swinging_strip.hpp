#pragma once
/// A shell strip swinging down under gravity, a run whose gradient is checked (shared by the
/// validation tests of the adjoint and of the forward sensitivities).

#include <memory>
#include <vector>

#include "tendril/forces/gravity.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/io/shell_generators.hpp"
#include "tendril/rod/rod_builder.hpp"
#include "tendril/shell/shell_builder.hpp"
#include "validation/adjoint/gradient_case.hpp"

namespace tendril::test {

/// A 0.2 m x 0.05 m strip (7 x 3 nodes, alternating pattern; E 2e7 Pa, nu 0.3, rho 1000 kg/m^3,
/// h 4 mm) clamped by its two first columns of nodes, under gravity along -z, 25 steps of 2 ms;
/// L is the tip nodes' distance to points below them at the end plus the time integral of the
/// tip's height.
inline GradientCase swinging_strip(ShellBending bending) {
  const io::TriangleMesh mesh = io::rectangle_mesh(0.2, 0.05, 7, 3, io::MeshPattern::alternating);
  ShellInput input;
  input.triangles = mesh.triangles;
  input.material = {
      .youngs_modulus = 2e7, .poisson_ratio = 0.3, .density = 1000.0, .thickness = 4e-3};
  input.bending = bending;
  GradientCase c;
  c.model = build_shell_model(mesh.nodes, {input});
  c.model.energies.push_back(std::make_shared<GravityEnergy>(Vec3(0.0, 0.0, -9.81)));
  std::vector<int> tips;
  for (int i = 0; i < c.model.dofs.num_nodes; ++i) {
    const double x = mesh.nodes[static_cast<std::size_t>(i)].x();
    if (x < 0.2 / 6.0 + 1e-9)
      for (int d = 0; d < 3; ++d) c.model.fixed[static_cast<std::size_t>(3 * i + d)] = 1;
    if (x > 0.2 - 1e-9) tips.push_back(i);
  }
  c.initial.q = rest_configuration(c.model);
  c.initial.u = VecX::Zero(c.model.dofs.size());
  initialize_frames(c.model, c.initial.q, c.initial.frames);
  c.options = tight_euler(2e-3);
  c.steps = 25;
  std::vector<adjoint::NodeTarget> targets;
  for (int tip : tips)
    targets.push_back({tip, 25, mesh.nodes[static_cast<std::size_t>(tip)] - Vec3(0.01, 0.0, 0.05)});
  c.objective = adjoint::sum(
      {adjoint::distance_to_targets(c.model, targets),
       adjoint::position_time_integral(c.model, tips[0], Vec3::UnitZ(), c.options.dt)});
  c.parameters = {adjoint::youngs_modulus(c.model, 2e7), adjoint::shell_thickness(c.model, 4e-3),
                  adjoint::density(c.model, 1000.0)};
  return c;
}

}  // namespace tendril::test
