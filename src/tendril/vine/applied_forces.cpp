#include "tendril/vine/applied_forces.hpp"

namespace tendril::vine {

double pin_angle_deviation(const VineModel& model, const VecX& q, int pin) {
  const int b = model.pin_body(pin);
  const double theta = q(3 * b + 2) - (b > 0 ? q(3 * (b - 1) + 2) : 0.0);
  return theta - model.rest_angle[pin];
}

double pin_angle_rate(const VineModel& model, const VecX& v, int pin) {
  const int b = model.pin_body(pin);
  return v(3 * b + 2) - (b > 0 ? v(3 * (b - 1) + 2) : 0.0);
}

BendingMoment pin_moment(const VineModel& model, int pin, double deviation) {
  if (model.bending_law == BendingLaw::inflated_beam)
    return inflated_beam_joint_moment(model.inflated_beam, deviation);
  const double k = model.stiffness[pin];
  return {k * deviation, k, 0.0, 0.5 * k * deviation * deviation};
}

void add_pin_torque(const VineModel& model, int pin, double scale, Eigen::Ref<VecX> out) {
  const int b = model.pin_body(pin);
  out(3 * b + 2) += scale;
  if (b > 0) out(3 * (b - 1) + 2) -= scale;
}

void applied_forces(const VineModel& model, const VecX& q, const VecX& v, VecX& force,
                    bool with_damping) {
  force.setZero(model.num_dofs());
  // springs and dampers at the pin joints (eq. 7, 8)
  for (int j = 0; j < model.num_pins(); ++j) {
    const double damping = with_damping ? model.damping[j] * pin_angle_rate(model, v, j) : 0.0;
    const double tau = -pin_moment(model, j, pin_angle_deviation(model, q, j)).moment - damping;
    add_pin_torque(model, j, tau, force);
  }
  // gravity
  for (int i = 0; i < model.num_bodies; ++i)
    force.segment<2>(3 * i) += body_mass(model, q, i) * model.gravity;
}

double spring_energy(const VineModel& model, const VecX& q) {
  double energy = 0.0;
  for (int j = 0; j < model.num_pins(); ++j)
    energy += pin_moment(model, j, pin_angle_deviation(model, q, j)).energy;
  return energy;
}

}  // namespace tendril::vine
