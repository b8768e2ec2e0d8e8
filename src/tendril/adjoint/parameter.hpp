#pragma once
/// Scalar parameters of a Model on which the step residual depends as a polynomial of low degree
/// (stiffnesses proportional to Young's modulus, masses to the density, natural curvatures, drag
/// viscosities: affine; a rod's radius: degree 4). For such a parameter p the residual's
/// derivative dr/dp is exact (up to round-off) from the difference stencil of its degree: (r(p +
/// d) - r(p)) / d when affine, the fourth-order central difference otherwise, so it is taken from
/// residual evaluations on model copies; see docs/physics/gradients.md, "Parameters".

#include <functional>
#include <string>
#include <vector>

#include "tendril/core/model.hpp"

namespace tendril::adjoint {

struct Parameter {
  std::string name;    ///< what the parameter is, for reports ("youngs_modulus", ...)
  double value = 0.0;  ///< p, in the parameter's unit
  /// Sets the parameter to `value` in `model`: a copy of the model the factory was given, with
  /// the parameters listed before this one applied (with_parameters). Parameters that scale
  /// quantities (E, density, thickness) multiply them by value / (the factory's value), so that
  /// they compose in any order; the others set their quantity (a later one wins).
  std::function<void(Model& model, double value)> apply;
  /// The residual is a polynomial of this degree in p (or in t along `tangent`): 1 (affine) or up
  /// to 4 (dr/dp from the fourth-order central difference, exact for degree <= 4).
  int degree = 1;
  /// For a parameter the residual is not a polynomial in (the Poisson ratio, rest lengths): sets
  /// the quantities c it moves to c(value) + t dc/dp(value), along their tangent at `value`, in
  /// coordinates in which the residual is a polynomial of degree `degree` in t (stiffnesses,
  /// inverse rest lengths); the stencil in t then gives dr/dp exactly, and apply(m, v) is
  /// tangent(m, v, 0). Null for the others, whose stencil moves p itself.
  std::function<void(Model& model, double value, double t)> tangent = nullptr;
  /// d of the difference stencil: the parameter's scale (|p|, or its unit when p = 0); a quarter
  /// of it for degree > 1 or along a tangent, so that p - 2 d keeps the sign of p and the moved
  /// quantities stay near theirs.
  double difference_step() const;
};

/// Young's modulus E [Pa] of every rod edge and spring and every shell element, whose current
/// value in `model` is `youngs_modulus`: the rods' stretch, bend and twist stiffnesses (EA, EI_1,
/// EI_2, GJ) and the shells' membrane moduli, edge-spring, hinge and mid-edge stiffnesses scale
/// with E at a fixed Poisson ratio.
Parameter youngs_modulus(const Model& model, double youngs_modulus);

/// The thickness h [m] of every shell, whose current value in `model` is `thickness`: the CST
/// membranes' thickness and the edge springs scale with h, the hinge and mid-edge bending
/// stiffnesses with h^3 (as the defaults give them), the shell nodes' masses with h (degree 3).
/// InputError "thickness" for a model without shells, with rod-shell joints or with a node in
/// both a rod and a shell.
Parameter shell_thickness(const Model& model, double thickness);

/// Density rho [kg/m^3], whose current value in `model` is `density`: every lumped mass and
/// rotational inertia scales with it (and so does gravity, which reads the masses).
Parameter density(const Model& model, double density);

/// A uniform natural curvature kappa [1/m] about material axis `component` (0: kappa_1, 1:
/// kappa_2) of every rod spring: the integrated natural curvature of spring k is kappa l_k (l_k its
/// Voronoi length; affine in kappa, unlike the scene key rods[].natural_curvature, whose arc value
/// 2 tan(kappa l_k / 2) agrees with it to first order). Starts at `curvature`.
Parameter uniform_natural_curvature(int component, double curvature);

/// The integrated natural curvature kappa_bar [-] of rod spring `spring` about material axis
/// `component`, starting at the model's value.
Parameter spring_natural_curvature(const Model& model, int spring, int component);

/// The viscosity eta [Pa s] of the ViscousDrag term model.forces[force_index], which acts on
/// `nodes` (as it was built) with viscosity `viscosity`: apply() replaces the term.
Parameter viscosity(const Model& model, std::size_t force_index, std::vector<int> nodes,
                    double viscosity);

/// Multiplies the rods' stiffnesses: EA by `stretch`, EI_1 and EI_2 by `bend`, GJ by `twist` (of
/// the edges' sections and of the springs).
void scale_rod_stiffnesses(RodNetwork& rods, double stretch, double bend, double twist);

/// A copy of `model` (the model the factories were given) with every parameter applied at its
/// value, in order.
Model with_parameters(const Model& model, const std::vector<Parameter>& parameters);

/// The same with parameter i at a point of its difference stencil: moved by `offset` (its value +
/// offset, or its tangent at t = offset).
Model with_moved_parameter(const Model& model, const std::vector<Parameter>& parameters,
                           std::size_t i, double offset);

}  // namespace tendril::adjoint
