#include "tendril/adjoint/parameter.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/forces/viscous_drag.hpp"

namespace tendril::adjoint {
namespace {

void require_positive(double value, const std::string& key, const std::string& allowed) {
  if (!(std::isfinite(value) && value > 0.0)) throw InputError(key, number_text(value), allowed);
}

}  // namespace

double Parameter::difference_step() const {
  const double scale = value != 0.0 ? std::abs(value) : 1.0;
  return degree == 1 ? scale : 0.25 * scale;
}

Parameter youngs_modulus(const Model& model, double youngs_modulus) {
  require_positive(youngs_modulus, "youngs_modulus", "the model's Young's modulus > 0 [Pa]");
  const RodNetwork base = model.rods;
  return {"youngs_modulus", youngs_modulus, [base, youngs_modulus](Model& m, double value) {
            const double scale = value / youngs_modulus;
            for (std::size_t e = 0; e < base.stretch_stiffness.size(); ++e)
              m.rods.stretch_stiffness[e] = scale * base.stretch_stiffness[e];
            for (std::size_t e = 0; e < base.bend_twist_stiffness.size(); ++e)
              m.rods.bend_twist_stiffness[e] = scale * base.bend_twist_stiffness[e];
            for (std::size_t k = 0; k < base.springs.size(); ++k) {
              BendTwistSpring& s = m.rods.springs[k];
              s.bend_stiffness_1 = scale * base.springs[k].bend_stiffness_1;
              s.bend_stiffness_2 = scale * base.springs[k].bend_stiffness_2;
              s.twist_stiffness = scale * base.springs[k].twist_stiffness;
            }
          }};
}

Parameter density(const Model& model, double density) {
  require_positive(density, "density", "the model's density > 0 [kg/m^3]");
  const VecX base = model.mass;
  return {"density", density,
          [base, density](Model& m, double value) { m.mass = (value / density) * base; }};
}

Parameter uniform_natural_curvature(int component, double curvature) {
  if (component != 0 && component != 1)
    throw InputError("component", std::to_string(component), "0 (kappa_1) or 1 (kappa_2)");
  Parameter p;
  p.name = "natural_curvature_" + std::to_string(component + 1);
  p.value = curvature;
  p.apply = [component](Model& m, double value) {
    for (BendTwistSpring& s : m.rods.springs)
      s.natural_curvature[component] = value * s.voronoi_length;
  };
  return p;
}

Parameter spring_natural_curvature(const Model& model, int spring, int component) {
  const int springs = static_cast<int>(model.rods.springs.size());
  if (spring < 0 || spring >= springs)
    throw InputError("spring", std::to_string(spring),
                     "a rod spring index in [0, " + std::to_string(springs) + ")");
  if (component != 0 && component != 1)
    throw InputError("component", std::to_string(component), "0 (kappa_1) or 1 (kappa_2)");
  Parameter p;
  p.name =
      "spring_" + std::to_string(spring) + ".natural_curvature_" + std::to_string(component + 1);
  p.value = model.rods.springs[static_cast<std::size_t>(spring)].natural_curvature[component];
  p.apply = [spring, component](Model& m, double value) {
    m.rods.springs[static_cast<std::size_t>(spring)].natural_curvature[component] = value;
  };
  return p;
}

Parameter viscosity(const Model& model, std::size_t force_index, std::vector<int> nodes,
                    double viscosity) {
  if (force_index >= model.forces.size() ||
      !dynamic_cast<const ViscousDrag*>(model.forces[force_index].get()))
    throw InputError("force_index", std::to_string(force_index),
                     "the index of a viscous_drag term in Model::forces");
  const ViscousDrag check(model, nodes, viscosity);  // validates nodes and viscosity
  Parameter p;
  p.name = "viscosity";
  p.value = viscosity;
  p.apply = [force_index, nodes = std::move(nodes)](Model& m, double value) {
    m.forces[force_index] = std::make_shared<ViscousDrag>(m, nodes, value);
  };
  return p;
}

Model with_parameters(const Model& model, const std::vector<Parameter>& parameters) {
  Model copy = model;
  for (const Parameter& p : parameters) p.apply(copy, p.value);
  return copy;
}

}  // namespace tendril::adjoint
