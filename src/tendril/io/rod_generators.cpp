#include "tendril/io/rod_generators.hpp"

#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

namespace tendril::io {

std::vector<std::array<int, 2>> chain_edges(int num_nodes, bool closed) {
  std::vector<std::array<int, 2>> edges;
  for (int i = 0; i + 1 < num_nodes; ++i) edges.push_back({i, i + 1});
  if (closed) edges.push_back({num_nodes - 1, 0});
  return edges;
}

Polyline straight_rod(const Vec3& start, const Vec3& direction, double length, int num_edges,
                      bool clamp_offset) {
  Polyline p;
  const double dl = clamp_offset ? length / (num_edges - 0.5) : length / num_edges;
  const Vec3 first = clamp_offset ? Vec3(start - 0.5 * dl * direction) : start;
  for (int i = 0; i <= num_edges; ++i) p.nodes.push_back(first + i * dl * direction);
  p.edges = chain_edges(num_edges + 1, false);
  return p;
}

Vec3 radial_direction(const Vec3& axis) {
  // the coordinate axis least aligned with `axis`, made perpendicular to it
  Eigen::Index smallest = 0;
  axis.cwiseAbs().minCoeff(&smallest);
  const Vec3 e = Vec3::Unit(smallest);
  return (e - e.dot(axis) * axis).normalized();
}

Polyline helix(const Vec3& center, const Vec3& axis, double radius, double pitch, double turns,
               int num_nodes) {
  Polyline p;
  const Vec3 u = radial_direction(axis);
  const Vec3 v = axis.cross(u);
  for (int i = 0; i < num_nodes; ++i) {
    const double s = turns * i / (num_nodes - 1);
    const double phi = 2.0 * std::numbers::pi * s;
    p.nodes.push_back(center + radius * (std::cos(phi) * u + std::sin(phi) * v) + pitch * s * axis);
  }
  p.edges = chain_edges(num_nodes, false);
  return p;
}

Polyline circle(const Vec3& center, const Vec3& normal, double radius, int num_nodes, bool closed) {
  Polyline p;
  const Vec3 u = radial_direction(normal);
  const Vec3 v = normal.cross(u);
  for (int i = 0; i < num_nodes; ++i) {
    const double phi = 2.0 * std::numbers::pi * i / num_nodes;
    p.nodes.push_back(center + radius * (std::cos(phi) * u + std::sin(phi) * v));
  }
  p.edges = chain_edges(num_nodes, closed);
  return p;
}

}  // namespace tendril::io
