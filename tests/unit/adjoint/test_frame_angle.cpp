// The reference frame's dependence on both tangents of its time-parallel transport (the holonomies
// g and h of docs/physics/gradients.md), against differences of the transport: moving the start
// tangent (with the director carried to it) or the end tangent turns the transported director about
// the end tangent by g . de or h . de.
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/geometry/parallel_transport.hpp"
#include "tendril/geometry/signed_angle.hpp"

namespace tendril {
namespace {

/// Edge vectors at the start and end of a step, an edge change and a director normal to t0.
struct Transport {
  Vec3 e0{0.3, -0.2, 0.9}, e1{0.1, 0.5, 0.7}, de{0.6, 0.1, -0.2};
  Vec3 t0 = e0.normalized(), t1 = e1.normalized();
  Vec3 a = (Vec3(1.0, 0.2, -0.1) - Vec3(1.0, 0.2, -0.1).dot(t0) * t0).normalized();
  /// (t1 x t0) / (1 + t0 . t1): g and h without their edge lengths
  Vec3 axis = t1.cross(t0) / (1.0 + t0.dot(t1));
};

TEST(FrameAngle, StartTangentHolonomy) {
  const Transport tr;
  const Vec3 g = tr.axis / tr.e0.norm();
  ASSERT_GT(std::abs(g.dot(tr.de)), 0.1) << "a turn well above the tolerances";
  for (double h : {1e-4, 1e-5, 1e-6}) {
    const Vec3 t0_moved = (tr.e0 + h * tr.de).normalized();
    const Vec3 carried =
        parallel_transport_normal(tr.a, tr.t0, t0_moved);  // the state's convention
    const Vec3 moved = parallel_transport_normal(carried, t0_moved, tr.t1);
    const Vec3 direct = parallel_transport_normal(tr.a, tr.t0, tr.t1);
    EXPECT_NEAR(signed_angle(direct, moved, tr.t1) / h, g.dot(tr.de), 10 * h) << h;
  }
}

TEST(FrameAngle, EndTangentHolonomy) {
  const Transport tr;
  const Vec3 g = tr.axis / tr.e1.norm();  // Kinematics::transport_rotation_gradient
  ASSERT_GT(std::abs(g.dot(tr.de)), 0.1) << "a turn well above the tolerances";
  for (double h : {1e-4, 1e-5, 1e-6}) {
    const Vec3 t1_moved = (tr.e1 + h * tr.de).normalized();
    const Vec3 direct = parallel_transport_normal(tr.a, tr.t0, t1_moved);
    const Vec3 carried =
        parallel_transport_normal(parallel_transport_normal(tr.a, tr.t0, tr.t1), tr.t1, t1_moved);
    EXPECT_NEAR(signed_angle(carried, direct, t1_moved) / h, g.dot(tr.de), 10 * h) << h;
  }
}

}  // namespace
}  // namespace tendril
