#pragma once
/// Non-constraint forces on the vine bodies: torsional springs and dampers at the pin joints
/// (vine paper eq. 7, 8) and gravity in the plane (an extra; the paper has none).
///
/// Pin joint j rotates body b = 2 j relative to body a = 2 j - 1 (the world for j = 0), with angle
/// theta_j = theta_b - theta_a (theta_0 = theta_b: absolute heading) and rate thetadot_j. Torque
/// tau_j = -K_j (theta_j - theta_bar_j) - C_j thetadot_j (or -M(theta_j - theta_bar_j) - C_j
/// thetadot_j with the inflated-beam law) acts +tau_j on body b and -tau_j on body a
/// (F = R tau, eq. 8). Gravity adds m_i g to the translational DOFs of every body (m_i:
/// body_mass, with the tip's everted material).
/// docs/physics/vine.md#springs-dampers-gravity-eq-7-8

#include "tendril/core/types.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::vine {

/// theta_j - theta_bar_j: the pin angle minus its rest angle [rad].
double pin_angle_deviation(const VineModel& model, const VecX& q, int pin);
/// thetadot_j: the pin angle rate [rad/s].
double pin_angle_rate(const VineModel& model, const VecX& v, int pin);

/// The spring moment of pin j at deviation theta_j - theta_bar_j [rad] (K_j dev, or the inflated
/// beam's law) with its derivatives in the deviation and its energy [N m, N m/rad, N m/rad^2, J].
BendingMoment pin_moment(const VineModel& model, int pin, double deviation);

/// F(q, v): spring/damper torques and gravity in maximal coordinates [N, N, N m] (3 #bodies).
/// With `with_damping` false the dampers are left out (implicit springs treat them in the QP).
void applied_forces(const VineModel& model, const VecX& q, const VecX& v, VecX& force,
                    bool with_damping = true);

/// Adds scale * e_j to `out`, where e_j = R column j maps a unit torque at pin j into maximal
/// coordinates (+1 on theta_b, -1 on theta_a).
void add_pin_torque(const VineModel& model, int pin, double scale, Eigen::Ref<VecX> out);

/// Spring energy of the pin joints [J]: sum_j K_j (theta_j - theta_bar_j)^2 / 2 (linear law).
double spring_energy(const VineModel& model, const VecX& q);

}  // namespace tendril::vine
