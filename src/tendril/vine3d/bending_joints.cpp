#include "tendril/vine3d/bending_joints.hpp"

namespace tendril::vine3d {

namespace {

/// Orientation of bending joint j's parent: the proximal body, or the base frame.
const Quat& parent_frame(const Vine3dModel& model, const Vine3dState& state, int joint) {
  const int b = model.bending_body(joint);
  return b > 0 ? state.orientation[b - 1] : model.base_frame;
}

}  // namespace

Vec2 bend_angles(const Vine3dModel& model, const Vine3dState& state, int joint, Vec3& phi) {
  const int b = model.bending_body(joint);
  phi = rotation_log(parent_frame(model, state, joint).conjugate() * state.orientation[b]);
  return phi.tail<2>();
}

Vec2 bend_moment(const Vine3dModel& model, int joint, const Vec2& deviation) {
  return joint_moment(model, model.stiffness[joint], deviation);
}

double bending_energy(const Vine3dModel& model, const Vine3dState& state) {
  double energy = 0.0;
  Vec3 phi;
  for (int j = 0; j < model.num_bending(); ++j) {
    const Vec2 deviation = bend_angles(model, state, j, phi) - model.rest_bend[j];
    energy += model.bending_law == BendingLaw::linear
                  ? 0.5 * model.stiffness[j] * deviation.squaredNorm()
                  : vine::inflated_beam_joint_moment(model.inflated_beam, deviation.norm()).energy;
  }
  return energy;
}

Mat3 world_inertia(const Vine3dModel& model, const Vine3dState& state, int body) {
  const Vec3 axis = state.orientation[body] * Vec3::UnitX();
  const double transverse = model.transverse_inertia[body];
  Mat3 inertia = (model.axial_inertia[body] - transverse) * (axis * axis.transpose());
  inertia.diagonal().array() += transverse;
  return body_mass(model, state, body) / model.mass[body] * inertia;
}

void applied_forces(const Vine3dModel& model, const Vine3dState& state, const VecX& velocity,
                    VecX& force, bool with_damping,
                    std::vector<Eigen::Matrix<double, 2, 3>>* rate_maps) {
  force.setZero(model.num_dofs());
  if (rate_maps) rate_maps->resize(model.num_bending());
  for (int j = 0; j < model.num_bending(); ++j) {
    const int b = model.bending_body(j);
    Vec3 relative = velocity.segment<3>(6 * b + 3);
    if (b > 0) relative -= velocity.segment<3>(6 * (b - 1) + 3);
    Vec3 phi;
    const Eigen::Matrix<double, 2, 3> rate_map =
        bend_rate_map(parent_frame(model, state, j), state.orientation[b], phi);
    if (rate_maps) (*rate_maps)[j] = rate_map;
    const Vec3 torque = bend_torque(model, j, rate_map, phi, relative, model.stiffness[j],
                                    model.damping[j], with_damping);
    force.segment<3>(6 * b + 3) += torque;
    if (b > 0) force.segment<3>(6 * (b - 1) + 3) -= torque;
  }
  for (int i = 0; i < model.num_bodies; ++i) {
    force.segment<3>(6 * i) += body_mass(model, state, i) * model.gravity;
    const Vec3 omega = velocity.segment<3>(6 * i + 3);
    force.segment<3>(6 * i + 3) -= omega.cross(world_inertia(model, state, i) * omega);
  }
}

}  // namespace tendril::vine3d
