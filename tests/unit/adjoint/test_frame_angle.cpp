// The reference frame's dependence on the start tangent of its time-parallel transport (the
// start holonomy g of docs/physics/gradients.md), against a finite difference of the transport.
#include <gtest/gtest.h>

#include "tendril/geometry/parallel_transport.hpp"
#include "tendril/geometry/signed_angle.hpp"

namespace tendril {
namespace {

TEST(FrameAngle, StartTangentHolonomy) {
  const Vec3 e0(0.3, -0.2, 0.9), e1(0.1, 0.5, 0.7), de(0.2, -0.4, 0.3);
  const Vec3 t0 = e0.normalized(), t1 = e1.normalized();
  Vec3 a = Vec3(1.0, 0.2, -0.1);
  a = (a - a.dot(t0) * t0).normalized();
  const Vec3 g = t1.cross(t0) / (e0.norm() * (1.0 + t0.dot(t1)));
  for (double h : {1e-4, 1e-5, 1e-6}) {
    const Vec3 t0_moved = (e0 + h * de).normalized();
    const Vec3 carried = parallel_transport_normal(a, t0, t0_moved);  // the state's convention
    const Vec3 moved = parallel_transport_normal(carried, t0_moved, t1);
    const Vec3 direct = parallel_transport_normal(a, t0, t1);
    const double angle = signed_angle(direct, moved, t1);
    EXPECT_NEAR(angle / h, g.dot(de), 10 * h) << h;
  }
}

TEST(FrameAngle, EndTangentHolonomy) {
  const Vec3 e0(0.3, -0.2, 0.9), e1(0.1, 0.5, 0.7), de(0.2, -0.4, 0.3);
  const Vec3 t0 = e0.normalized(), t1 = e1.normalized();
  Vec3 a = Vec3(1.0, 0.2, -0.1);
  a = (a - a.dot(t0) * t0).normalized();
  const Vec3 h_end = t1.cross(t0) / (e1.norm() * (1.0 + t0.dot(t1)));
  for (double h : {1e-4, 1e-5, 1e-6}) {
    const Vec3 t1_moved = (e1 + h * de).normalized();
    const Vec3 direct = parallel_transport_normal(a, t0, t1_moved);
    const Vec3 carried =
        parallel_transport_normal(parallel_transport_normal(a, t0, t1), t1, t1_moved);
    const double angle = signed_angle(carried, direct, t1_moved);
    EXPECT_NEAR(angle / h, h_end.dot(de), 10 * h) << h << " " << h_end.dot(de);
  }
}

}  // namespace
}  // namespace tendril
