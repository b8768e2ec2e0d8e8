#pragma once
/// The vine-robot model of Jitosho et al., "A Dynamics Simulator for Soft Growing Robots"
/// (papers/vine_robot_simulator.txt, section II; derivations in docs/physics/vine.md).
///
/// A planar chain of rigid bodies in maximal coordinates, ordered base to tip:
///   q = [x_0, y_0, theta_0 | x_1, y_1, theta_1 | ... ] (3 #bodies), v = dq/dt likewise.
/// Joint j connects body j-1 (the world for j = 0) to body j; joints alternate pin (even j) and
/// prismatic (odd j), so body 0 is pinned to the base point. VineModel is immutable during a run;
/// VineState holds what changes.

#include <string>
#include <vector>

#include "tendril/actuation/schedule.hpp"
#include "tendril/core/types.hpp"
#include "tendril/vine/growth_schedule.hpp"
#include "tendril/vine/inflated_beam_moment.hpp"
#include "tendril/vine/obstacles.hpp"

namespace tendril::vine {

/// A point on a body where contact with obstacles is enforced (eq. 5).
struct ContactPoint {
  int body = 0;  ///< body index (0 = base)
  double offset =
      0.0;  ///< s: position along the body axis from its centre of mass [m] (+d_i = distal end)
};

/// How the pin springs and dampers enter the step (eq. 7-9).
enum class SpringIntegration {
  explicit_forces,  ///< tau(q_k, v_k) (the paper): stable while dt omega_max < 2
  implicit,  ///< tau(q_k + dt v_{k+1}, v_{k+1}): adds dt^2 R K R^T + dt R C R^T to M, stable for
             ///< any K, C
};

/// The pin joints' moment-angle law (docs/physics/vine.md#inflated-beam-bending).
enum class BendingLaw {
  linear,         ///< K_j (theta_j - theta_bar_j), the paper's torsional spring
  inflated_beam,  ///< the wrinkling tube's M((theta_j - theta_bar_j) / l)
                  ///< (inflated_beam_moment.hpp)
};

/// Where contact with the obstacles is enforced (docs/physics/vine.md#contact-along-the-body).
enum class ContactModel {
  body,   ///< every body is a capsule of the contact radius: its closest point to each obstacle
  point,  ///< only at VineModel::contact_points (the paper's eq. 5)
};

/// What the growth input u means (docs/physics/vine.md#jams).
enum class GrowthControl {
  rate,  ///< G_bar v = u_j exactly (eq. 14, the paper): a blocked tip makes the step infeasible
  force_limited,  ///< the actuator pushes every prismatic joint with at most `growth_force` up to
                  ///< the rate u_j: 0 <= G_bar v <= u_j, a blocked tip stalls (achieved rate < u_j)
};

/// How the commanded total growth rate is shared among the prismatic joints (eq. 6).
enum class GrowthMode {
  uniform,  ///< split equally among all prismatic joints (the paper's choice, keeps contact points
            ///< spaced)
  tip,      ///< only the most distal prismatic joint grows; the others keep their length (g = 0)
};

struct VineModel {
  int num_bodies = 0;               ///< n (#bodies)
  std::vector<double> half_length;  ///< d_i: centre of mass to either end of body i [m] (#bodies)
  std::vector<double> mass;         ///< m_i [kg] (#bodies)
  std::vector<double>
      inertia;  ///< I_i rotational inertia about the centre of mass [kg m^2] (#bodies)
  double tube_diameter = 0.0;  ///< D outer tube diameter [m]
  Vec2 base = Vec2::Zero();    ///< world point the proximal end of body 0 is pinned to [m]

  BendingLaw bending_law = BendingLaw::linear;  ///< the pin joints' moment law
  InflatedBeam inflated_beam;  ///< the law's tube for BendingLaw::inflated_beam (all pin joints)
  /// K_j torsional stiffness of pin joint j [N m/rad] (#pins; 0 with BendingLaw::inflated_beam)
  std::vector<double> stiffness;
  std::vector<double> damping;  ///< C_j torsional damping of pin joint j [N m s/rad] (#pins)
  std::vector<double>
      rest_angle;  ///< rest angle of pin joint j [rad]; pin 0: absolute heading (#pins)
  /// Steering (bending actuation, the paper's future work): rest angle of pin j at time t [rad]
  /// (#pins, or empty: `rest_angle` held). The stepper sets rest_angle from it at each step's
  /// start.
  std::vector<Schedule> rest_angle_schedule;

  ContactModel contact_model =
      ContactModel::body;  ///< along the bodies, or at `contact_points` only
  std::vector<ContactPoint>
      contact_points;  ///< where contact is enforced with ContactModel::point (#contact points)
  double contact_radius = 0.0;  ///< r_c: obstacles are kept r_c away from contact points [m]
  double friction = 0.0;        ///< mu Coulomb friction coefficient (0 = frictionless, the paper)
  /// A pair with Phi(q_k) <= this gap is in contact and gets friction rows; farther pairs only the
  /// normal row, so friction does not act at a distance [m] (sliding on a convex obstacle leaves
  /// gaps of order (v dt)^2 / R, far below the default)
  double contact_gap = 1e-5;
  std::vector<Obstacle> obstacles;  ///< rigid, fixed obstacles (#obstacles)

  Vec2 gravity = Vec2::Zero();  ///< g in the plane of motion [m/s^2]
  /// lambda: mass per length of the material everted at the tip [kg/m]. 0: every body keeps its
  /// mass (the paper). Otherwise the tip body carries lambda max(0, grown_length(q)) more, and a
  /// step adds lambda Delta t u at rest (docs/physics/vine.md#growth-by-eversion)
  double everted_density = 0.0;
  SpringIntegration springs = SpringIntegration::explicit_forces;
  double dt = 0.01;  ///< Delta t time step [s]
  GrowthMode growth_mode = GrowthMode::uniform;
  GrowthSchedule growth;  ///< u(t) total growth rate [m/s]
  /// beta in G_bar = g_v + beta Delta t g_q (eq. 14: 1; 1/2: the length follows the integral of u)
  double growth_lookahead = 1.0;
  GrowthControl growth_control = GrowthControl::rate;
  double growth_force =
      0.0;  ///< F: most force each prismatic joint's actuator exerts [N] (force_limited)

  /// A step fails (VineFailure::joint_drift) if |c(q_k)|_inf exceeds this [m]
  double max_joint_error = 1e-3;
  /// A step fails (VineFailure::energy_blowup) if its kinetic energy exceeds 1/2 (sum m_i) v_max^2
  /// with this v_max [m/s]
  double max_speed = 10.0;

  int num_pins() const { return (num_bodies + 1) / 2; }
  int num_prismatic() const { return num_bodies / 2; }
  int num_dofs() const { return 3 * num_bodies; }
  /// Contact elements: bodies (ContactModel::body) or contact points (ContactModel::point).
  int num_contact_elements() const {
    return contact_model == ContactModel::body ? num_bodies
                                               : static_cast<int>(contact_points.size());
  }
  /// Body index distal of pin joint j (the body it rotates).
  int pin_body(int j) const { return 2 * j; }
  /// Body index distal of prismatic joint j.
  int prismatic_body(int j) const { return 2 * j + 1; }

  /// Throws InputError (key paths under `prefix`) if any size, sign or value is invalid.
  void validate(const std::string& prefix = "vine") const;
};

/// Rotational inertia of a thin-walled tube (hollow cylinder) of mass m, diameter D and length
/// l = 2 d about the axis through its centre normal to the plane: I = m (D^2 / 8 + l^2 / 12) [kg
/// m^2].
double tube_inertia(double mass, double diameter, double half_length);

/// Scalar parameters of a vine whose bodies and pin joints are all alike.
struct UniformVineParameters {
  int bodies = 2;                ///< n (#bodies)
  double half_length = 0.01;     ///< d [m]
  double tube_diameter = 0.024;  ///< D [m]
  double mass = 1e-3;            ///< m per body [kg]
  double inertia = 0.0;          ///< I per body [kg m^2]; <= 0: tube_inertia(m, D, d)
  double stiffness = 0.0;        ///< K per pin joint [N m/rad]
  double damping = 0.0;          ///< C per pin joint [N m s/rad]
  double heading = 0.0;          ///< rest angle of the base pin, the initial heading [rad]
  double dt = 0.01;              ///< Delta t [s]
};

/// A model with identical bodies, rest angles (heading, 0, 0, ...), default contact points and
/// contact radius D / 2, no obstacles, no gravity, zero growth.
VineModel uniform_vine(const UniformVineParameters& p);

/// Default contact points: the distal end of every body that ends at a pin joint and the tip.
std::vector<ContactPoint> default_contact_points(const VineModel& model);

struct VineState {
  double time = 0.0;  ///< t [s]
  VecX q;             ///< (x_i, y_i, theta_i) per body [m, m, rad] (3 #bodies)
  VecX v;             ///< dq/dt [m/s, m/s, rad/s] (3 #bodies)
};

/// A straight vine from the base along `heading` [rad] whose prismatic joints are each extended by
/// `extension` [m] (0: bodies end to end), at rest.
VineState straight_state(const VineModel& model, double heading, double extension = 0.0);

/// The length grown beyond the bodies end to end: sum over the prismatic joints of the distance of
/// the two bodies' centres minus d_a + d_b [m].
double grown_length(const VineModel& model, const VecX& q);

/// m_i of body i at q: the model's mass, plus lambda max(0, grown_length(q)) for the tip body
/// (VineModel::everted_density) [kg].
double body_mass(const VineModel& model, const VecX& q, int body);

/// Positions of the joint points base .. tip: the base, every joint between bodies (the proximal
/// end of the distal body) and the tip (#bodies + 1).
std::vector<Vec2> centerline_points(const VineModel& model, const VecX& q);

/// Throws InputError naming `key` if any contact element (body capsule or contact point) is inside
/// an obstacle (phi < -tolerance [m]).
void check_no_penetration(const VineModel& model, const VecX& q, const std::string& key,
                          double tolerance = 1e-9);

/// Throws InputError naming `key` if a prismatic joint has (near) zero length |h| <= 1e-12 m: its
/// growth direction h / |h| (eq. 6) is undefined.
void check_prismatic_lengths(const VineModel& model, const VecX& q, const std::string& key);

/// Signed distance Phi [m] of contact element `element` to obstacle `obstacle` at q (the contact
/// radius subtracted) and, in `offset`, the position s [m] along its body where it is attained.
double element_distance(const VineModel& model, const VecX& q, int element, int obstacle,
                        double& offset);
/// The body of a contact element.
inline int element_body(const VineModel& model, int element) {
  return model.contact_model == ContactModel::body ? element : model.contact_points[element].body;
}

}  // namespace tendril::vine
