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
  for (std::size_t e = 0; e < rods.edges.size(); ++e) stiff_edge[e] = grouped[e] = rods.stretch_stiffness[e] >= stretch_threshold;
  // an edge that meets a stiff edge at a spring with stiff bending turns with it (its length stays soft)
  if (!rods.springs.empty()) {
    std::vector<double> bending(rods.springs.size());
    for (std::size_t k = 0; k < rods.springs.size(); ++k)
      bending[k] = std::min(rods.springs[k].bend_stiffness_1, rods.springs[k].bend_stiffness_2);
    const double bend_threshold = threshold(bending);
    for (std::size_t k = 0; k < rods.springs.size(); ++k) {
      const BendTwistSpring& spring = rods.springs[k];
      if (bending[k] >= bend_threshold && (stiff_edge[spring.edge_a] || stiff_edge[spring.edge_b]))
        grouped[spring.edge_a] = grouped[spring.edge_b] = 1;
    }
  }

  DisjointSets sets(model.dofs.num_nodes);
  std::vector<char> member(model.dofs.num_nodes, 0);  // 1: node of a grouped edge, 2: of a stiff edge
  for (std::size_t e = 0; e < rods.edges.size(); ++e)
    if (grouped[e]) {
      sets.merge_into(rods.edges[e][0], rods.edges[e][1]);
      for (int i : rods.edges[e]) member[i] = std::max<char>(member[i], stiff_edge[e] ? 2 : 1);
    }
  auto fixed = [&](int i) {
    const auto dofs = model.dofs.node_dofs(i);
    return std::any_of(dofs.begin(), dofs.end(), [&](int d) { return model.fixed[d] != 0; });
  };
  std::map<int, std::vector<int>> by_root;
  for (int i = 0; i < model.dofs.num_nodes; ++i)
    if (member[i]) by_root[sets.find(i)].push_back(i);
  for (auto& [root, nodes] : by_root) {
    // a stiff edge on a fixed node: the group is held; a fixed node of a soft edge just stays
    if (std::any_of(nodes.begin(), nodes.end(), [&](int i) { return member[i] == 2 && fixed(i); })) continue;
    std::erase_if(nodes, fixed);
    groups_.push_back(std::move(nodes));
  }
  motions_.resize(groups_.size());
}

void StiffSegments::fit(const VecX& y, const VecX& d) {
  for (std::size_t g = 0; g < groups_.size(); ++g) {
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
    // pseudo-inverse: a straight segment does not see a rotation about its own axis (zero eigenvalue)
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(inertia);
    const double largest = eigen.eigenvalues().maxCoeff();
    Vec3 rotation = Vec3::Zero();
    for (int k = 0; k < 3; ++k)
      if (eigen.eigenvalues()[k] > 1e-12 * largest)
        rotation += eigen.eigenvectors().col(k) * (eigen.eigenvectors().col(k).dot(moment) / eigen.eigenvalues()[k]);
    motions_[g] = {centroid, translation, rotation};
  }
}

void StiffSegments::trial(const VecX& y, const VecX& d, double a, VecX& trial) const {
  trial = y + a * d;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const Vec3 w = a * motions_[g].rotation;
    const double angle = w.norm();
    if (angle == 0.0) continue;
    const Mat3 rotation = Eigen::AngleAxisd(angle, w / angle).toRotationMatrix();
    for (int i : groups_[g]) {
      // x_i(a) = c + a t + R(a w) (r_i + a delta_i): the non-rigid rest a delta_i turns with the group
      const Vec3 r = y.segment<3>(3 * i) - motions_[g].centroid;
      const Vec3 a_delta = a * (d.segment<3>(3 * i) - motions_[g].translation) - w.cross(r);
      trial.segment<3>(3 * i) += rotation * (r + a_delta) - r - w.cross(r) - a_delta;
    }
  }
}

}  // namespace tendril
