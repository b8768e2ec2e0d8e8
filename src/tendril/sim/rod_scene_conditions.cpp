// The rods' clamps, `boundary_conditions` and `initial_conditions` of a rod scene
// (rod_scene_loader.hpp).
#include <memory>

#include <fmt/format.h>
#include <Eigen/Geometry>

#include "tendril/core/number_text.hpp"
#include "tendril/sim/rod_scene_loader.hpp"

namespace tendril::sim {

PrescribedMotion clamp_motion(std::vector<int> nodes, std::vector<int> twist_dofs,
                              std::vector<Vec3> tangents, const Vec3& velocity, const Vec3& omega,
                              const Vec3& center) {
  PrescribedMotion motion;
  for (int n : nodes)
    for (int d = 0; d < 3; ++d) motion.dofs.push_back(3 * n + d);
  for (int t : twist_dofs) motion.dofs.push_back(t);
  motion.apply = [nodes, twist_dofs, tangents, velocity, omega, center](double t, const VecX& q0,
                                                                        VecX& q) {
    const double rate = omega.norm();
    const Mat3 rotation = rate > 0.0 ? Eigen::AngleAxisd(rate * t, omega / rate).toRotationMatrix()
                                     : Mat3::Identity();
    for (int n : nodes)
      q.segment<3>(3 * n) = center + velocity * t + rotation * (q0.segment<3>(3 * n) - center);
    for (std::size_t k = 0; k < twist_dofs.size(); ++k)
      q[twist_dofs[k]] = q0[twist_dofs[k]] + omega.dot(tangents[k]) * t;
  };
  return motion;
}

namespace {

/// Local indices listed under `key`, or all `count` of them when the key is absent.
std::vector<int> selected(const io::SceneNode& at, const char* key, int count, const char* what) {
  std::vector<int> local;
  if (!at.has(key)) {
    for (int i = 0; i < count; ++i) local.push_back(i);
    return local;
  }
  const auto indices = at.integers(key);
  for (std::size_t k = 0; k < indices.size(); ++k)
    local.push_back(resolve_index(at, fmt::format("{}[{}]", key, k), indices[k], count, what));
  return local;
}

}  // namespace

void RodSceneLoader::fix_node(int n) {
  for (int d = 0; d < 3; ++d) model.fixed[3 * n + d] = 1;
}

void RodSceneLoader::add_clamps() {
  for (int r = 0; r < num_rods; ++r) {
    const RodInput& in = rod_inputs[r];
    const io::SceneNode& rod = rods[r];
    if (in.clamp == "none") {
      if (rod.has("clamp_motion")) rod.fail("clamp_motion", "absent unless the rod has a clamp");
      continue;
    }
    std::vector<int> clamped_edges;
    if (in.clamp == "start" || in.clamp == "both") clamped_edges.push_back(0);
    if (in.clamp == "end" || in.clamp == "both") clamped_edges.push_back(rod_edge_count(r) - 1);
    std::vector<int> nodes, twists;
    std::vector<Vec3> tangents;
    for (int e : clamped_edges) {
      const auto [a, b] = model.rods.edges[out.rod_edges[r][e]];
      fix_node(a);
      fix_node(b);
      nodes.push_back(a);
      nodes.push_back(b);
      const int twist = model.dofs.twist(out.rod_edges[r][e]);
      model.fixed[twist] = 1;
      twists.push_back(twist);
      tangents.push_back(
          (out.q_initial.segment<3>(3 * b) - out.q_initial.segment<3>(3 * a)).normalized());
    }
    if (rod.has("clamp_motion")) {
      const io::SceneNode m = rod.map("clamp_motion");
      const Vec3 v = m.vec3("velocity"), omega = m.vec3("angular_velocity");
      const Vec3 clamp_point =
          0.5 * (out.q_initial.segment<3>(3 * nodes[0]) + out.q_initial.segment<3>(3 * nodes[1]));
      const Vec3 center = m.has("center") ? m.vec3("center") : clamp_point;
      model.prescribed.push_back(clamp_motion(nodes, twists, tangents, v, omega, center));
    }
  }
}

void RodSceneLoader::add_boundary_conditions() {
  const io::SceneNode bc = root.map("boundary_conditions");
  for (const io::SceneNode& f : bc.list("fixed_nodes")) {
    const int r = rod_index(f);
    const auto nodes = f.integers("nodes");
    for (std::size_t k = 0; k < nodes.size(); ++k)
      fix_node(out.rod_nodes[r][resolve_index(f, fmt::format("nodes[{}]", k), nodes[k], rod_size(r),
                                              "node")]);
  }
  for (const io::SceneNode& f : bc.list("fixed_twists")) {
    const int r = rod_index(f);
    const auto edges = f.integers("edges");
    for (std::size_t k = 0; k < edges.size(); ++k) {
      const int e =
          resolve_index(f, fmt::format("edges[{}]", k), edges[k], rod_edge_count(r), "edge");
      model.fixed[model.dofs.twist(out.rod_edges[r][e])] = 1;
    }
  }
  for (const io::SceneNode& f : bc.list("fixed_dofs")) {
    const int r = rod_index(f);
    const int n =
        out.rod_nodes[r][resolve_index(f, "node", f.integer("node"), rod_size(r), "node")];
    for (const std::string& c : f.texts("components")) model.fixed[3 * n + (c[0] - 'x')] = 1;
  }
  for (const io::SceneNode& f : bc.list("moving_nodes")) {
    const int r = rod_index(f);
    const auto nodes = f.integers("nodes");
    PrescribedMotion motion;
    std::vector<int> moved;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const int n = out.rod_nodes[r][resolve_index(f, fmt::format("nodes[{}]", k), nodes[k],
                                                   rod_size(r), "node")];
      fix_node(n);
      moved.push_back(n);
      for (int d = 0; d < 3; ++d) motion.dofs.push_back(3 * n + d);
    }
    motion.apply = [moved, displacement = history(f, "velocity", true)](double t, const VecX& q0,
                                                                        VecX& q) {
      const Vec3 d = displacement(t);
      for (int n : moved) q.segment<3>(3 * n) = q0.segment<3>(3 * n) + d;
    };
    model.prescribed.push_back(std::move(motion));
  }
}

void RodSceneLoader::read_initial_conditions() {
  // fixed DOFs keep zero velocity; the shells' velocities are already in u_initial
  const io::SceneNode initial = root.map("initial_conditions");
  for (const io::SceneNode& v : initial.list("velocities")) {
    const int r = rod_index(v);
    const Vec3 velocity = v.vec3("velocity");
    for (int i : selected(v, "nodes", rod_size(r), "node")) {
      const int n = out.rod_nodes[r][i];
      for (int d = 0; d < 3; ++d) {
        if (model.fixed[3 * n + d] && velocity[d] != 0.0)
          v.fail("velocity",
                 fmt::format("[{}, {}, {}] on node {} of rod {}", number_text(velocity.x()),
                             number_text(velocity.y()), number_text(velocity.z()), i, r),
                 "zero components on fixed DOFs (clamped or fixed nodes, fixed_dofs)");
        out.u_initial[3 * n + d] = velocity[d];
      }
    }
  }
  for (const io::SceneNode& tw : initial.list("twists")) {
    const int r = rod_index(tw);
    const double angle = tw.real("angle"), rate = tw.real("rate");
    for (int e : selected(tw, "edges", rod_edge_count(r), "edge")) {
      const int dof = model.dofs.twist(out.rod_edges[r][e]);
      if (model.fixed[dof] && rate != 0.0)
        tw.fail(
            "rate",
            fmt::format("{} rad/s on edge {} of rod {} (a fixed twist)", number_text(rate), e, r),
            "zero on fixed twists (clamped edges, fixed_twists)");
      out.q_initial[dof] = angle;
      out.u_initial[dof] = rate;
    }
  }
}

}  // namespace tendril::sim
