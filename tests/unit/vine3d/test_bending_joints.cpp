// Bending springs and dampers of the 3D vine (src/tendril/vine3d/bending_joints.hpp): the spring
// torques (linear and inflated-beam law) are minus the energy's derivative under world-frame
// rotations of each body (central differences), vanish at the rest bend, rotate with the vine; the
// dampers dissipate exactly sum_j C_j |betadot_j|^2 with betadot by central differences of the bend
// along the motion.
#include <cmath>

#include <gtest/gtest.h>

#include "tendril/vine3d/bending_joints.hpp"

namespace tendril::vine3d {
namespace {

/// Four bodies (bending joints 0 and 1, one prismatic joint) in a generic pose: the springs see
/// bends of 0.2-0.9 rad about several axes.
struct Case {
  Vine3dModel model;
  Vine3dState state;
};

Case generic_case() {
  UniformVine3dParameters p;
  p.bodies = 4;
  p.stiffness = 0.07;
  p.damping = 3e-3;
  Case c{uniform_vine3d(p), {}};
  c.model.stiffness[1] = 0.11;
  c.model.damping[1] = 5e-3;
  c.model.rest_bend = {Vec2(0.1, -0.2), Vec2(-0.3, 0.05)};
  c.model.base_frame = rotation_exp(Vec3(0.2, -0.4, 0.3));
  c.state = straight_state(c.model, 0.0);
  const Vec3 tilt[4] = {Vec3(0.5, 0.3, -0.6), Vec3(-0.2, 0.4, 0.1), Vec3(0.7, -0.1, 0.4),
                        Vec3(0.1, 0.2, 0.3)};
  for (int i = 0; i < 4; ++i) c.state.orientation[i] = rotation_exp(tilt[i]);
  return c;
}

/// The generic case with the inflated-beam law, every joint wrinkled (bends above 0.083 rad).
Case inflated_case() {
  Case c = generic_case();
  c.model.bending_law = BendingLaw::inflated_beam;
  c.model.inflated_beam = {2000.0, 0.012, 0.02, 0.05};  // p, r, eps_w, l
  c.model.stiffness.assign(2, 0.0);
  c.model.validate();
  return c;
}

TEST(BendingJoints, SpringTorqueIsMinusTheEnergyGradient) {
  for (const Case& c : {generic_case(), inflated_case()}) {
    VecX force;
    applied_forces(c.model, c.state, VecX::Zero(c.model.num_dofs()), force);
    const double h = 1e-6;
    for (int i = 0; i < c.model.num_bodies; ++i) {
      EXPECT_EQ(force.segment<3>(6 * i).norm(), 0.0);  // no gravity: no force on the centres
      for (int k = 0; k < 3; ++k) {
        Vine3dState plus = c.state, minus = c.state;
        plus.orientation[i] = rotation_exp(h * Vec3::Unit(k)) * c.state.orientation[i];
        minus.orientation[i] = rotation_exp(-h * Vec3::Unit(k)) * c.state.orientation[i];
        const double fd =
            -(bending_energy(c.model, plus) - bending_energy(c.model, minus)) / (2 * h);
        // central difference error O(h^2) and roundoff eps E / h: both < 1e-9 here
        EXPECT_NEAR(force(6 * i + 3 + k), fd, 1e-8) << "body " << i << " axis " << k;
      }
    }
  }
}

TEST(BendingJoints, NoTorqueAtTheRestBend) {
  Case c = generic_case();
  // body 0 at its rest bend from the base frame, body 2 at its rest bend from body 1
  const auto bent = [](const Vec2& b) { return rotation_exp(Vec3(0.0, b.x(), b.y())); };
  c.state.orientation[0] = c.model.base_frame * bent(c.model.rest_bend[0]);
  c.state.orientation[1] = c.state.orientation[0];
  c.state.orientation[2] = c.state.orientation[1] * bent(c.model.rest_bend[1]);
  c.state.orientation[3] = c.state.orientation[2];
  VecX force;
  applied_forces(c.model, c.state, VecX::Zero(c.model.num_dofs()), force);
  EXPECT_LT(force.norm(), 1e-15);
  EXPECT_LT(bending_energy(c.model, c.state), 1e-30);
}

TEST(BendingJoints, EnergyAndTorquesRotateWithTheVine) {
  Case c = generic_case();
  VecX force;
  applied_forces(c.model, c.state, VecX::Zero(c.model.num_dofs()), force);
  const Quat q = rotation_exp(Vec3(-1.0, 0.6, 2.1));
  Case r = c;
  r.model.base_frame = q * c.model.base_frame;
  for (Quat& o : r.state.orientation) o = q * o;
  VecX rotated;
  applied_forces(r.model, r.state, VecX::Zero(r.model.num_dofs()), rotated);
  EXPECT_NEAR(bending_energy(r.model, r.state), bending_energy(c.model, c.state), 1e-15);
  for (int i = 0; i < c.model.num_bodies; ++i)
    EXPECT_LT((rotated.segment<3>(6 * i + 3) - q * Vec3(force.segment<3>(6 * i + 3))).norm(),
              1e-14);
}

TEST(BendingJoints, DampersDissipateCTimesTheBendRateSquared) {
  Case c = generic_case();
  c.model.stiffness.assign(2, 0.0);  // dampers only
  c.model.axial_inertia.assign(4, 0.0);
  c.model.transverse_inertia.assign(4, 0.0);  // no gyroscopic torque
  VecX v = VecX::Zero(c.model.num_dofs());
  const Vec3 omega[4] = {Vec3(0.3, -0.2, 0.5), Vec3(-0.4, 0.1, 0.2), Vec3(0.6, 0.5, -0.3),
                         Vec3(0.0, 0.2, 0.1)};
  for (int i = 0; i < 4; ++i) v.segment<3>(6 * i + 3) = omega[i];
  VecX force;
  applied_forces(c.model, c.state, v, force);
  double power = 0.0;
  for (int i = 0; i < 4; ++i) power += force.segment<3>(6 * i + 3).dot(omega[i]);
  // betadot_j by central differences of the bend along r_i(t) = exp(t omega_i) r_i
  const double h = 1e-6;
  double dissipation = 0.0;
  for (int j = 0; j < c.model.num_bending(); ++j) {
    Vine3dState plus = c.state, minus = c.state;
    for (int i = 0; i < 4; ++i) {
      plus.orientation[i] = rotation_exp(h * omega[i]) * c.state.orientation[i];
      minus.orientation[i] = rotation_exp(-h * omega[i]) * c.state.orientation[i];
    }
    Vec3 phi;
    const Vec2 rate =
        (bend_angles(c.model, plus, j, phi) - bend_angles(c.model, minus, j, phi)) / (2 * h);
    dissipation += c.model.damping[j] * rate.squaredNorm();
  }
  EXPECT_GT(dissipation, 1e-4);
  // roundoff of the differences: eps |beta| / h ~ 2e-10 in betadot, 1e-12 in the dissipation
  EXPECT_NEAR(power, -dissipation, 1e-7 * dissipation);
}

}  // namespace
}  // namespace tendril::vine3d
