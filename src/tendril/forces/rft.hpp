#pragma once
/// Resistive Force Theory for rods (granular_flagella IV-C, eq. 9-10; Gray and Hancock 1955):
///   t_j = (t^{j-1} + t^j) / |t^{j-1} + t^j|        node tangent from its (one or two) rod edges
///   v_t = (v_j . t_j) t_j,   v_n = v_j - v_t
///   F_j = - Delta l_j (eta_t v_t + eta_n v_n) = - Delta l_j (eta_n v_j + (eta_t - eta_n)(v_j .
///   t_j) t_j)
/// with v_j = dx_j/dt [m/s], Delta l_j the node's Voronoi length along the rod [m] and eta_t, eta_n
/// the tangential and normal drag coefficients [Pa s = N s/m^2], given or from the medium (eq. 10):
///   eta_t = 2 pi mu / (ln(2L/r0) - 1/2),   eta_n = 4 pi mu / (ln(2L/r0) + 1/2),
/// mu the medium's friction constant [Pa s], L the rod length [m], r0 its radius [m].
/// The paper writes t_j as the plain average; here the average is normalised so that v_t + v_n is
/// an orthogonal split (the two differ by O(phi^2) at a turning angle phi; docs/physics/media.md).
/// F depends on q through t_j: dF/dq is included (and is not symmetric), so the Newton system must
/// factorize the whole matrix (has_symmetric_jacobian() is false).
/// Stencil DOFs: (x_{j-1}, x_j, x_{j+1}), 9 entries (a missing neighbour at a rod end is skipped).

#include <array>
#include <memory>
#include <vector>

#include "tendril/core/element_values.hpp"
#include "tendril/core/term.hpp"

namespace tendril {

/// Tangential and normal RFT coefficients.
struct RftCoefficients {
  double tangential = 0.0;  ///< eta_t [Pa s]
  double normal = 0.0;      ///< eta_n [Pa s]
};

/// eq. 10 from the medium constant mu [Pa s] >= 0, rod length L [m] and radius r0 [m]. InputError
/// ("mu", "length") unless mu >= 0 is finite and L > r0 > 0 (slender-body theory needs L >> r0).
RftCoefficients rft_coefficients_from_medium(double mu, double length, double radius);

/// One node of an RFT rod: its neighbours along the rod (-1 at an end), the rod edges to them and
/// Voronoi length.
struct RftNode {
  int node = -1;
  std::array<int, 2> neighbours{-1, -1};  ///< previous and next node along the rod, -1 if absent
  /// rod edges previous -> node and node -> next (-1 if absent), and +-1 when the edge points that
  /// way or the other way: the unit vector from the previous node is edge_signs[0] *
  /// tangent[edges[0]]
  std::array<int, 2> edges{-1, -1};
  std::array<double, 2> edge_signs{1.0, 1.0};
  double voronoi_length = 0.0;  ///< Delta l_j [m]
};

/// Force [N] on one node and, when `jacobian` is given, the node's rows of a Newton matrix's
/// dq_scale dF/dq + du_scale dF/du over (x_{j-1}, x_j, x_{j+1}) (3 x 9; dF/du acts on x_j only),
/// from the unit vectors t_a = (x_j - x_{j-1}) / l_a and t_b = (x_{j+1} - x_j) / l_b of its edges
/// and their inverse lengths 1 / l [1/m] (the edge kinematics); a missing edge (rod end) has t = 0
/// and 1 / l = 0 (at least one edge exists).
Vec3 rft_node_force(const Vec3& t_a, double inv_l_a, const Vec3& t_b, double inv_l_b,
                    const Vec3& velocity, const RftCoefficients& eta, double voronoi_length,
                    double dq_scale, double du_scale, Eigen::Matrix<double, 3, 9>* jacobian);

class ResistiveForce final : public ForceTerm {
 public:
  /// RFT on the nodes of the rod edges `edges` (each node then has one or two of them; a node where
  /// three or more meet is an InputError "edges"). Voronoi lengths count these edges only.
  ResistiveForce(const Model& model, const std::vector<int>& edges, const RftCoefficients& eta);
  /// The nodes of `other` with the coefficients `eta` (a medium parameter moved:
  /// adjoint/medium_parameter.hpp).
  ResistiveForce(const ResistiveForce& other, const RftCoefficients& eta);

  std::string_view name() const override { return "rft"; }
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override;
  void accumulate(const EvalInput& in, ForceOutput& out) const override;
  std::size_t element_count(const Model& model) const override;
  /// RftValues of the RFT nodes, filled by prepare().
  std::unique_ptr<TermWorkspace> make_workspace(const Model& model) const override;
  void prepare(const EvalInput& in, std::size_t first, std::size_t last,
               const ForceOutput& out) const override;

  const std::vector<RftNode>& nodes() const { return nodes_; }
  const RftCoefficients& coefficients() const { return eta_; }

 private:
  std::vector<RftNode> nodes_;  ///< (#RFT nodes)
  RftCoefficients eta_;
  /// Per RFT node: force F [N] and, with the Jacobian, its rows dq_scale dF/dx + du_scale dF/du
  /// over the stencil (3 x 9), from prepare() (the term's workspace)
  using RftValues = ElementValues<3, 3, 9>;

  /// F of RFT node k at `in` and, if out.jacobian is set, its Jacobian rows with out's scales.
  void node_values(const EvalInput& in, std::size_t k, const ForceOutput& out, Vec3& force,
                   Eigen::Matrix<double, 3, 9>& rows) const;
};

}  // namespace tendril
