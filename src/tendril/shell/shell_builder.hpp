#pragma once
/// Adds thin shells (triangle meshes) to a Model (mat_dismech 2, 3.1, 3.3;
/// docs/physics/shells.md#building-a-model).
///
/// - Shell edges are the distinct node pairs of the triangles; each is shared by one or two
/// triangles.
///   Every shell edge of a mid-edge shell carries one DOF xi (DofMap::xi), appended to q with zero
///   mass (the mid-edge normal has no inertia of its own) and xi = 0 in the rest shape.
/// - Hinges: one per edge shared by two triangles of hinge-bending shells; natural angles from the
/// rest shape.
/// - Mid-edge: one stencil per triangle of a mid-edge shell; natural shape operator from the rest
/// shape.
/// - Lumped masses: each node gets a third of rho h A_bar of every adjacent triangle.
/// - The rest shape (the given node positions) is stress-free.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "tendril/core/model.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

enum class ShellBending {
  midedge,  ///< mid-edge normal bending (eqs. 19-20): mesh-independent, one xi DOF per shell edge
  hinge,    ///< hinge bending (eq. 17): cheaper, depends on the mesh pattern
};

enum class ShellMembrane {
  cst,           ///< constant-strain triangles, St. Venant-Kirchhoff: the material's nu on any mesh
  edge_springs,  ///< the paper's springs on shell edges (eq. 10): nu = 1/3 on equilateral meshes
};

struct ShellMaterial {
  double youngs_modulus = 0.0;  ///< E [Pa], > 0
  double poisson_ratio = 0.0;   ///< nu [-] in (-1, 0.5)
  double density = 0.0;         ///< rho [kg/m^3], >= 0
  double thickness = 0.0;       ///< h [m], > 0
};

struct ShellInput {
  std::vector<std::array<int, 3>>
      triangles;  ///< 0-based node indices; neighbours must be consistently oriented
  ShellMaterial material;
  ShellBending bending = ShellBending::midedge;
  ShellMembrane membrane = ShellMembrane::cst;
  std::optional<double>
      edge_spring_stiffness;  ///< k_s [N] of every edge spring instead of sqrt(3)/4 E h |e_bar|
                              ///< from each triangle of the edge
  std::optional<double>
      hinge_stiffness;  ///< k_b [N m] of every hinge instead of default_hinge_stiffness
  /// Where each triangle came from, named in errors instead of "shells[s].triangles[t]" (e.g.
  /// "canopy.obj:14")
  /// (#triangles, or empty)
  std::vector<std::string> triangle_names;
};

/// The default hinge stiffness k_b = 2 D / sqrt(3) [N m], D = E h^3 / (12 (1 - nu^2)) the plate's
/// bending stiffness: on an equilateral mesh the hinges then bend as a plate of stiffness D
/// (Grinspun et al. 2003's weight 3 |e_bar|^2 / (A_A + A_B) there), and at nu = 0 it is the
/// MAT-DiSMech code's 2 E h^3 / (12 sqrt 3) (docs/physics/shells.md#hinge-stiffness).
double default_hinge_stiffness(const ShellMaterial& material);

/// Appends nodes x_i [m] (#new nodes) to a model without shells: free, massless, at rest; the twist
/// DOFs move up by 3 per node (InputError "nodes[i]" for a non-finite coordinate). Returns the
/// first new index.
int append_nodes(Model& model, const std::vector<Vec3>& nodes);

/// Grows Model::mass and Model::fixed to model.dofs.size() after DOFs were appended (xi, joint-edge
/// twists): the new DOFs are massless and free.
void grow_massless_dofs(Model& model);

/// Validates the shells against the model's nodes (throws InputError naming "shells[s]...", the
/// value and what is allowed: indices out of range, repeated nodes, degenerate, duplicated or
/// inconsistently oriented triangles, edges shared by more than two triangles, bad materials) and
/// adds their topology, stencils, xi DOFs, masses and energy terms. The model must not have shells
/// yet.
void add_shells(Model& model, const std::vector<ShellInput>& shells);

/// A Model of shells only, on nodes x_i [m] (N), all DOFs free.
Model build_shell_model(const std::vector<Vec3>& nodes, const std::vector<ShellInput>& shells);

}  // namespace tendril
