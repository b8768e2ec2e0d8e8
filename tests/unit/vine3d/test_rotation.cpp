// The SO(3) maps of the 3D vine (src/tendril/vine3d/rotation.hpp) against Eigen's angle-axis
// rotations and central differences.
#include <gtest/gtest.h>

#include "tendril/vine3d/rotation.hpp"

namespace tendril::vine3d {
namespace {

TEST(Rotation, ExpIsTheAngleAxisRotation) {
  for (const Vec3& phi : {Vec3(0.3, -1.2, 0.7), Vec3(1e-6, 2e-6, -1e-6), Vec3(0.0, 0.0, 3.0)}) {
    const Quat expected(Eigen::AngleAxisd(phi.norm(), phi.normalized()));
    EXPECT_LT(rotation_exp(phi).angularDistance(expected), 1e-15) << phi.transpose();
  }
  EXPECT_EQ(rotation_exp(Vec3::Zero()).w(), 1.0);
}

TEST(Rotation, LogInvertsExp) {
  for (const Vec3& phi : {Vec3(0.3, -1.2, 0.7), Vec3(1e-9, -3e-9, 2e-9), Vec3(0.0, 0.0, -3.1)}) {
    EXPECT_LT((rotation_log(rotation_exp(phi)) - phi).norm(), 1e-15 * std::max(1.0, phi.norm()));
    // q and -q are the same rotation
    const Quat r = rotation_exp(phi);
    const Quat minus(-r.w(), -r.x(), -r.y(), -r.z());
    EXPECT_LT((rotation_log(minus) - phi).norm(), 1e-15 * std::max(1.0, phi.norm()));
  }
}

TEST(Rotation, RotationAboutOneAxisAddsAngles) {
  // the planar update theta += dt omega is exact on rotations about a fixed axis
  const Quat r = rotation_exp(Vec3(0.0, 0.0, 0.4)) * rotation_exp(Vec3(0.0, 0.0, 1.1));
  EXPECT_NEAR(rotation_log(r).z(), 1.5, 1e-15);
  EXPECT_EQ(rotation_log(r).head<2>().norm(), 0.0);
}

TEST(Rotation, RightJacobianInverseIsTheDerivativeOfTheLog) {
  // d/d delta log(R exp(delta)) at 0, by central differences (error O(h^2) ~ 1e-12)
  const double h = 1e-6;
  for (const Vec3& phi : {Vec3(0.3, -1.2, 0.7), Vec3(2e-5, 1e-5, -3e-5), Vec3(0.0, 2.5, 0.0)}) {
    const Quat r = rotation_exp(phi);
    Mat3 fd;
    for (int k = 0; k < 3; ++k) {
      const Vec3 d = h * Vec3::Unit(k);
      fd.col(k) =
          (rotation_log(r * rotation_exp(d)) - rotation_log(r * rotation_exp(-d))) / (2 * h);
    }
    EXPECT_LT((right_jacobian_inverse(phi) - fd).norm(), 1e-8) << phi.transpose();
  }
}

TEST(Rotation, RightJacobianInverseTransposeTimesIsTheLogDerivativeTransposed) {
  // J_r^-T u = (d/d delta log(R exp(delta)))^T u at 0, by central differences (error ~ 1e-12)
  const double h = 1e-6;
  const Vec3 u(0.4, -1.3, 0.8);
  for (const Vec3& phi : {Vec3(0.3, -1.2, 0.7), Vec3(2e-5, 1e-5, -3e-5), Vec3(0.0, 2.5, 0.0)}) {
    const Quat r = rotation_exp(phi);
    Vec3 fd;
    for (int k = 0; k < 3; ++k) {
      const Vec3 d = h * Vec3::Unit(k);
      fd(k) =
          u.dot(rotation_log(r * rotation_exp(d)) - rotation_log(r * rotation_exp(-d))) / (2 * h);
    }
    const double c = right_jacobian_inverse_coefficient(phi.squaredNorm());
    EXPECT_LT((right_jacobian_inverse_transpose_times(phi, c, u) - fd).norm(), 1e-8)
        << phi.transpose();
  }
}

}  // namespace
}  // namespace tendril::vine3d
