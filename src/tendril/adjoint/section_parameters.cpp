#include "tendril/adjoint/section_parameters.hpp"

#include <cmath>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"

namespace tendril::adjoint {
namespace {

/// InputError `key` unless value is finite and > 0.
void require_positive(double value, const char* key, const char* allowed) {
  if (!(std::isfinite(value) && value > 0.0)) throw InputError(key, number_text(value), allowed);
}

}  // namespace

Parameter rod_radius(const Model& model, double radius) {
  require_positive(radius, "radius", "the rods' radius > 0 [m]");
  if (model.rods.edges.empty() || !model.shells.triangles.empty())
    throw InputError("radius", number_text(radius), "a model of rods without shells");
  Parameter p{"radius", radius, [radius](Model& m, double value) {
                const double s2 = (value / radius) * (value / radius), s4 = s2 * s2;
                scale_rod_stiffnesses(m.rods, s2, s4, s4);
                for (int i = 0; i < m.dofs.size(); ++i) m.mass[i] *= m.dofs.is_twist(i) ? s4 : s2;
              }};
  p.degree = 4;
  return p;
}

Parameter shear_modulus(const Model& /*model*/, double shear_modulus) {
  require_positive(shear_modulus, "shear_modulus", "the rods' shear modulus > 0 [Pa]");
  return {"shear_modulus", shear_modulus, [shear_modulus](Model& m, double value) {
            scale_rod_stiffnesses(m.rods, 1.0, 1.0, value / shear_modulus);
          }};
}

}  // namespace tendril::adjoint
