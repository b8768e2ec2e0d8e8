#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "shell/shell_meshes.hpp"
#include "support/input_error.hpp"

namespace tendril {
namespace {

using testing::expect_input_error;

io::TriangleMesh square() {
  io::TriangleMesh mesh;
  mesh.nodes = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0), Vec3(2, 0, 0)};
  mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  return mesh;
}

void build_with(const io::TriangleMesh& mesh, ShellMaterial material = {2.0, 0.3, 1.0, 0.1}) {
  ShellInput input = test::shell_input(mesh, ShellBending::midedge, ShellMembrane::cst);
  input.material = material;
  build_shell_model(mesh.nodes, {input});
}

TEST(ShellBuilder, TopologyXiAndMass) {
  const test::BuiltShell s = test::build(io::rectangle_mesh(1.0, 1.0, 3, 3, io::MeshPattern::right),
                                         ShellBending::midedge, ShellMembrane::cst);
  const ShellMesh& mesh = s.model.shells;
  // 3 x 3 nodes, 8 triangles, 16 edges (Euler: V - E + F = 1)
  EXPECT_EQ(mesh.triangles.size(), 8u);
  EXPECT_EQ(mesh.edges.size(), 16u);
  EXPECT_EQ(s.model.dofs.num_shell_edges, 16);
  EXPECT_EQ(s.model.dofs.size(), 27 + 16);
  EXPECT_EQ(mesh.midedge_triangles.size(), 8u);
  // ownership: each interior edge is run forwards by one triangle and backwards by the other
  for (std::size_t e = 0; e < mesh.edges.size(); ++e) {
    if (mesh.edge_triangles[e][1] < 0) continue;
    double sign_sum = 0.0;
    for (const MidEdgeTriangle& t : mesh.midedge_triangles)
      for (int k = 0; k < 3; ++k)
        if (t.xi[static_cast<std::size_t>(k)] == mesh.edge_xi[e]) sign_sum += t.edge_sign[k];
    EXPECT_EQ(sign_sum, 0.0) << "edge " << e;
  }
  // total mass rho h A = 1 * 0.4 * 1 on each axis; xi has no mass
  EXPECT_NEAR(s.model.mass.head(27).sum(), 3 * 0.4, 1e-14);
  EXPECT_EQ(s.model.mass.tail(16).sum(), 0.0);
}

TEST(ShellBuilder, HingeModelHasNoXi) {
  const test::BuiltShell s =
      test::build(io::rectangle_mesh(1.0, 1.0, 3, 3, io::MeshPattern::alternating),
                  ShellBending::hinge, ShellMembrane::cst);
  EXPECT_EQ(s.model.dofs.num_shell_edges, 0);
  EXPECT_EQ(s.model.shells.hinges.size(), 8u);  // interior edges
}

TEST(ShellBuilder, BadMeshesNameTheTriangleAndValue) {
  io::TriangleMesh m = square();
  m.triangles[1] = {0, 2, 7};
  expect_input_error([&] { build_with(m); }, {"shells[0].triangles[1][2]", "7", "[0, 4]"});
  m = square();
  m.triangles[1] = {0, 2, 2};
  expect_input_error([&] { build_with(m); }, {"shells[0].triangles[1]", "[0, 2, 2]", "distinct"});
  m = square();
  m.triangles.push_back({0, 1, 4});  // collinear
  expect_input_error([&] { build_with(m); },
                     {"shells[0].triangles[2]", "[0, 1, 4]", "non-zero area"});
  m = square();
  m.triangles.push_back({2, 0, 1});
  expect_input_error([&] { build_with(m); },
                     {"shells[0].triangles[2]", "duplicate of shells[0].triangles[0]"});
  m = square();
  m.triangles[1] = {0, 3, 2};  // runs edge 0 -> 2 like triangle 0
  expect_input_error([&] { build_with(m); }, {"shells[0].triangles[1]", "edge (2, 0)", "inverted"});
  m = square();
  m.nodes.emplace_back(0.5, 0.5, 1.0);
  m.nodes.emplace_back(0.5, 0.5, -1.0);
  m.triangles = {{0, 2, 3}, {2, 0, 5}, {0, 2, 6}};
  expect_input_error([&] { build_with(m); }, {"shells[0].triangles[2]", "non-manifold"});
  expect_input_error(
      [&] {
        build_with(square(), {2.0, 0.3, 1.0, 0.0});
      },
      {"shells[0].material.thickness", "0", "h > 0"});
  expect_input_error(
      [&] {
        build_with(square(), {2.0, 0.3, 1.0, -1e-3});
      },
      {"shells[0].material.thickness", "-0.001"});
  expect_input_error(
      [&] {
        build_with(square(), {2.0, 0.7, 1.0, 1e-3});
      },
      {"shells[0].material.nu", "0.7"});
  expect_input_error(
      [&] {
        build_with(square(), {0.0, 0.3, 1.0, 1e-3});
      },
      {"shells[0].material.E", "0"});
}

TEST(ShellGenerators, PatternsCoverTheRectangle) {
  for (io::MeshPattern p :
       {io::MeshPattern::right, io::MeshPattern::alternating, io::MeshPattern::equilateral}) {
    const io::TriangleMesh mesh = io::rectangle_mesh(2.0, 1.0, 5, 4, p);
    double area = 0.0;
    for (const auto& t : mesh.triangles) {
      const Vec3 n =
          (mesh.nodes[static_cast<std::size_t>(t[1])] - mesh.nodes[static_cast<std::size_t>(t[0])])
              .cross(mesh.nodes[static_cast<std::size_t>(t[2])] -
                     mesh.nodes[static_cast<std::size_t>(t[0])]);
      EXPECT_GT(n.z(), 0.0);  // counter-clockwise about +z
      area += 0.5 * n.z();
    }
    EXPECT_NEAR(area, 2.0, 1e-12);
    EXPECT_NO_THROW(build_with(mesh));  // manifold and consistently oriented
  }
  const io::TriangleMesh hex = io::hexagon_mesh(1.0, 3);
  EXPECT_EQ(hex.triangles.size(), 6u * 9u);
  EXPECT_EQ(hex.nodes.size(), 37u);
  EXPECT_NO_THROW(build_with(hex));
  const io::TriangleMesh disc = io::disc_mesh(1.0, 4);
  double max_radius = 0.0;
  for (const Vec3& x : disc.nodes) max_radius = std::max(max_radius, x.norm());
  EXPECT_NEAR(max_radius, 1.0, 1e-14);
  EXPECT_NO_THROW(build_with(disc));
}

TEST(ShellGenerators, EquilateralRectangleIsMirrorSymmetricAboutItsMiddleRow) {
  // 13 rows: mirroring y -> width - y maps every node and every triangle onto one of the mesh (a
  // symmetric body, the manta ray, then stays symmetric to round-off)
  const io::TriangleMesh mesh = io::rectangle_mesh(1.0, 1.2, 11, 13, io::MeshPattern::equilateral);
  const auto mirror = [&](int i) {
    const Vec3 m(mesh.nodes[static_cast<std::size_t>(i)].x(),
                 1.2 - mesh.nodes[static_cast<std::size_t>(i)].y(), 0.0);
    for (std::size_t k = 0; k < mesh.nodes.size(); ++k)
      if ((mesh.nodes[k] - m).norm() < 1e-12) return static_cast<int>(k);
    return -1;
  };
  std::set<std::array<int, 3>> triangles;
  for (auto t : mesh.triangles) {
    std::sort(t.begin(), t.end());
    triangles.insert(t);
  }
  for (const auto& t : mesh.triangles) {
    std::array<int, 3> m = {mirror(t[0]), mirror(t[1]), mirror(t[2])};
    std::sort(m.begin(), m.end());
    EXPECT_TRUE(triangles.count(m)) << t[0] << " " << t[1] << " " << t[2];
  }
}

}  // namespace
}  // namespace tendril
