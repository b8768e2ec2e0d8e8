#include "tendril/geometry/kinematics.hpp"

#include <cmath>
#include <map>
#include <numbers>

#include "tendril/core/error.hpp"
#include "tendril/geometry/parallel_transport.hpp"
#include "tendril/geometry/signed_angle.hpp"
#include "tendril/geometry/triangle_normal.hpp"

namespace tendril {
namespace {

Vec3 edge_vector(const Model& model, const VecX& q, int e) {
  const auto& nodes = framed_edge_nodes(model, e);
  return q.segment<3>(model.dofs.node(nodes[1])) - q.segment<3>(model.dofs.node(nodes[0]));
}

/// Reference twist of a spring: the angle about t_b (oriented) from the reference director of
/// edge_a, space-parallel transported to edge_b, to the reference director of edge_b. The reference
/// director a_1 is the same for both orientations of an edge (only t and a_2 flip); director_sign_a
/// turns edge_a's frame by pi inside this spring.
double spring_reference_angle(const BendTwistSpring& s, const std::vector<Vec3>& tangent,
                              const std::vector<Vec3>& director) {
  const auto a = static_cast<std::size_t>(s.edge_a);
  const auto b = static_cast<std::size_t>(s.edge_b);
  const Vec3 t_a = s.sign_a * tangent[a];
  const Vec3 t_b = s.sign_b * tangent[b];
  return signed_angle(parallel_transport_normal(s.director_sign_a * director[a], t_a, t_b),
                      director[b], t_b);
}

/// n_avg of shell edge k at q: the normalised sum of the unit normals of its one or two triangles.
Vec3 shell_edge_normal(const Model& model, const VecX& q, std::size_t k) {
  const ShellMesh& shells = model.shells;
  const auto position = [&](int node) { return q.segment<3>(model.dofs.node(node)); };
  Vec3 n_sum = Vec3::Zero();
  for (int t : shells.edge_triangles[k]) {
    if (t < 0) continue;
    const auto& tri = shells.triangles[static_cast<std::size_t>(t)];
    n_sum += triangle_normal(position(tri[0]), position(tri[1]), position(tri[2])).normalized();
  }
  return n_sum.normalized();
}

/// tau = n_avg x e_hat of the shell edge carrying xi index z at q (mat_dismech 3.3.2): e_hat along
/// the shell edge (n_0 -> n_1).
Vec3 shell_edge_frame(const Model& model, const VecX& q, int z) {
  const ShellMesh& shells = model.shells;
  const auto k = static_cast<std::size_t>(shells.xi_edge[static_cast<std::size_t>(z)]);
  const Vec3 e_hat = (q.segment<3>(model.dofs.node(shells.edges[k][1])) -
                      q.segment<3>(model.dofs.node(shells.edges[k][0])))
                         .normalized();
  return shell_edge_normal(model, q, k).cross(e_hat);
}

}  // namespace

bool director_hint_usable(const Vec3& t, const Vec3& u) {
  return u.cross(t).norm() > kParallelHintSine * u.norm();
}

Vec3 initial_director(const Vec3& t, const Vec3& u) {
  Vec3 up = u;
  if (!director_hint_usable(t, u)) {
    Eigen::Index smallest = 0;
    u.cwiseAbs().minCoeff(&smallest);
    up = Vec3::Unit(smallest);
  }
  return (up - up.dot(t) * t).normalized();
}

void initialize_frames(const Model& model, const VecX& q, RodFrames& frames) {
  const auto num_edges = framed_edge_count(model);
  const auto num_rod_edges = model.rods.edges.size();
  const auto num_springs = framed_spring_count(model);
  frames.tangent.resize(num_edges);
  frames.reference_director.resize(num_edges);
  frames.reference_twist.assign(num_springs, 0.0);
  frames.shell_edge_tau.resize(model.shells.xi_edge.size());
  for (std::size_t z = 0; z < frames.shell_edge_tau.size(); ++z)
    frames.shell_edge_tau[z] = shell_edge_frame(model, q, static_cast<int>(z));
  for (std::size_t e = 0; e < num_edges; ++e) {
    const Vec3 edge = edge_vector(model, q, static_cast<int>(e));
    TENDRIL_ASSERT(edge.norm() > 0.0, "zero-length edge in initialize_frames");
    frames.tangent[e] = edge.normalized();
  }

  // springs touching each rod edge, to space-parallel transport a_1 along rods and through joints;
  // a spring is inside a chain when its node has exactly two edges (one spring)
  std::vector<std::vector<int>> springs_of_edge(num_rod_edges);
  std::vector<int> springs_at_node(static_cast<std::size_t>(model.dofs.num_nodes), 0);
  for (std::size_t k = 0; k < model.rods.springs.size(); ++k) {
    const BendTwistSpring& s = model.rods.springs[k];
    springs_of_edge[static_cast<std::size_t>(s.edge_a)].push_back(static_cast<int>(k));
    springs_of_edge[static_cast<std::size_t>(s.edge_b)].push_back(static_cast<int>(k));
    ++springs_at_node[static_cast<std::size_t>(s.node)];
  }

  // breadth-first over the spring graph from the queued edges, through chain springs only or all
  // springs
  std::vector<std::uint8_t> done(num_edges, 0);
  std::vector<int> queue;
  queue.reserve(num_edges);
  const auto spread = [&](bool chains_only) {
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int from = queue[head];
      for (int k : springs_of_edge[static_cast<std::size_t>(from)]) {
        const BendTwistSpring& s = model.rods.springs[static_cast<std::size_t>(k)];
        if (chains_only && springs_at_node[static_cast<std::size_t>(s.node)] != 1) continue;
        const int to = s.edge_a == from ? s.edge_b : s.edge_a;
        if (done[static_cast<std::size_t>(to)]) continue;
        const Vec3 t_from = (s.edge_a == from ? s.sign_a : s.sign_b) *
                            frames.tangent[static_cast<std::size_t>(from)];
        const Vec3 t_to =
            (s.edge_a == from ? s.sign_b : s.sign_a) * frames.tangent[static_cast<std::size_t>(to)];
        Vec3 a1 = parallel_transport(frames.reference_director[static_cast<std::size_t>(from)],
                                     t_from, t_to);
        a1 -= a1.dot(t_to) * t_to;
        frames.reference_director[static_cast<std::size_t>(to)] = a1.normalized();
        done[static_cast<std::size_t>(to)] = 1;
        queue.push_back(to);
      }
    }
  };
  const auto& hints = model.rods.initial_director_hint;
  TENDRIL_ASSERT(hints.empty() || hints.size() == num_rod_edges,
                 "initial_director_hint: one entry per rod edge or none");
  for (std::size_t e = 0; e < hints.size(); ++e) {
    if (hints[e].isZero()) continue;
    frames.reference_director[e] = initial_director(frames.tangent[e], hints[e]);
    done[e] = 1;
    queue.push_back(static_cast<int>(e));
  }
  spread(true);   // each seed along its own chain first
  spread(false);  // the same queue again, now through joints
  for (std::size_t root = 0; root < num_rod_edges; ++root) {
    if (done[root]) continue;
    frames.reference_director[root] = initial_director(frames.tangent[root]);
    done[root] = 1;
    queue.assign(1, static_cast<int>(root));
    spread(false);
  }
  // then the joint edges of rod-shell joints: a_1 along the shell's normal at the edge (n_avg,
  // normal to the edge), a choice that follows the geometry only, so symmetric joints get symmetric
  // frames
  std::map<std::array<int, 2>, std::size_t> shell_edge_of;
  if (num_edges > num_rod_edges)
    for (std::size_t k = 0; k < model.shells.edges.size(); ++k)
      shell_edge_of.emplace(model.shells.edges[k], k);
  for (std::size_t e = num_rod_edges; e < num_edges; ++e)
    frames.reference_director[e] = initial_director(
        frames.tangent[e],
        shell_edge_normal(model, q,
                          shell_edge_of.at(framed_edge_nodes(model, static_cast<int>(e)))));

  // springs on the spanning tree start untwisted; springs closing a loop at a joint carry its
  // holonomy
  for (std::size_t k = 0; k < num_springs; ++k)
    frames.reference_twist[k] =
        spring_reference_angle(framed_spring(model, k), frames.tangent, frames.reference_director);
}

void resize_kinematics(const Model& model, const RodFrames& accepted, Kinematics& kin) {
  const auto num_edges = framed_edge_count(model);
  const auto num_springs = framed_spring_count(model);
  TENDRIL_ASSERT(accepted.tangent.size() == num_edges &&
                     accepted.reference_director.size() == num_edges &&
                     accepted.reference_twist.size() == num_springs &&
                     accepted.shell_edge_tau.size() == model.shells.xi_edge.size(),
                 "accepted frames do not match the model (call initialize_frames)");
  kin.edge.resize(num_edges);
  kin.edge_length.resize(num_edges);
  kin.tangent.resize(num_edges);
  kin.reference_director_1.resize(num_edges);
  kin.reference_director_2.resize(num_edges);
  kin.material_director_1.resize(num_edges);
  kin.material_director_2.resize(num_edges);
  kin.transport_rotation_gradient.resize(num_edges);
  kin.reference_twist.resize(num_springs);
  kin.shell_edge_tau_accepted = accepted.shell_edge_tau;
  kin.shell_edge_tau.resize(accepted.shell_edge_tau.size());
}

void compute_edge_kinematics(const Model& model, const RodFrames& accepted, const VecX& q,
                             std::size_t first, std::size_t last, Kinematics& kin) {
  // edges, tangents, time-parallel transported reference frames, material frames
  for (std::size_t e = first; e < last; ++e) {
    const Vec3 edge = edge_vector(model, q, static_cast<int>(e));
    const double length = edge.norm();
    const Vec3 t = edge / length;
    const Vec3& t_acc = accepted.tangent[e];
    Vec3 a1 = parallel_transport_normal(accepted.reference_director[e], t_acc, t);
    a1 -= a1.dot(t) * t;
    a1.normalize();
    const Vec3 a2 = t.cross(a1);
    const double theta = q[framed_edge_twist(model, static_cast<int>(e))];
    const double c = std::cos(theta);
    const double s = std::sin(theta);
    kin.edge[e] = edge;
    kin.edge_length[e] = length;
    kin.tangent[e] = t;
    kin.reference_director_1[e] = a1;
    kin.reference_director_2[e] = a2;
    kin.material_director_1[e] = c * a1 + s * a2;
    kin.material_director_2[e] = -s * a1 + c * a2;
    kin.transport_rotation_gradient[e] = t.cross(t_acc) / (length * (1.0 + t_acc.dot(t)));
  }
}

void compute_shell_edge_kinematics(const Model& model, const VecX& q, std::size_t first,
                                   std::size_t last, Kinematics& kin) {
  // the frame the mid-edge energy measures against: the accepted one carried to the edge of q by
  // projection (shell/midedge_bending.hpp), so that accepting it changes no angle; a fixed xi holds
  // the edge's mid-edge normal, so its frame stays the one from t = 0
  const ShellMesh& shells = model.shells;
  for (std::size_t z = first; z < last; ++z) {
    const Vec3& tau = kin.shell_edge_tau_accepted[z];
    if (model.fixed[static_cast<std::size_t>(model.dofs.xi(static_cast<int>(z)))]) {
      kin.shell_edge_tau[z] = tau;
      continue;
    }
    const auto& edge = shells.edges[static_cast<std::size_t>(shells.xi_edge[z])];
    const Vec3 e_hat =
        (q.segment<3>(model.dofs.node(edge[1])) - q.segment<3>(model.dofs.node(edge[0])))
            .normalized();
    kin.shell_edge_tau[z] = (tau - tau.dot(e_hat) * e_hat).normalized();
  }
}

void compute_reference_twist(const Model& model, const RodFrames& accepted, std::size_t first,
                             std::size_t last, Kinematics& kin) {
  // reference twist, on the branch (multiple of 2 pi) closest to the accepted one
  constexpr double two_pi = 2.0 * std::numbers::pi;
  for (std::size_t k = first; k < last; ++k) {
    const double angle =
        spring_reference_angle(framed_spring(model, k), kin.tangent, kin.reference_director_1);
    kin.reference_twist[k] =
        angle + two_pi * std::round((accepted.reference_twist[k] - angle) / two_pi);
  }
}

void compute_kinematics(const Model& model, const RodFrames& accepted, const VecX& q,
                        Kinematics& kin) {
  resize_kinematics(model, accepted, kin);
  compute_shell_edge_kinematics(model, q, 0, kin.shell_edge_tau.size(), kin);
  compute_edge_kinematics(model, accepted, q, 0, kin.edge.size(), kin);
  compute_reference_twist(model, accepted, 0, kin.reference_twist.size(), kin);
}

void accept_frames(const Kinematics& kin, RodFrames& frames) {
  frames.tangent = kin.tangent;
  frames.reference_director = kin.reference_director_1;
  frames.reference_twist = kin.reference_twist;
  frames.shell_edge_tau = kin.shell_edge_tau;
}

}  // namespace tendril
