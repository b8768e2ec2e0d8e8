// Obstacles of the 3D vine (src/tendril/vine3d/obstacles.hpp, obstacle_grid.hpp, obj_mesh.hpp):
// the capped cylinder's and the triangle's distances against the nearest of dense samples of
// their surfaces; the grid's candidates against every obstacle's box tested one by one; OBJ files
// read (fans, negative and slashed indices) and refused naming the line and the reason.
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/vine3d/obj_mesh.hpp"
#include "tendril/vine3d/obstacle_grid.hpp"

namespace tendril::vine3d {
namespace {

/// Surface samples of a capped cylinder: the side and both caps on a fine grid.
std::vector<Vec3> cylinder_samples(const Obstacle3& c, int n) {
  std::vector<Vec3> out;
  const Mat3 r = c.orientation.toRotationMatrix();
  for (int i = 0; i <= n; ++i)
    for (int k = 0; k < 4 * n; ++k) {
      const double phi = 2.0 * M_PI * k / (4 * n);
      const Vec3 radial(std::cos(phi), std::sin(phi), 0.0);
      const double z = -c.half_height + 2.0 * c.half_height * i / n;
      out.push_back(c.centre + r * (c.radius * radial + Vec3(0, 0, z)));  // side
      for (const double cap : {-1.0, 1.0})
        out.push_back(c.centre + r * (c.radius * i / n * radial + Vec3(0, 0, cap * c.half_height)));
    }
  return out;
}

TEST(Obstacles3d, CylinderDistanceIsTheNearestSurfacePoint) {
  const Obstacle3 c = make_cylinder(Vec3(0.1, -0.2, 0.3), Vec3(1.0, 2.0, -0.5), 0.05, 0.08);
  const std::vector<Vec3> surface = cylinder_samples(c, 200);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.15, 0.15);
  const double sample_spacing = 2.0 * M_PI * 0.05 / 800 + 0.16 / 200;
  for (int t = 0; t < 200; ++t) {
    const Vec3 x = c.centre + Vec3(u(rng), u(rng), u(rng));
    double nearest = HUGE_VAL;
    for (const Vec3& p : surface) nearest = std::min(nearest, (x - p).norm());
    Vec3 normal;
    const double sd = signed_distance(c, x, normal);
    const Vec3 local = c.orientation.conjugate() * (x - c.centre);
    const bool inside = local.head<2>().norm() < c.radius && std::abs(local.z()) < c.half_height;
    EXPECT_EQ(sd < 0.0, inside) << x.transpose();
    EXPECT_NEAR(std::abs(sd), nearest, sample_spacing) << x.transpose();
    // the normal is the distance's gradient (central differences)
    const double h = 1e-7;
    for (int a = 0; a < 3; ++a) {
      Vec3 unused;
      const double g = (signed_distance(c, x + h * Vec3::Unit(a), unused) -
                        signed_distance(c, x - h * Vec3::Unit(a), unused)) /
                       (2 * h);
      EXPECT_NEAR(normal(a), g, 1e-6) << x.transpose();
    }
  }
}

TEST(Obstacles3d, TriangleDistanceIsTheNearestPointOfTheTriangle) {
  const Vec3 a(0.0, 0.0, 0.0), b(0.1, 0.02, 0.01), c(0.03, 0.09, -0.02);
  const Obstacle3 t = make_triangle(a, b, c);
  const int n = 400;
  std::vector<Vec3> samples;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j)
      samples.push_back(a + (b - a) * i / double(n) + (c - a) * j / double(n));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.1, 0.2);
  for (int k = 0; k < 200; ++k) {
    const Vec3 x(u(rng), u(rng), u(rng) * 0.5);
    double nearest = HUGE_VAL;
    for (const Vec3& p : samples) nearest = std::min(nearest, (x - p).norm());
    Vec3 normal;
    // the samples are 0.1 / 400 apart along the edges: the nearest is within that of the exact
    EXPECT_NEAR(signed_distance(t, x, normal), nearest, 0.11 / n) << x.transpose();
  }
}

TEST(Obstacles3d, GridReturnsExactlyTheObstaclesWhoseBoxesMeetTheQuery) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Obstacle3> obstacles;
  for (int k = 0; k < 300; ++k) {
    const Vec3 c(u(rng), u(rng), 0.2 * u(rng));  // a flat layout (a table)
    switch (k % 4) {
      case 0:
        obstacles.push_back(make_sphere(c, 0.02 * u(rng) + 0.001));
        break;
      case 1:
        obstacles.push_back(make_box(c, Vec3(0.01, 0.03, 0.02),
                                     Quat(Eigen::AngleAxisd(u(rng), Vec3(1, 2, 3).normalized()))));
        break;
      case 2:
        obstacles.push_back(make_cylinder(c, Vec3(u(rng), u(rng), 1.0), 0.01, 0.05));
        break;
      default:
        obstacles.push_back(make_triangle(c, c + Vec3(0.05, 0.0, 0.01), c + Vec3(0.0, 0.04, 0.0)));
    }
  }
  obstacles.push_back(make_half_space(Vec3::Zero(), Vec3::UnitZ()));
  const ObstacleGrid3 grid(obstacles);
  for (int q = 0; q < 500; ++q) {
    const Vec3 lo(1.2 * u(rng) - 0.1, 1.2 * u(rng) - 0.1, 0.3 * u(rng) - 0.05);
    const Vec3 hi = lo + 0.08 * Vec3(u(rng), u(rng), u(rng));
    std::vector<int> expected;
    for (int o = 0; o < static_cast<int>(obstacles.size()); ++o) {
      Vec3 olo, ohi;
      if (!obstacle_bounds(obstacles[o], olo, ohi) ||
          ((olo.array() <= hi.array()).all() && (ohi.array() >= lo.array()).all()))
        expected.push_back(o);
    }
    std::vector<int> got;
    grid.query(lo, hi, got);
    EXPECT_EQ(got, expected) << "query " << q;
  }
}

TEST(Obstacles3d, BoundsHoldEverySurfaceSample) {
  const Obstacle3 c = make_cylinder(Vec3(0.1, -0.2, 0.3), Vec3(1.0, 2.0, -0.5), 0.05, 0.08);
  Vec3 lo, hi;
  ASSERT_TRUE(obstacle_bounds(c, lo, hi));
  Vec3 sample_lo = Vec3::Constant(HUGE_VAL), sample_hi = -sample_lo;
  for (const Vec3& p : cylinder_samples(c, 100)) {
    sample_lo = sample_lo.cwiseMin(p);
    sample_hi = sample_hi.cwiseMax(p);
  }
  // the box is the tightest: it meets the samples' hull to their spacing
  EXPECT_LT((sample_lo - lo).cwiseAbs().maxCoeff(), 1e-3);
  EXPECT_LT((sample_hi - hi).cwiseAbs().maxCoeff(), 1e-3);
  EXPECT_TRUE((sample_lo.array() >= lo.array() - 1e-15).all());
  EXPECT_TRUE((sample_hi.array() <= hi.array() + 1e-15).all());
}

TEST(ObjMesh, ReadsVerticesAndSplitsPolygonsIntoFans) {
  std::istringstream in(
      "# a unit square and a triangle\n"
      "mtllib x.mtl\no square\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0  # corner\n"
      "vt 0 0\nvn 0 0 1\ns off\n"
      "f 1/1/1 2/1/1 3//1 4\n"
      "v 0 0 1 2\n"
      "f -1 -4 -3\n");
  const TriangleMesh mesh = parse_obj(in, "square.obj");
  ASSERT_EQ(mesh.vertices.size(), 5u);
  EXPECT_EQ(mesh.vertices[4], Vec3(0.0, 0.0, 0.5));  // homogeneous weight 2
  ASSERT_EQ(mesh.triangles.size(), 3u);
  EXPECT_EQ(mesh.triangles[0], (std::array<int, 3>{0, 1, 2}));
  EXPECT_EQ(mesh.triangles[1], (std::array<int, 3>{0, 2, 3}));
  EXPECT_EQ(mesh.triangles[2], (std::array<int, 3>{4, 1, 2}));
  const std::vector<Obstacle3> triangles = mesh_obstacles(mesh, "walls");
  ASSERT_EQ(triangles.size(), 3u);
  EXPECT_EQ(triangles[1].name, "walls[1]");
  Vec3 normal;
  EXPECT_DOUBLE_EQ(signed_distance(triangles[1], Vec3(0.2, 0.7, 0.3), normal), 0.3);
}

TEST(ObjMesh, BadFilesAreRefusedNamingTheLineAndTheReason) {
  const auto parse = [](const std::string& text) {
    std::istringstream in(text);
    return parse_obj(in, "bad.obj");
  };
  using testing::expect_input_error;
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 x\n"); }, {"bad.obj:2", "'x'", "a finite number"});
  expect_input_error([&] { parse("v 0 0\n"); }, {"bad.obj:1", "a finite number"});
  expect_input_error([&] { parse("v 0 0 1e999\n"); }, {"bad.obj:1", "a finite number"});
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 0\nf 1 2\n"); },
                     {"bad.obj:3", "a face of 2 corners", "at least 3"});
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n"); },
                     {"bad.obj:5", "vertex index 4", "1..3"});
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n"); },
                     {"bad.obj:4", "vertex index 0"});
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 a/1\n"); },
                     {"bad.obj:4", "face corner 'a/1'"});
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"); },
                     {"bad.obj:4", "degenerate triangle", "non-zero area"});
  expect_input_error([&] { parse("v 0 0 0\nv 1 0 0\nv 0 1 0\n"); },
                     {"bad.obj", "3 vertices and no face"});
  expect_input_error([&] { read_obj("/nonexistent/mesh.obj", "obstacles[0].file"); },
                     {"obstacles[0].file", "/nonexistent/mesh.obj", "cannot be opened"});
}

TEST(ObjMesh, ReadsAFile) {
  const std::filesystem::path path = testing::scratch_dir("obj") / "tetrahedron.obj";
  std::ofstream(path) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  EXPECT_EQ(read_obj(path, "file").triangles.size(), 4u);
}

}  // namespace
}  // namespace tendril::vine3d
