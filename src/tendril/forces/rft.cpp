#include "tendril/forces/rft.hpp"

#include <cmath>
#include <numbers>
#include <span>
#include <string>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/forces/voronoi_length.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace tendril {
namespace {

std::array<int, 9> stencil_dofs(const DofMap& dofs, const RftNode& n) {
  std::array<int, 9> out;
  const std::array<int, 3> nodes{n.neighbours[0], n.node, n.neighbours[1]};
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 3; ++a) out[3 * k + a] = nodes[k] < 0 ? -1 : dofs.node(nodes[k]) + a;
  return out;
}

void check_coefficient(const char* key, double value) {
  if (!(std::isfinite(value) && value >= 0.0))
    throw InputError(key, number_text(value), "a finite drag coefficient >= 0 [Pa s]");
}

}  // namespace

RftCoefficients rft_coefficients_from_medium(double mu, double length, double radius) {
  if (!(std::isfinite(mu) && mu >= 0.0))
    throw InputError("mu", number_text(mu), "a finite mu >= 0 [Pa s]");
  if (!(std::isfinite(radius) && radius > 0.0))
    throw InputError("radius", number_text(radius), "a rod radius r0 > 0 [m]");
  if (!(std::isfinite(length) && length > radius))
    throw InputError("length", number_text(length),
                     "a rod length L > its radius r0 = " + number_text(radius) +
                         " m (RFT is slender-body theory: L >> r0)");
  const double log_ratio = std::log(2.0 * length / radius);  // > ln 2 > 1/2
  return {2.0 * std::numbers::pi * mu / (log_ratio - 0.5),
          4.0 * std::numbers::pi * mu / (log_ratio + 0.5)};
}

Vec3 rft_node_force(const Vec3& t_a, double inv_l_a, const Vec3& t_b, double inv_l_b,
                    const Vec3& velocity, const RftCoefficients& eta, double voronoi_length,
                    double dq_scale, double du_scale, Eigen::Matrix<double, 3, 9>* jacobian) {
  // node tangent t = s / |s|, s = t_a + t_b with t_a = (x - x_prev)/|.|, t_b = (x_next - x)/|.|
  // ds/de_a = (I - t_a t_a^T) / l_a and ds/de_b likewise (zero for a missing edge: t = 0, 1/l = 0)
  const Vec3 s = t_a + t_b;
  const double s_norm = s.norm();
  const Vec3 t = s / s_norm;
  const double vt = velocity.dot(t);
  const double difference = eta.tangential - eta.normal;
  // F = - dl (eta_n v + (eta_t - eta_n)(v . t) t)
  const Vec3 force = -voronoi_length * (eta.normal * velocity + difference * vt * t);
  if (jacobian) {
    // dF/dt = - dl (eta_t - eta_n)((v . t) I + t v^T), dt/ds = (I - t t^T)/|s|
    //   (v . t) I + t v^T times I - t t^T is (v . t) I + t v^T - 2 (v . t) t t^T
    const Mat3 dF_ds = (-dq_scale * voronoi_length * difference / s_norm) *
                       (vt * Mat3::Identity() + t * (velocity - 2.0 * vt * t).transpose());
    // e_a = x - x_prev, e_b = x_next - x; dF/ds (I - t_e t_e^T) / l_e = (dF/ds - (dF/ds t_e) t_e^T)
    // / l_e
    jacobian->block<3, 3>(0, 0) = -inv_l_a * (dF_ds - (dF_ds * t_a) * t_a.transpose());
    jacobian->block<3, 3>(0, 6) = inv_l_b * (dF_ds - (dF_ds * t_b) * t_b.transpose());
    // dF/du = - dl (eta_n I + (eta_t - eta_n) t t^T)
    const double u_scale = -du_scale * voronoi_length;
    jacobian->block<3, 3>(0, 3).noalias() = ((u_scale * difference) * t) * t.transpose();
    jacobian->block<3, 3>(0, 3).diagonal().array() += u_scale * eta.normal;
    jacobian->block<3, 3>(0, 3) -= jacobian->block<3, 3>(0, 0) + jacobian->block<3, 3>(0, 6);
  }
  return force;
}

ResistiveForce::ResistiveForce(const Model& model, const std::vector<int>& edges,
                               const RftCoefficients& eta)
    : eta_(eta) {
  check_coefficient("eta_t", eta.tangential);
  check_coefficient("eta_n", eta.normal);
  const int num_edges = static_cast<int>(model.rods.edges.size());
  if (edges.empty()) throw InputError("edges", "none", "at least one rod edge");
  std::vector<int> slot(model.dofs.num_nodes, -1);  // index into nodes_ of each node, or -1
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const int e = edges[k];
    if (e < 0 || e >= num_edges)
      throw InputError("edges[" + std::to_string(k) + "]", std::to_string(e),
                       "an edge index in [0, " + std::to_string(num_edges) + ")");
    const auto [a, b] = model.rods.edges[e];
    // the edge a -> b: b is the next node of a, a the previous node of b
    for (const auto& [node, side, other] : {std::tuple{a, 1, b}, std::tuple{b, 0, a}}) {
      if (slot[node] < 0) {
        slot[node] = static_cast<int>(nodes_.size());
        nodes_.push_back(RftNode{.node = node});
      }
      RftNode& n = nodes_[slot[node]];
      // edges pointing against each other (a -> b <- c): the second neighbour takes the free side;
      // tangents are taken along previous -> node -> next (edge_signs), so edge directions do not
      // matter
      const int use = n.neighbours[side] < 0 ? side : 1 - side;
      if (n.neighbours[use] >= 0)
        throw InputError("edges[" + std::to_string(k) + "]", std::to_string(e),
                         "edges of rods (node " + std::to_string(node) +
                             " would have three or more RFT edges; apply RFT per rod)");
      n.neighbours[use] = other;
      n.edges[use] = e;
      // the edge a -> b points previous -> node on side 0 when it ends at the node (b), on side 1
      // when it starts there
      n.edge_signs[use] = (use == 0) == (node == b) ? 1.0 : -1.0;
    }
  }
  const std::vector<double> voronoi = node_voronoi_lengths(model, edges);
  for (RftNode& n : nodes_) n.voronoi_length = voronoi[n.node];
}

ResistiveForce::ResistiveForce(const ResistiveForce& other, const RftCoefficients& eta)
    : ResistiveForce(other) {
  check_coefficient("eta_t", eta.tangential);
  check_coefficient("eta_n", eta.normal);
  eta_ = eta;
}

void ResistiveForce::declare_sparsity(const Model& model, SparsityBuilder& pattern) const {
  for (const RftNode& n : nodes_) pattern.add_stencil(stencil_dofs(model.dofs, n));
}

void ResistiveForce::node_values(const EvalInput& in, std::size_t k, const ForceOutput& out,
                                 Vec3& force, Eigen::Matrix<double, 3, 9>& rows) const {
  const RftNode& n = nodes_[k];
  // the edges' unit vectors and inverse lengths from the kinematics (zero for a missing edge)
  Vec3 t[2] = {Vec3::Zero(), Vec3::Zero()};
  double inv_l[2] = {0.0, 0.0};
  for (int side = 0; side < 2; ++side) {
    if (n.edges[side] < 0) continue;
    const auto e = static_cast<std::size_t>(n.edges[side]);
    t[side] = n.edge_signs[side] * in.kin.tangent[e];
    inv_l[side] = 1.0 / in.kin.edge_length[e];
  }
  // rows of x_j only: dq_scale dF/dx over the stencil + du_scale dF/du on (x_j, x_j)
  force = rft_node_force(t[0], inv_l[0], t[1], inv_l[1],
                         in.u.segment<3>(in.model.dofs.node(n.node)), eta_, n.voronoi_length,
                         out.dq_scale, out.du_scale, out.jacobian ? &rows : nullptr);
}

std::size_t ResistiveForce::element_count(const Model& /*model*/) const {
  return nodes_.size();
}

std::unique_ptr<TermWorkspace> ResistiveForce::make_workspace(const Model& /*model*/) const {
  return std::make_unique<RftValues>(nodes_.size());
}

void ResistiveForce::prepare(const EvalInput& in, std::size_t first, std::size_t last,
                             const ForceOutput& out) const {
  auto& values = static_cast<RftValues&>(*in.workspace);
  for (std::size_t k = first; k < last; ++k)
    node_values(in, k, out, values.vector[k], values.matrix[k]);
}

void ResistiveForce::accumulate(const EvalInput& in, ForceOutput& out) const {
  TENDRIL_ASSERT(!in.prepared || in.workspace, "prepared values need the term's workspace");
  const RftValues* values = in.prepared ? static_cast<const RftValues*>(in.workspace) : nullptr;
  const DofMap& dofs = in.model.dofs;
  Vec3 force_local;
  Eigen::Matrix<double, 3, 9> rows_local;
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const RftNode& n = nodes_[k];
    if (!values) node_values(in, k, out, force_local, rows_local);
    const Vec3& force = values ? values->vector[k] : force_local;
    if (out.force) out.force->segment<3>(dofs.node(n.node)) += force;
    if (!out.jacobian) continue;
    const std::array<int, 9> columns = stencil_dofs(dofs, n);
    out.jacobian->add_cached(this, k, std::span<const int>(columns).subspan(3, 3), columns,
                             values ? values->matrix[k] : rows_local);
  }
}

}  // namespace tendril
