#pragma once
/// IMC friction between a node and a triangle in contact (mat_dismech eq. 23-24 on the
/// point-triangle pairs of shell contact): with the closest point of the triangle at barycentric
/// weights b, J = [I, -b0 I, -b1 I, -b2 I], n = w / Delta, f = -k_c b'(g), v = (I - n n^T) J u (the
/// node's velocity relative to the triangle's closest point), F = -mu f J^T h(v), exactly as for
/// edge pairs (self_friction.hpp, imc_friction) with c = [1, -b0, -b1, -b2]. Exact, non-symmetric
/// Jacobians in q (through b, n and f) and u. docs/physics/contact.md, "Shell contact".

#include "tendril/contact/friction/self_friction.hpp"
#include "tendril/contact/point_triangle_contact.hpp"

namespace tendril::contact {

/// Friction of a point-triangle pair at x = [p, t0, t1, t2] [m] with nodal velocities u [m/s] (12
/// each); radius_sum = r_p + r_t [m].
PairFriction imc_point_triangle_friction(const Vec12& x, const Vec12& u, double radius_sum,
                                         const ContactParameters& params, bool with_jacobians);

class PointTriangleFriction final
    : public PairFrictionTerm<PointTriangleContact, imc_point_triangle_friction> {
 public:
  /// The same nodes, triangles, graph edges and parameters as the PointTriangleContact it belongs
  /// to; params.friction is mu.
  PointTriangleFriction(ContactNodes points, ContactTriangles triangles,
                        const std::vector<std::array<int, 2>>& graph_edges,
                        const ContactParameters& params, const VecX& q_initial)
      : PairFrictionTerm(PointTriangleContact(std::move(points), std::move(triangles), graph_edges,
                                              params, q_initial, false),
                         params) {}
  std::string_view name() const override { return "point_triangle_friction"; }
};

}  // namespace tendril::contact
