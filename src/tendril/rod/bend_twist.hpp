#pragma once
/// Bending and twisting energy of DER bend-twist springs (mat_dismech 3.2, eqs. 11-16; Bergou et
/// al. 2008; rod networks: granular_flagella IV-E). Derivation:
/// docs/physics/rods.md#bending-and-twisting.
///
/// For a spring at node k with edge e_a entering and e_b leaving the node (after the network signs
/// have flipped edges that point the other way):
///   (kappa b) = 2 t_a x t_b / (1 + t_a . t_b)
///   kappa_1 = 1/2 (m2_a + m2_b) . (kappa b),   kappa_2 = -1/2 (m1_a + m1_b) . (kappa b)
///   m = theta_b - theta_a + m_ref
///   E = EI_1/(2 l_k) (kappa_1 - kappa_bar_1)^2 + EI_2/(2 l_k) (kappa_2 - kappa_bar_2)^2 + GJ/(2
///   l_k) (m - m_bar)^2
/// Gradient and Hessian are exact also when the accepted frames are not at q (Newton trial points):
/// the rotation of the time-parallel transported frames (Kinematics::transport_rotation_gradient)
/// is differentiated, not only the textbook kappa b / (2 |e|) term. Stencil DOFs: (x_{k-1}, x_k,
/// x_{k+1}, theta_a, theta_b), 11 entries.

#include <memory>
#include <string_view>

#include "tendril/core/element_values.hpp"
#include "tendril/core/model.hpp"
#include "tendril/core/term.hpp"
#include "tendril/core/types.hpp"

namespace tendril {

/// One spring's configuration, already oriented (edge_a into the node, edge_b out of it). 29
/// contiguous doubles in this order (bend_twist.cpp copies them at once into the kernel's inputs;
/// checked there).
struct BendTwistStencil {
  Vec3 edge_a;                   ///< e_a = x_k - x_{k-1} [m]
  Vec3 edge_b;                   ///< e_b = x_{k+1} - x_k [m]
  Vec3 director_1_a;             ///< m1_a material director of edge a
  Vec3 director_2_a;             ///< m2_a = t_a x m1_a
  Vec3 director_1_b;             ///< m1_b
  Vec3 director_2_b;             ///< m2_b = t_b x m1_b
  Vec3 rotation_gradient_a;      ///< h_a [1/m] (Kinematics::transport_rotation_gradient)
  Vec3 rotation_gradient_b;      ///< h_b [1/m]
  double twist_a = 0.0;          ///< theta_a [rad]
  double twist_b = 0.0;          ///< theta_b [rad]
  double reference_twist = 0.0;  ///< m_ref [rad]
  /// +-1: theta_a = twist_sign_a times edge a's twist DOF (the edge points the other way). The
  /// gradient's and Hessian's twist entries are taken with respect to the DOFs: their rows and
  /// columns carry the signs.
  double twist_sign_a = 1.0;
  double twist_sign_b = 1.0;  ///< the same for edge b
};

/// Energy [J], and optionally gradient [N | N m] and Hessian over (x_{k-1}, x_k, x_{k+1}, and the
/// twist DOFs of edges a and b, twist_sign_a theta_a and twist_sign_b theta_b).
double bend_twist_stencil(const BendTwistStencil& stencil, const BendTwistSpring& spring,
                          VecN<11>* gradient, MatN<11>* hessian);

/// Integrated material curvatures (kappa_1, kappa_2) [-] of an oriented stencil.
Vec2 material_curvature(const BendTwistStencil& stencil);

/// Twist m = theta_b - theta_a + m_ref [rad] of an oriented stencil.
double spring_twist(const BendTwistStencil& stencil);

/// The oriented stencil of spring k (core/model.hpp framed_spring: rod springs, then rod-shell
/// joint springs) at the configuration described by `kin` and q.
BendTwistStencil oriented_stencil(const Model& model, const Kinematics& kin, const VecX& q,
                                  std::size_t spring);

/// Declares the stencils of framed springs [first, last).
void declare_bend_twist_sparsity(const Model& model, std::size_t first, std::size_t last,
                                 SparsityBuilder& pattern);

/// Per spring of a range of framed springs: energy [J], gradient and Hessian over the stencil DOFs
/// (element-parallel evaluation, core/term.hpp).
using BendTwistValues = ElementValues<11, 11, 11>;

/// Computes the values `out` requests of framed springs first + [begin, end) into entries [begin,
/// end) of `values` (sized for the whole range; Energy::prepare).
void prepare_bend_twist(std::size_t first, std::size_t begin, std::size_t end, const EvalInput& in,
                        const EnergyOutput& out, BendTwistValues& values);

/// Adds the energy, gradient and Hessian of framed springs [first, last) to `out`, computed here
/// or, with `prepared`, those stored by prepare_bend_twist for the range; Hessian blocks are cached
/// under (owner, k - first).
void accumulate_bend_twist(const Energy* owner, std::size_t first, std::size_t last,
                           const EvalInput& in, EnergyOutput& out,
                           const BendTwistValues* prepared = nullptr);

/// Sum of the bending and twisting energies of Model::rods.springs.
class BendTwistEnergy final : public Energy {
 public:
  std::string_view name() const override { return "bend_twist"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, EnergyOutput& out) const override;
  std::size_t element_count(const Model& model) const override;
  /// BendTwistValues of the rod springs, filled by prepare().
  std::unique_ptr<TermWorkspace> make_workspace(const Model& model) const override;
  void prepare(const EvalInput& in, std::size_t first, std::size_t last,
               const EnergyOutput& out) const override;
  /// Per rod spring (kappa_bar_1, kappa_bar_2, m_bar) (3 #springs); stress-free at q: the material
  /// curvatures and twist there.
  std::size_t rest_state_size(const Model& model) const override;
  void get_rest_state(const Model& model, std::span<double> values) const override;
  void set_rest_state(std::span<const double> values, Model& model) const override;
  void stress_free_rest_state(const Model& model, const Kinematics& kin, const VecX& q,
                              std::span<double> values) const override;
};

}  // namespace tendril
