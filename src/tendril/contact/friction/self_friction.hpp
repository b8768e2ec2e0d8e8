#pragma once
/// IMC friction between two rod edges in contact (mat_dismech eq. 23-24): with the closest points
/// at s on edge a and t on edge b, J = [(1-s) I, s I, -(1-t) I, -t I] and n = w / Delta,
///   f = -k_c b'(g)                  (normal force of the pair [N]),
///   v = (I - n n^T) J u             (tangential velocity of a's closest point relative to b's
///   [m/s]), F = -mu f J^T h(v)              (node k gets -mu f c_k h: |c_k| f is its contact
///   force, eq. 23),
/// h the smooth friction direction (smooth_friction.hpp). Its Jacobians in q (through s, t, n and
/// f) and u are exact (docs/physics/contact.md, "Self-contact friction") and not symmetric.

#include <algorithm>
#include <memory>

#include "tendril/contact/self_contact.hpp"

namespace tendril::contact {

/// Friction force on one pair's stencil and its Jacobians.
struct PairFriction {
  Vec12 force = Vec12::Zero();  ///< [N]
  Mat12 d_dx = Mat12::Zero();   ///< dF/dx [N/m]
  Mat12 d_du = Mat12::Zero();   ///< dF/du [N s/m]
  bool active = false;          ///< the pair is in contact (g < delta)
};
/// The friction of any pair whose gap vector is w = sum_k c_k x_k over the four points of its
/// stencil x [m] (12): weights c_k [-] and their derivatives dc_k/dx [1/m] (12 each, from the
/// closest-point parameters), Delta = |w| [m]; the normal force is -k_c b'(Delta - radius_sum).
/// dw/dx = J + sum_k x_k dc_k^T and d(J u)/dx = sum_k u_k dc_k^T carry the motion of the closest
/// points; otherwise as above.
PairFriction imc_friction(const Vec12& x, const Vec12& u, const std::array<double, 4>& c,
                          const std::array<Vec12, 4>& dc, const Vec3& w, double distance,
                          double radius_sum, const ContactParameters& params, bool with_jacobians);
/// Friction of an edge pair at stencil x [m] with nodal velocities u [m/s] (12 each); radius_sum =
/// r_a + r_b [m].
PairFriction imc_pair_friction(const Vec12& x, const Vec12& u, double radius_sum,
                               const ContactParameters& params, bool with_jacobians);

/// The friction of the pairs of a pair contact term (Contact: SelfContact or PointTriangleContact),
/// with the same candidates and pattern; pair_friction(x, u, radius_sum, params, with_jacobians)
/// gives one pair's force and Jacobians.
template <class Contact, PairFriction (*pair_friction)(const Vec12&, const Vec12&, double,
                                                       const ContactParameters&, bool)>
class PairFrictionTerm : public ForceTerm {
 public:
  /// The same candidate pairs as the contact term (updated alike, in a workspace like the contact
  /// term's).
  void declare_sparsity(const Model& model, SparsityBuilder& pattern) const override {
    contact_.declare_sparsity(model, pattern);
  }
  void declare_stencils(const Model& model, const TermWorkspace* workspace,
                        SparsityBuilder& pattern) const override {
    contact_.declare_stencils(model, workspace, pattern);
  }
  std::unique_ptr<TermWorkspace> make_workspace(const Model& model) const override {
    return contact_.make_workspace(model);
  }
  bool update_stencils(const Model& model, const State& state,
                       TermWorkspace* workspace) const override {
    return contact_.update_stencils(model, state, workspace);
  }
  std::size_t carried_size() const override { return contact_.carried_size(); }
  void save_carried(const TermWorkspace& workspace, double* values) const override {
    contact_.save_carried(workspace, values);
  }
  void restore_carried(TermWorkspace& workspace, const double* values) const override {
    contact_.restore_carried(workspace, values);
  }
  void accumulate(const EvalInput& in, ForceOutput& out) const override {
    if (params_.friction == 0.0) return;
    const std::unique_ptr<TermWorkspace> local =
        in.workspace ? nullptr : contact_.make_workspace(in.model);
    add_pairs(in, out, static_cast<PairContactWorkspace&>(in.workspace ? *in.workspace : *local));
  }
  bool has_symmetric_jacobian() const override { return false; }
  const ContactParameters& parameters() const { return params_; }
  /// As PairContactTerm::set_stiffness_and_friction.
  void set_stiffness_and_friction(double stiffness, double friction) {
    params_.stiffness = stiffness;
    params_.friction = friction;
    contact_.set_stiffness_and_friction(stiffness, friction);
  }

 protected:
  /// params.friction is mu.
  PairFrictionTerm(Contact contact, const ContactParameters& params)
      : contact_(std::move(contact)), params_(params) {}

 private:
  /// Adds the friction of the pairs near each other at in.q, Jacobians of the candidates only.
  void add_pairs(const EvalInput& in, ForceOutput& out, PairContactWorkspace& w) const {
    const auto& finder = contact_.pairs();
    finder.find(in.q, w.search, w.pairs);
    for (const EdgePair& pair : w.pairs) {
      const PairFriction f = pair_friction(finder.stencil(in.q, pair), finder.stencil(in.u, pair),
                                           finder.radius_sum(pair), params_, out.jacobian);
      const std::array<int, 12> dofs = finder.stencil_dofs(pair);
      if (out.force)
        for (int k = 0; k < 12; ++k) (*out.force)[dofs[k]] += f.force[k];
      if (out.jacobian && f.active &&
          std::binary_search(w.candidates.begin(), w.candidates.end(), pair)) {
        // a named block: an expression would be copied into a heap matrix to bind to the Ref
        const Mat12 block = out.dq_scale * f.d_dx + out.du_scale * f.d_du;
        out.jacobian->add(dofs, block);
      }
    }
  }

  Contact contact_;  ///< its pair finder and pattern
  ContactParameters params_;
};

class SelfFriction final : public PairFrictionTerm<SelfContact, imc_pair_friction> {
 public:
  /// The same edges and parameters as the SelfContact it belongs to; params.friction is mu.
  SelfFriction(ContactEdges edges, const ContactParameters& params, const VecX& q_initial)
      : PairFrictionTerm(SelfContact(std::move(edges), params, q_initial), params) {}
  std::string_view name() const override { return "self_friction"; }
};

}  // namespace tendril::contact
