#pragma once
/// Parameters of the rods' rest shape and material that the step residual is not a polynomial in
/// (docs/physics/gradients.md, "Parameters"): the rest lengths, which it reads through their
/// inverses 1/l (the stretch force EA (|e|/l - 1) e/|e| and the bend and twist forces EI/l_k,
/// GJ/l_k are affine in them), and the Poisson ratio, which sets the stiffnesses through 1/(1 +
/// nu), nu/(1 - nu^2) and 1/(1 - nu^2). Each moves its quantities along their tangent
/// (Parameter::tangent), so that dr/dp is exact. Also the natural angle of a shell hinge (affine).

#include <cstddef>

#include "tendril/adjoint/parameter.hpp"
#include "tendril/core/model.hpp"

namespace tendril::adjoint {

/// A scale s [-] of the rods' rest lengths, whose current value in `model` is `scale` (1: as
/// built): every rod edge's rest length and every bend-twist spring's Voronoi length times s /
/// scale. The rod's natural length: its masses, the integrated natural curvatures and twists (the
/// rest shape's angles) and the lengths drag laws read are kept; a uniform natural curvature
/// applied after it keeps kappa (kappa_bar / l_k, which the bend force reads). InputError
/// "rest_length_scale" for a value that is not > 0 or a model without rods or with rod-shell
/// joints.
Parameter rest_length_scale(const Model& model, double scale);

/// The rest length l [m] of rod edge `edge` in its stretch energy (RodNetwork::rest_length, what
/// the `rest_length` control and actuation set; the springs' Voronoi lengths, the masses and the
/// drag laws' lengths are kept), starting at the model's value, moved along the tangent of 1/l
/// (the stretch force EA (|e|/l - 1) e/|e| is affine in 1/l): one edge's entry, so any number of
/// edges compose. InputError "edge" for an index that is not a rod edge of `model`.
Parameter edge_rest_length(const Model& model, int edge);

/// The natural dihedral angle phi_bar [rad] of shell hinge `hinge` (ShellMesh::hinges, what the
/// `hinge_natural_angle` control and hinge-angle actuation set), starting at the model's value:
/// the hinge force k_b (phi - phi_bar) dphi is affine in it. InputError "hinge" for an index that
/// is not a hinge of `model`.
Parameter hinge_natural_angle(const Model& model, int hinge);

/// The natural fold angle [rad] of interior shell edge `edge` in mid-edge bending: the sum of the
/// rest angles beta_bar^k of its two triangles (beta^k as in MidEdgeTriangle; 0 for a flat rest
/// shape), starting at the model's value. Setting it moves each triangle's beta_bar^k by half the
/// change, through its natural weight w_bar^k = -c^k beta_bar^k, so the force is affine in it.
/// InputError "edge" for an index that is not a shell edge between two mid-edge triangles.
Parameter midedge_natural_fold(const Model& model, int edge);

/// The Poisson ratio nu [-] of every rod and shell at a fixed Young's modulus, whose current value
/// in `model` is `poisson_ratio` (all materials share it): the rods' GJ = E J / (2 (1 + nu)), the
/// CST membranes' Lame moduli mu = E / (2 (1 + nu)) and lambda = E nu / (1 - nu^2), the hinge and
/// mid-edge bending stiffnesses E h^3 / (12 (1 - nu^2)) (with their defaults' laws) and the
/// mid-edge metric G_ij = (1 - nu) (t_i . t_j)^2 + nu |t_i|^2 |t_j|^2 (eq. 20). Edge springs (E h)
/// are kept. Degree 2 along the tangent with mid-edge bending (stiffness times metric), else 1.
/// InputError "poisson_ratio" for a value outside (-1, 0.5] and for models with rod-shell joints.
Parameter poisson_ratio(const Model& model, double poisson_ratio);

/// poisson_ratio()'s tangent on the shells alone: `m`'s shells, built with Poisson ratio nu0 [-],
/// moved to nu [-] plus t along the tangent at nu (the CST Lame moduli, the hinge and mid-edge
/// stiffnesses and the mid-edge metric; t = 0 sets nu).
void poisson_tangent_on_shells(Model& m, double nu0, double nu, double t);

}  // namespace tendril::adjoint
