#pragma once
/// The 3D vine robot: the planar model of Jitosho et al., "A Dynamics Simulator for Soft Growing
/// Robots" (papers/vine_robot_simulator.txt, section II) with spatial bodies (docs/physics/
/// vine3d.md).
///
/// A chain of rigid bodies in maximal coordinates, ordered base to tip; body i has its centre of
/// mass p_i [m], its orientation r_i (unit quaternion, body x axis along the vine) and the
/// velocities (v_i [m/s], omega_i [rad/s], both in the world frame). Joint j connects body j-1
/// (the base frame for j = 0) to body j; joints alternate bending joints (even j: the ends meet,
/// two rotational DOFs, torsion held) and prismatic growth joints (odd j: the bodies are collinear
/// and untwisted, their distance grows). Vine3dModel is immutable during a run; Vine3dState holds
/// what changes.

#include <string>
#include <vector>

#include "tendril/actuation/schedule.hpp"
#include "tendril/core/types.hpp"
#include "tendril/vine/growth_schedule.hpp"
#include "tendril/vine/vine_model.hpp"
#include "tendril/vine3d/obstacles.hpp"
#include "tendril/vine3d/rotation.hpp"

namespace tendril::vine3d {

using vine::BendingLaw;
using vine::GrowthMode;
using vine::GrowthSchedule;
using vine::InflatedBeam;
using vine::SpringIntegration;

struct Vine3dModel {
  int num_bodies = 0;               ///< n (#bodies)
  std::vector<double> half_length;  ///< d_i: centre of mass to either end of body i [m] (#bodies)
  std::vector<double> mass;         ///< m_i [kg] (#bodies)
  /// I_a,i: rotational inertia about the body's axis [kg m^2] (#bodies)
  std::vector<double> axial_inertia;
  /// I_t,i: rotational inertia about an axis normal to the body's through its centre [kg m^2]
  /// (#bodies)
  std::vector<double> transverse_inertia;
  Vec3 base = Vec3::Zero();            ///< world point the proximal end of body 0 is pinned to [m]
  Quat base_frame = Quat::Identity();  ///< orientation of the base frame (bending joint 0's parent)
  /// The bending joints' moment law: K_j (beta - beta_0), or the inflated beam's moment of the
  /// bend's magnitude along the bend (docs/physics/vine3d.md#inflated-beam-bending)
  BendingLaw bending_law = BendingLaw::linear;
  InflatedBeam inflated_beam;  ///< the law's tube for BendingLaw::inflated_beam (all joints)
  /// K_j bending stiffness of bending joint j [N m/rad] (0 with BendingLaw::inflated_beam)
  std::vector<double> stiffness;
  std::vector<double> damping;  ///< C_j bending damping of bending joint j [N m s/rad]
  /// beta_0,j: rest bend (rotation vector components about the parent's y and z axes) of bending
  /// joint j [rad] (#bending joints); joint 0: relative to the base frame (the initial heading)
  std::vector<Vec2> rest_bend;
  /// Steering (tendon or pouch): beta_0,j(t), the rest bend's components about the parent's y and
  /// z axes at 2 j and 2 j + 1 [rad] (2 #bending joints); each step takes them at its start time.
  /// Empty: `rest_bend` held (docs/physics/vine3d.md#steering)
  std::vector<Schedule> steering;
  /// lambda: mass per length of the material everted at the tip [kg/m]. 0: every body keeps its
  /// mass (the paper). Otherwise the material the prismatic joints' extension stands for,
  /// lambda max(0, grown_length), is carried by the tip body, and a step adds lambda Delta t u at
  /// rest (docs/physics/vine3d.md#growth-by-eversion)
  double everted_density = 0.0;
  std::vector<Obstacle3> obstacles;  ///< rigid, fixed obstacles (#obstacles)
  /// r_c: every body is a capsule of this radius around its axis segment [m]
  double contact_radius = 0.0;
  double friction = 0.0;  ///< mu Coulomb friction coefficient (0 = frictionless, the paper)
  /// A contact point with Phi(q_k) <= this gap is in contact and gets the friction pyramid's rows,
  /// farther ones only the normal row (as vine::VineModel::contact_gap) [m]
  double contact_gap = 1e-5;
  Vec3 gravity = Vec3::Zero();  ///< g [m/s^2]
  /// The bending springs and dampers at (q_k, V_k) (the paper), or implicit in V_{k+1}
  /// (docs/physics/vine3d.md#bending-stiffness-and-damping)
  SpringIntegration springs = SpringIntegration::explicit_forces;
  double dt = 0.01;  ///< Delta t time step [s]
  GrowthMode growth_mode = GrowthMode::uniform;
  GrowthSchedule growth;  ///< u(t) total growth rate [m/s]
  /// beta in G_bar = g_v + beta Delta t g_q (as vine::VineModel::growth_lookahead)
  double growth_lookahead = 1.0;
  /// A step fails (Vine3dFailure::joint_drift) if the largest joint position error at its start
  /// exceeds this [m]
  double max_joint_error = 1e-3;

  int num_bending() const { return (num_bodies + 1) / 2; }
  int num_prismatic() const { return num_bodies / 2; }
  int num_dofs() const { return 6 * num_bodies; }
  /// Body index distal of bending joint j.
  int bending_body(int j) const { return 2 * j; }
  /// Body index distal of prismatic joint j.
  int prismatic_body(int j) const { return 2 * j + 1; }

  /// Throws InputError (key paths under `prefix`) if any size, sign or value is invalid or an
  /// obstacle is degenerate.
  void validate(const std::string& prefix = "vine3d") const;
};

/// Scalar parameters of a 3D vine whose bodies and bending joints are all alike.
struct UniformVine3dParameters {
  int bodies = 2;                ///< n (#bodies)
  double half_length = 0.01;     ///< d [m]
  double tube_diameter = 0.024;  ///< D [m]
  double mass = 1e-3;            ///< m per body [kg]
  double stiffness = 0.0;        ///< K per bending joint [N m/rad]
  double damping = 0.0;          ///< C per bending joint [N m s/rad]
  double dt = 0.01;              ///< Delta t [s]
};

/// A model with identical thin-walled tube bodies (I_a = m D^2 / 4, I_t = vine::tube_inertia),
/// contact radius D / 2, no rest bend (straight along the base frame's x axis), no obstacles, no
/// gravity, zero growth.
Vine3dModel uniform_vine3d(const UniformVine3dParameters& p);

struct Vine3dState {
  double time = 0.0;              ///< t [s]
  std::vector<Vec3> position;     ///< p_i centre of mass [m] (#bodies)
  std::vector<Quat> orientation;  ///< r_i body to world (#bodies)
  VecX velocity;  ///< (v_i [m/s], omega_i [rad/s]) per body, world frame (6 #bodies)
};

/// The length grown beyond the bodies end to end: sum over the prismatic joints of
/// |p_b - p_a| - d_a - d_b [m].
double grown_length(const Vine3dModel& model, const Vine3dState& state);

/// m_i of body i at `state`: the model's mass, plus lambda max(0, grown_length) for the tip body
/// (Vine3dModel::everted_density) [kg].
double body_mass(const Vine3dModel& model, const Vine3dState& state, int body);

/// The joint points of a state, as a camera tracks them: the base (joint 0's anchor, fixed), the
/// proximal end p_i - d_i e_i of bodies 1 .. n-1 and the tip p_n-1 + d_n-1 e_n-1 (#bodies + 1) [m].
std::vector<Vec3> centerline_points(const Vine3dModel& model, const Vine3dState& state);

/// A straight vine from the base along the base frame's x axis whose prismatic joints are each
/// extended by `extension` [m] (0: bodies end to end), at rest.
Vine3dState straight_state(const Vine3dModel& model, double extension = 0.0);

}  // namespace tendril::vine3d
