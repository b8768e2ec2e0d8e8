#include "tendril/integrate/stiff_segments.hpp"

#include <algorithm>
#include <map>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include "tendril/core/disjoint_sets.hpp"

namespace tendril {

StiffSegments::StiffSegments(const Model& model, double ratio) {
  const RodNetwork& rods = model.rods;
  if (ratio <= 0.0 || rods.edges.empty()) return;
  // a value `ratio` times the median of `values`
  auto threshold = [ratio](std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return ratio * values[values.size() / 2];
  };
  const double stretch_threshold = threshold(rods.stretch_stiffness);
  std::vector<char> stiff_edge(rods.edges.size(), 0), grouped(rods.edges.size(), 0);
  // (a zero median, e.g. of springs without bending, marks nothing)
  auto stiff = [](double value, double bound) { return bound > 0.0 && value >= bound; };
  for (std::size_t e = 0; e < rods.edges.size(); ++e)
    stiff_edge[e] = grouped[e] = stiff(rods.stretch_stiffness[e], stretch_threshold);
  // two edges that meet at a spring with stiff bending turn together (their lengths may stay soft);
  // an edge whose every spring bends stiffly is a stiff edge too (it holds its group on a fixed
  // node)
  std::vector<char> stiff_spring(rods.springs.size(), 0);
  if (!rods.springs.empty()) {
    std::vector<double> bending(rods.springs.size());
    for (std::size_t k = 0; k < rods.springs.size(); ++k)
      bending[k] = std::min(rods.springs[k].bend_stiffness_1, rods.springs[k].bend_stiffness_2);
    const double bend_threshold = threshold(bending);
    std::vector<int> springs_at_edge(rods.edges.size(), 0),
        stiff_springs_at_edge(rods.edges.size(), 0);
    for (std::size_t k = 0; k < rods.springs.size(); ++k) {
      const BendTwistSpring& spring = rods.springs[k];
      stiff_spring[k] = stiff(bending[k], bend_threshold);
      for (int e : {spring.edge_a, spring.edge_b}) {
        ++springs_at_edge[e];
        stiff_springs_at_edge[e] += stiff_spring[k];
      }
      if (stiff_spring[k]) grouped[spring.edge_a] = grouped[spring.edge_b] = 1;
    }
    for (std::size_t e = 0; e < rods.edges.size(); ++e)
      if (springs_at_edge[e] > 0 && stiff_springs_at_edge[e] == springs_at_edge[e])
        stiff_edge[e] = 1;
  }
  collect_groups(model, grouped, stiff_edge, {});
  link_chains(model, grouped, stiff_spring);
}

void StiffSegments::link_chains(const Model& model, const std::vector<char>& grouped,
                                const std::vector<char>& stiff_spring) {
  const RodNetwork& rods = model.rods;
  std::vector<int> group_of(model.dofs.num_nodes, -1);
  for (std::size_t g = 0; g < groups_.size(); ++g)
    for (int i : groups_[g]) group_of[i] = static_cast<int>(g);
  // a group is rigid if every spring between two of its edges bends stiffly, else a chain
  std::vector<char> rigid(groups_.size(), 1);
  for (std::size_t k = 0; k < rods.springs.size(); ++k) {
    const BendTwistSpring& spring = rods.springs[k];
    if (!stiff_spring[k] && grouped[spring.edge_a] && grouped[spring.edge_b] &&
        group_of[spring.node] >= 0)
      rigid[group_of[spring.node]] = 0;
  }
  std::vector<std::vector<int>> neighbours(model.dofs.num_nodes);
  for (std::size_t e = 0; e < rods.edges.size(); ++e) {
    const auto [n0, n1] = rods.edges[e];
    if (grouped[e] && group_of[n0] >= 0 && group_of[n0] == group_of[n1]) {
      neighbours[n0].push_back(n1);
      neighbours[n1].push_back(n0);
    }
  }
  links_.assign(groups_.size(), {});
  std::vector<char> reached(model.dofs.num_nodes, 0);
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    if (rigid[g]) continue;
    // breadth first from the node nearest the group's centroid at rest (the turns add up along the
    // chain)
    int root = groups_[g].front();
    if (model.rest_positions.size() == 3 * model.dofs.num_nodes) {
      Vec3 centroid = Vec3::Zero();
      for (int i : groups_[g]) centroid += model.rest_positions.segment<3>(3 * i);
      centroid /= static_cast<double>(groups_[g].size());
      auto distance = [&](int i) {
        return (model.rest_positions.segment<3>(3 * i) - centroid).norm();
      };
      root = *std::min_element(groups_[g].begin(), groups_[g].end(),
                               [&](int a, int b) { return distance(a) < distance(b); });
    }
    std::vector<std::array<int, 2>>& links = links_[g];
    reached[root] = 1;
    links.push_back({-1, root});
    for (std::size_t next = 0; next < links.size(); ++next)
      for (int child : neighbours[links[next][1]])
        if (!reached[child]) {
          reached[child] = 1;
          links.push_back({links[next][1], child});
        }
  }
}

StiffSegments StiffSegments::free_bodies(const Model& model) {
  StiffSegments bodies;
  const std::vector<char> every_edge(model.rods.edges.size(), 1);
  std::vector<char> shell_node(model.dofs.num_nodes, 0);
  for (const auto& triangle : model.shells.triangles)
    for (int i : triangle) shell_node[i] = 1;
  for (const auto& edge : model.shells.joint_edges)
    for (int i : edge) shell_node[i] = 1;
  bodies.collect_groups(model, every_edge, every_edge, shell_node);
  return bodies;
}

void StiffSegments::collect_groups(const Model& model, const std::vector<char>& grouped,
                                   const std::vector<char>& stiff_edge,
                                   const std::vector<char>& held) {
  const RodNetwork& rods = model.rods;
  DisjointSets sets(model.dofs.num_nodes);
  std::vector<char> member(model.dofs.num_nodes,
                           0);  // 1: node of a grouped edge, 2: of a stiff edge
  for (std::size_t e = 0; e < rods.edges.size(); ++e)
    if (grouped[e]) {
      sets.merge_into(rods.edges[e][0], rods.edges[e][1]);
      for (int i : rods.edges[e]) member[i] = std::max<char>(member[i], stiff_edge[e] ? 2 : 1);
    }
  auto fixed = [&](int i) {
    const auto dofs = model.dofs.node_dofs(i);
    return std::any_of(dofs.begin(), dofs.end(), [&](int d) { return model.fixed[d] != 0; });
  };
  auto holds = [&](int i) { return (member[i] == 2 && fixed(i)) || (!held.empty() && held[i]); };
  std::map<int, std::vector<int>> by_root;
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    if (member[i]) by_root[sets.find(i)].push_back(i);
  for (auto& [root, nodes] : by_root) {
    // a stiff edge on a fixed node: the group is held; a fixed node of a soft edge just stays
    if (std::any_of(nodes.begin(), nodes.end(), holds)) continue;
    std::erase_if(nodes, fixed);
    groups_.push_back(std::move(nodes));
  }
  motions_.resize(groups_.size());
  links_.assign(groups_.size(), {});
}

void StiffSegments::fit(const VecX& y, const VecX& d) {
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    if (!links_[g].empty()) continue;  // a chain turns edge by edge
    const std::vector<int>& nodes = groups_[g];
    const double count = static_cast<double>(nodes.size());
    Vec3 centroid = Vec3::Zero(), translation = Vec3::Zero();
    for (int i : nodes) {
      centroid += y.segment<3>(3 * i);
      translation += d.segment<3>(3 * i);
    }
    centroid /= count;
    translation /= count;
    // least squares: min_w sum |d_i - t - w x r_i|^2  <=>  A w = sum r_i x (d_i - t),
    // A = sum (|r_i|^2 I - r_i r_i^T) (the segment's unit-mass inertia tensor about c)
    Mat3 inertia = Mat3::Zero();
    Vec3 moment = Vec3::Zero();
    for (int i : nodes) {
      const Vec3 r = y.segment<3>(3 * i) - centroid;
      inertia += r.squaredNorm() * Mat3::Identity() - r * r.transpose();
      moment += r.cross(d.segment<3>(3 * i) - translation);
    }
    // pseudo-inverse: a straight segment does not see a rotation about its own axis (zero
    // eigenvalue)
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(inertia);
    const double largest = eigen.eigenvalues().maxCoeff();
    Vec3 rotation = Vec3::Zero();
    for (int k = 0; k < 3; ++k)
      if (eigen.eigenvalues()[k] > 1e-12 * largest)
        rotation += eigen.eigenvectors().col(k) *
                    (eigen.eigenvectors().col(k).dot(moment) / eigen.eigenvalues()[k]);
    motions_[g] = {centroid, translation, rotation};
  }
}

void StiffSegments::trial(const VecX& y, const VecX& d, double a, VecX& trial) const {
  trial = y + a * d;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    if (!links_[g].empty()) {
      turn_chain(y, d, a, links_[g], trial);
      continue;
    }
    const Vec3 w = a * motions_[g].rotation;
    const double angle = w.norm();
    if (angle == 0.0) continue;
    const Mat3 rotation = Eigen::AngleAxisd(angle, w / angle).toRotationMatrix();
    for (int i : groups_[g]) {
      // x_i(a) = c + a t + R(a w) (r_i + a delta_i): the non-rigid rest a delta_i turns with the
      // group
      const Vec3 r = y.segment<3>(3 * i) - motions_[g].centroid;
      const Vec3 a_delta = a * (d.segment<3>(3 * i) - motions_[g].translation) - w.cross(r);
      trial.segment<3>(3 * i) += rotation * (r + a_delta) - r - w.cross(r) - a_delta;
    }
  }
}

void StiffSegments::turn_chain(const VecX& y, const VecX& d, double a,
                               const std::vector<std::array<int, 2>>& links, VecX& trial) {
  // the root moves on the line; each child follows its parent, its edge turned by the edge's own
  // rotation
  for (std::size_t k = 1; k < links.size(); ++k) {
    const auto [parent, child] = links[k];
    const Vec3 e = y.segment<3>(3 * child) - y.segment<3>(3 * parent);
    const Vec3 de = d.segment<3>(3 * child) - d.segment<3>(3 * parent);
    const double length2 = e.squaredNorm();
    const Vec3 w = a * e.cross(de) / length2;            // the edge's turn a w
    const Vec3 stretch = (a * e.dot(de) / length2) * e;  // its change of length, a delta
    const double angle = w.norm();
    const Vec3 turned =
        angle == 0.0 ? e + stretch : Vec3(Eigen::AngleAxisd(angle, w / angle) * (e + stretch));
    trial.segment<3>(3 * child) = trial.segment<3>(3 * parent) + turned;
  }
}

}  // namespace tendril
