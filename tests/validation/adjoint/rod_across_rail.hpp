#pragma once
/// The free rod across a fixed one (unit/adjoint/rods_in_contact.hpp) as a run whose gradient is
/// checked (shared by the validation tests of the adjoint and of the forward sensitivities).

#include <utility>

#include "tendril/adjoint/contact_parameters.hpp"
#include "tendril/adjoint/parameter.hpp"
#include "unit/adjoint/rods_in_contact.hpp"
#include "validation/adjoint/gradient_case.hpp"

namespace tendril::test {

/// The free rod across the fixed one at `height`, moving at `velocity`; 40 steps of 2 ms. The
/// parameters are E, rho, the contact stiffness and the friction coefficient.
inline GradientCase rod_across_rail_case(double height, const Vec3& velocity) {
  RodsInContact rods = rod_across_rail(height, velocity);
  const Model& model = rods.model;
  const std::size_t contact = model.energies.size() - 1;
  GradientCase c;
  c.initial = std::move(rods.initial);
  c.options = tight_euler(2e-3);
  // the first step's residual can stall at 9e-12 N, above its relative tolerance (a load-free
  // start; the Newton stopping floor of contact scenes)
  c.options.newton.force_tolerance_abs = 1e-11;
  c.steps = 40;
  c.objective = adjoint::sum(
      {adjoint::distance_to_targets(model, {{15, 40, {0.05, 0.25, 0.0}}}),
       adjoint::position_time_integral(model, 13, Vec3(1.0, 0.5, 100.0), c.options.dt)});
  c.parameters = {adjoint::youngs_modulus(model, 1e7), adjoint::density(model, 1273.52),
                  adjoint::contact_stiffness(model, contact, 0),
                  adjoint::friction_coefficient(model, contact, 0)};
  c.model = std::move(rods.model);
  return c;
}

}  // namespace tendril::test
