#include "tendril/sim/media_scene.hpp"

#include <limits>

#include "tendril/io/schema_keys.hpp"

namespace tendril::sim {

namespace {

using io::KeyType;
using namespace io::keys;
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kMediaExample = R"yaml(duration: 1.0
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 0.1, num_nodes: 21}
    material: {E: 1.0e5, nu: 0.5, density: 1000, radius: 0.002}
forces:
  viscous_drag: [{viscosity: 1.0}]
actuation:
  - quantity: natural_curvature_1
    schedule: {type: sinusoid, amplitude: 0.05, frequency: 2, phase_per_length: 31.4}
integrator: {type: implicit_euler, dt: 1.0e-3}
)yaml";

const io::SchemaTable& media_scene_schema() {
  static const io::SchemaTable table{
      "Media, actuation, observables and the flagellated robot",
      "Forces of the medium (docs/physics/media.md), rest quantities scheduled in time and "
      "per-spring rest "
      "shapes (docs/physics/actuation.md), the robot observables written by every run that asks "
      "for them "
      "(docs/output_format.md) and the generator of the flagellated robot of granular_flagella "
      "Fig. 3 "
      "(docs/physics/flagellated_robot.md). Node and edge indices are per rod, as above.",
      {
          node("forces.viscous_drag", KeyType::List,
               "Viscous drag F_i = -eta Delta l_i u_i on nodes (mat_dismech 5.3, eq. 27)."),
          real("forces.viscous_drag[].viscosity", kReq, "Pa s", "Viscosity eta of the medium.",
               0.0),
          integer("forces.viscous_drag[].rod", kOpt, 0,
                  "Rod whose nodes feel the drag (absent: every node)."),
          indices("forces.viscous_drag[].nodes",
                  "Nodes of `rod` (absent: all of them; negative: from the end)."),

          node("forces.rft", KeyType::List,
               "Resistive Force Theory on rods (granular_flagella eq. 9-10): F = -Delta l (eta_t "
               "v_t + eta_n v_n). "
               "Give eta_t and eta_n, or mu (with length and radius defaulting to the rod's)."),
          indices("forces.rft[].rods",
                  "Rods (indices) the drag acts on, e.g. the tails (required)."),
          real("forces.rft[].eta_t", kOpt, "Pa s", "Tangential drag coefficient eta_t.", 0.0),
          real("forces.rft[].eta_n", kOpt, "Pa s", "Normal drag coefficient eta_n.", 0.0),
          real("forces.rft[].mu", kOpt, "Pa s",
               "Medium constant mu: eta_t = 2 pi mu / (ln(2L/r0) - 1/2), eta_n = 4 pi mu / "
               "(ln(2L/r0) + 1/2).",
               0.0),
          positive("forces.rft[].length", kOpt, "m",
                   "L in the formula of mu (default: each rod's rest length)."),
          positive("forces.rft[].radius", kOpt, "m",
                   "r0 in the formula of mu (default: each rod's material radius)."),

          node("forces.head_drag", KeyType::Map,
               "Drag force -6 pi C1 mu a v_h on a head node and torque -8 pi C2 mu a^3 omega_h on "
               "the twist of a head "
               "edge (granular_flagella eq. 11-12)."),
          integer("forces.head_drag.rod", "0", 0, "Rod of the head node and edge."),
          integer("forces.head_drag.node", kReq, -kInf, "Head node x_h (gets the force)."),
          integer("forces.head_drag.edge", kReq, -kInf, "Head edge (its twist gets the torque)."),
          real("forces.head_drag.C1", "1", "-", "Shape factor C1 of the force (1: Stokes sphere).",
               0.0),
          real("forces.head_drag.C2", "1", "-", "Shape factor C2 of the torque (1: Stokes sphere).",
               0.0),
          real("forces.head_drag.mu", kReq, "Pa s", "Medium constant mu.", 0.0),
          positive("forces.head_drag.radius", kReq, "m", "Head radius a."),

          node("rods[].rest_shape", KeyType::List,
               "Natural curvature / twist of chosen springs (overrides the uniform values), same "
               "units and "
               "conversion as rods[].natural_curvature / natural_twist."),
          indices("rods[].rest_shape[].nodes",
                  "Nodes of this rod whose bend-twist spring is set (required)."),
          {.path = "rods[].rest_shape[].natural_curvature",
           .type = KeyType::RealList,
           .default_value = kOpt,
           .unit = "1/m",
           .doc = "[kappa1, kappa2] in the material frame."},
          real("rods[].rest_shape[].natural_twist", kOpt, "rad/m", "Natural twist rate tau."),

          node("actuation", KeyType::List,
               "Rest quantities scheduled in time, applied at the time of every Newton solve "
               "(mat_dismech 6.1, "
               "granular_flagella IV-E). Values are the Model's discrete quantities: "
               "natural_curvature_1/2 "
               "kappa_bar [-] (about kappa Delta l), natural_twist m_bar [rad] (twist rate times "
               "Delta l; the "
               "motor: rate omega_T), rest_length [m]."),
          {.path = "actuation[].quantity",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc = "What is scheduled.",
           .choices = {"natural_curvature_1", "natural_curvature_2", "natural_twist",
                       "rest_length"}},
          integer("actuation[].rod", "0", 0, "Rod of the nodes / edges."),
          indices("actuation[].nodes",
                  "Curvature / twist: nodes whose bend-twist spring is scheduled (each must have "
                  "exactly one; "
                  "default: every node of the rod that has one)."),
          indices("actuation[].edges",
                  "rest_length: edges whose rest length is scheduled (default: all of the rod)."),
          node("actuation[].schedule", KeyType::Map, "v(t) of each target (required)."),
          {.path = "actuation[].schedule.type",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc = "rate: v = start + rate t; sinusoid: v = mean + amplitude sin(2 pi f t + phase - "
                  "k s); table: "
                  "piecewise linear; file: a CSV file.",
           .choices = {"rate", "sinusoid", "table", "file"}},
          real("actuation[].schedule.rate", kReq, "unit/s",
               "rate: dv/dt (the motor's omega_T for natural_twist)."),
          real("actuation[].schedule.start", kOpt, "unit",
               "rate: v at t = 0 (default: each target's value in the built model)."),
          real("actuation[].schedule.mean", kOpt, "unit",
               "sinusoid: mean (default: each target's built value)."),
          real("actuation[].schedule.amplitude", kReq, "unit", "sinusoid: amplitude."),
          real("actuation[].schedule.frequency", kReq, "Hz", "sinusoid: frequency f.", 0.0),
          real("actuation[].schedule.phase", "0", "rad", "sinusoid: phase at s = 0."),
          real("actuation[].schedule.phase_per_length", "0", "rad/m",
               "sinusoid: wavenumber k; the phase of a target at arc length s along the rod (rest "
               "lengths from its "
               "first node) is phase - k s, a wave travelling towards larger s when k f > 0."),
          {.path = "actuation[].schedule.table",
           .type = KeyType::RealTable,
           .default_value = kReq,
           .unit = "s, unit",
           .doc = "table: rows [t, v] with increasing t, held constant outside."},
          {.path = "actuation[].schedule.file",
           .type = KeyType::String,
           .default_value = kReq,
           .unit = "",
           .doc = "file: CSV rows t, v_1, v_2, ... (optional header; path relative to the scene). "
                  "One value column "
                  "for every target, or one column per target in order."},

          node("observables", KeyType::Map,
               "Robot observables recorded at every step (docs/output_format.md): position along "
               "the axis, speed, "
               "head and tail rotation rates, efficiency (granular_flagella V, eq. 18)."),
          integer("observables.rod", "0", 0, "Rod of the head and tail edges."),
          integer("observables.head_edge", kReq, -kInf,
                  "The head edge (its midpoint is the robot's position)."),
          integer("observables.tail_edge", kReq, -kInf,
                  "An edge that turns with the tails (behind the motor)."),
          {.path = "observables.axis",
           .type = KeyType::Vec3,
           .default_value = kReq,
           .unit = "-",
           .doc = "Forward direction of the robot (normalised); rotation rates are about it."},
          real("observables.steady_start", kOpt, "s",
               "Fits of speed and rotation rates use t >= this (default: half the duration).", 0.0),

          node("flagellated_robot", KeyType::Map,
               "Generates the robot of granular_flagella Fig. 3 (rods, joints, rigid parts, RFT, "
               "head drag, motor, "
               "observables); excludes rods, joints, forces, actuation and observables. Geometry: "
               "docs/physics/flagellated_robot.md."),
          integer("flagellated_robot.tails", "2", 1, "Number of tails n.", 1000),
          real("flagellated_robot.motor_rpm", "100", "rev/min",
               "Motor speed omega_T (natural twist at the head node ramped at omega_T)."),
          positive("flagellated_robot.head_radius", "0.02", "m",
                   "Head radius a (head edge length L1 = 2a)."),
          positive("flagellated_robot.disc_diameter", "0.04", "m", "Disc diameter L2."),
          positive("flagellated_robot.tail_length", "0.111", "m", "Tail length L3."),
          positive("flagellated_robot.tail_edge_length", "0.00411", "m",
                   "Target edge length on the tails (rounded to a whole number of edges)."),
          positive("flagellated_robot.shaft_length", "0.00411", "m",
                   "Length of the rigid shaft edge from the head node x_h to the disc centre x_a."),
          positive("flagellated_robot.E", "1.2e6", "Pa", "Young's modulus of the tails."),
          real("flagellated_robot.nu", "0.5", "-", "Poisson ratio of the tails.", -1.0, 0.5, true),
          positive("flagellated_robot.density", "1000", "kg/m^3",
                   "Density (masses; inertia is negligible)."),
          positive("flagellated_robot.tail_radius", "0.0032", "m", "Tail cross-section radius r0."),
          real("flagellated_robot.rigid_factor", "1000", "-",
               "EA, EI and GJ of the head, shaft and disc edges as multiples of the tails'.", 1.0),
          real("flagellated_robot.C1", "2.420", "-",
               "Head drag shape factor C1 (fitted, granular_flagella V-C).", 0.0),
          real("flagellated_robot.C2", "0.039", "-", "Head torque shape factor C2 (fitted).", 0.0),
          real("flagellated_robot.mu", "6.828", "Pa s", "Medium constant mu (fitted).", 0.0),
          real("flagellated_robot.steady_start", kOpt, "s",
               "observables.steady_start of the generated scene (default: half the duration).",
               0.0),
      },
      kMediaExample};
  return table;
}

}  // namespace tendril::sim
