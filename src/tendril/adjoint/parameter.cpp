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

/// Multiplies the shell stiffnesses: the membranes' moduli (CST Lame moduli, edge springs) by
/// `membrane_moduli` and their thickness (CST thickness, edge springs) by `membrane_thickness`,
/// the bending stiffnesses (hinges, mid-edge triangles) by `bending`.
void scale_shells(double membrane_moduli, double membrane_thickness, double bending,
                  ShellMesh& shells) {
  for (MembraneTriangle& t : shells.membrane_triangles) {
    t.lame_mu *= membrane_moduli;
    t.lame_lambda *= membrane_moduli;
    t.thickness *= membrane_thickness;
  }
  for (ShellEdgeSpring& s : shells.edge_springs)
    s.stiffness *= membrane_moduli * membrane_thickness;
  for (ShellHinge& h : shells.hinges) h.stiffness *= bending;
  for (MidEdgeTriangle& t : shells.midedge_triangles) t.stiffness *= bending;
}

}  // namespace

double Parameter::difference_step() const {
  const double scale = value != 0.0 ? std::abs(value) : 1.0;
  return degree == 1 && !tangent ? scale : 0.25 * scale;
}

Parameter youngs_modulus(const Model& /*model*/, double youngs_modulus) {
  require_positive(youngs_modulus, "youngs_modulus", "the model's Young's modulus > 0 [Pa]");
  return {"youngs_modulus", youngs_modulus, [youngs_modulus](Model& m, double value) {
            const double scale = value / youngs_modulus;
            scale_rod_stiffnesses(m.rods, scale, scale, scale);
            scale_shells(scale, 1.0, scale, m.shells);
          }};
}

Parameter shell_thickness(const Model& model, double thickness) {
  require_positive(thickness, "thickness", "the shells' thickness > 0 [m]");
  if (model.shells.triangles.empty())
    throw InputError("thickness", number_text(thickness), "a model with shells");
  if (!model.shells.joint_edges.empty())
    throw InputError("thickness", number_text(thickness),
                     "a model without rod-shell joints (their nodes' masses mix rod and shell)");
  std::vector<int> shell_dofs;  // the position DOFs of the shell nodes, whose masses scale with h
  std::vector<std::uint8_t> in_shell(static_cast<std::size_t>(model.dofs.num_nodes), 0);
  for (const auto& t : model.shells.triangles)
    for (int node : t) in_shell[static_cast<std::size_t>(node)] = 1;
  for (const auto& e : model.rods.edges)
    for (int node : e)
      if (in_shell[static_cast<std::size_t>(node)])
        throw InputError(
            "thickness", number_text(thickness),
            "a model whose shell nodes belong to no rod (node " + std::to_string(node) + " does)");
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    if (in_shell[static_cast<std::size_t>(i)])
      for (int d = 0; d < 3; ++d) shell_dofs.push_back(model.dofs.node(i) + d);
  Parameter p{"thickness", thickness, [shell_dofs, thickness](Model& m, double value) {
                const double scale = value / thickness;
                scale_shells(1.0, scale, scale * scale * scale, m.shells);
                for (int d : shell_dofs) m.mass[d] *= scale;
              }};
  p.degree = 3;
  return p;
}

Parameter density(const Model& /*model*/, double density) {
  require_positive(density, "density", "the model's density > 0 [kg/m^3]");
  return {"density", density, [density](Model& m, double value) { m.mass *= value / density; }};
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

void scale_rod_stiffnesses(RodNetwork& rods, double stretch, double bend, double twist) {
  for (double& k : rods.stretch_stiffness) k *= stretch;
  for (Vec3& k : rods.bend_twist_stiffness) k = k.cwiseProduct(Vec3(bend, bend, twist));
  for (BendTwistSpring& s : rods.springs) {
    s.bend_stiffness_1 *= bend;
    s.bend_stiffness_2 *= bend;
    s.twist_stiffness *= twist;
  }
}

Model with_parameters(const Model& model, const std::vector<Parameter>& parameters) {
  Model copy = model;
  for (const Parameter& p : parameters) p.apply(copy, p.value);
  return copy;
}

Model with_moved_parameter(const Model& model, const std::vector<Parameter>& parameters,
                           std::size_t i, double offset) {
  Model copy = model;
  for (std::size_t j = 0; j < parameters.size(); ++j) {
    const Parameter& p = parameters[j];
    if (j != i)
      p.apply(copy, p.value);
    else if (p.tangent)
      p.tangent(copy, p.value, offset);
    else
      p.apply(copy, p.value + offset);
  }
  return copy;
}

}  // namespace tendril::adjoint
