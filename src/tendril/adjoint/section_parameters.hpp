#pragma once
/// Parameters of the rods' cross-section and torsion (docs/physics/gradients.md, "Parameters"):
/// the radius of circular sections, on which the residual depends as a polynomial of degree 4, and
/// the shear modulus, on which it depends affinely.

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"

namespace tendril::adjoint {

/// The radius r [m] of every rod's circular section, whose current value in `model` is `radius`:
/// EA and the node masses scale with r^2, EI_1, EI_2, GJ and the twist inertias with r^4 (degree
/// 4). Contact radii and drag laws keep their own values. InputError "radius" for a value that is
/// not > 0, a model without rods or one with shells (whose node masses would mix in).
Parameter rod_radius(const Model& model, double radius);

/// The shear modulus G [Pa] of every rod, whose current value in `model` is `shear_modulus`: the
/// twist stiffnesses GJ scale with G. (youngs_modulus scales GJ too, at a fixed Poisson ratio:
/// listed together, GJ follows both.)
Parameter shear_modulus(const Model& model, double shear_modulus);

}  // namespace tendril::adjoint
