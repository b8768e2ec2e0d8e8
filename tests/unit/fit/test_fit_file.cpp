// Fit files (fit/fit_file.hpp): a good file is read into parameters, experiments and SI
// measurements; bad ones (the fitting issue's list: an unknown key path, bounds that exclude the
// initial value, data columns that do not exist, a parameter that is not a real number) are refused
// naming the key, the value and file:line:column, as scene errors are.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "support/source_tree.hpp"
#include "tendril/core/error.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_methods.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using testing::expect_input_error;

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = testing::scratch_dir("fit_file") / name;
  std::ofstream(p) << text;
  return p;
}

/// A fit file for the robot scene with `parameter` as its one parameter line and `observable` as
/// its one observable line.
fs::path fit_file(
    const std::string& parameter,
    const std::string& observable = "{column: v_mm_per_s, observable: speed, factor: 1e-3}") {
  write("robot.yaml",
        "duration: 0.2\nflagellated_robot: {tails: 2, motor_rpm: 100}\nintegrator: {type: "
        "implicit_euler, dt: 0.01}\n");
  write("data.csv",
        "# simulated, not "
        "measured\nflagellated_robot.motor_rpm,v_mm_per_s,omega_h\n100,0.2,10\n250,,24\n");
  return write("fit.yaml", "scene: robot.yaml\nsettings: [duration=0.1]\nparameters:\n  - " +
                               parameter +
                               "\ndata:\n  csv: data.csv\n  variables: "
                               "[flagellated_robot.motor_rpm]\n  observables:\n    - " +
                               observable + "\n");
}

TEST(FitFile, ReadsParametersExperimentsAndMeasurements) {
  const FitFile f =
      read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2, lower: 0.5, upper: 10}"));
  EXPECT_EQ(f.method, "finite_difference_lm");
  ASSERT_EQ(f.parameters.size(), 1u);
  EXPECT_EQ(f.parameters[0].key, "flagellated_robot.C1");
  EXPECT_EQ(f.parameters[0].scale, 2.0);  // default: |initial|
  ASSERT_EQ(f.data.experiments.size(), 2u);
  EXPECT_EQ(f.data.experiments[1],
            (RunSettings{"duration=0.1", "flagellated_robot.motor_rpm=250"}));
  EXPECT_DOUBLE_EQ(f.data.measured(0, 0), 0.2e-3);  // mm/s times the factor
  EXPECT_TRUE(std::isnan(f.data.measured(1, 0)));   // empty cell: not measured
  EXPECT_DOUBLE_EQ(f.data.sigma[0], 0.2e-3);        // default: the column's RMS
  EXPECT_EQ(f.data.observables, std::vector<std::string>{"speed"});
  EXPECT_FALSE(f.options.absolute_sigma);  // no sigma given: weights only
  EXPECT_NO_THROW(fit_method(f.method));
  const FitFile g =
      read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                             "{column: v_mm_per_s, observable: speed, factor: 1e-3, sigma: 2e-5}"));
  EXPECT_EQ(g.data.sigma[0], 2e-5);
  EXPECT_TRUE(g.options.absolute_sigma);  // every observable's error given
}

TEST(FitFile, RefusesBadFilesNamingKeyValueAndPlace) {
  // an unknown key path
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C3, initial: 2}")); },
                     {"parameters[0].key", "flagellated_robot.C3",
                      "a key path of the scene's schema", "fit.yaml:4:"});
  // bounds that exclude the initial value
  expect_input_error(
      [] {
        read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 20, lower: 0.5, upper: 10}"));
      },
      {"parameters[0].initial", "got 20", "within the bounds [0.5, 10]", "fit.yaml:4:"});
  // a data column that does not exist
  expect_input_error(
      [] {
        read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                               "{column: omega_head, observable: head_rotation_rate}"));
      },
      {"data.observables[0].column", "omega_head", "a column of", "v_mm_per_s",
       "did you mean 'omega_h'", "fit.yaml:9:"});
  // a parameter that is not a real number: its value, and a key that is not real-valued
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: two}")); },
                     {"parameters[0].initial", "got two", "a finite real", "fit.yaml:4:"});
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.tails, initial: 2}")); },
                     {"parameters[0].key", "flagellated_robot.tails",
                      "a real-valued key (this key is of type integer)"});
  // an observable the runs do not give, and a method that does not exist
  expect_input_error(
      [] {
        read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                               "{column: omega_h, observable: spin}"));
      },
      {"data.observables[0].observable", "spin", "head_rotation_rate"});
  // the scene refuses a value of the fit: a negative initial C1 (the scene's own rule)
  expect_input_error([] { read_fit_file(fit_file("{key: flagellated_robot.C1, initial: -1}")); },
                     {"flagellated_robot.C1", "got -1", "data.csv line 3"});
}

// The messages: a third parameter of a vine method is named as that entry (parameters[2],
// not parameters[0], which is right), and finite_difference_lm given a vine scene's K names the
// methods that fit it instead of calling vine.stiffness an unknown key.
TEST(FitFile, NamesTheOffendingParameterAndTheMethodForVineKeys) {
  write("vine3.yaml",
        "vine:\n  bodies: 4\n  half_length: 0.02\n  stiffness: [0.05]\n  steps: 10\n");
  write("frames3.csv", "step,x,y\n3,0,0\n3,0.01,0\n");
  const fs::path three =
      write("three.yaml",
            "scene: vine3.yaml\nmethod: vine_shooting\nparameters:\n"
            "  - {key: vine.stiffness, initial: 0.03}\n  - {key: vine.damping, initial: 1.0e-3}\n"
            "  - {key: vine.rest_angle, initial: 0.1}\n"
            "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  expect_input_error([&] { read_fit_file(three); },
                     {"parameters[2].key", "vine.rest_angle", "one of vine.stiffness",
                      "vine.rest_angles[0]", "three.yaml:6:"});
  const fs::path joint =
      write("joint3.yaml",
            "scene: vine3.yaml\nmethod: joint_estimation\nparameters:\n"
            "  - {key: vine.stiffness, initial: 0.03}\n  - {key: vine.damping, initial: 1.0e-3}\n"
            "  - {key: vine.inflated_beam.collapse_moment, initial: 0.01}\n"
            "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  expect_input_error(
      [&] { read_fit_file(joint); },
      {"parameters[2].key", "vine.inflated_beam.collapse_moment", "joint_estimation fits",
       "vine.growth.rate", "vine.rest_angles[0]", "vine.contact.radius"});
  // the growth rate and the heading after K and C reach the estimation's parameters
  const fs::path rate =
      write("joint4.yaml",
            "scene: vine3.yaml\nmethod: joint_estimation\nparameters:\n"
            "  - {key: vine.stiffness, initial: 0.03}\n  - {key: vine.damping, initial: 1.0e-3}\n"
            "  - {key: vine.growth.rate, initial: 0.01}\n"
            "  - {key: \"vine.rest_angles[0]\", initial: 0.1}\n"
            "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  const FitFile joint4 = read_fit_file(rate);
  ASSERT_EQ(joint4.estimation.parameters.size(), 2u);
  EXPECT_EQ(joint4.estimation.parameters[0].kind, VineParameterKind::growth_rate);
  EXPECT_EQ(joint4.estimation.parameters[1].kind, VineParameterKind::heading);
  // which are free: a bound on one is refused naming it
  const fs::path bounded =
      write("joint5.yaml",
            "scene: vine3.yaml\nmethod: joint_estimation\nparameters:\n"
            "  - {key: vine.stiffness, initial: 0.03}\n  - {key: vine.damping, initial: 1.0e-3}\n"
            "  - {key: vine.growth.rate, initial: 0.01, lower: 0}\n"
            "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  expect_input_error([&] { read_fit_file(bounded); },
                     {"parameters[2].lower", "no bounds or scale"});
  // vine_shooting's other keys: read as the parameters they name; one the scene's model does not
  // have (the inflated-beam law's M_c with the linear law) refused naming the entry
  const fs::path more =
      write("more.yaml",
            "scene: vine3.yaml\nmethod: vine_shooting\nparameters:\n"
            "  - {key: vine.damping, initial: 1.0e-3}\n  - {key: vine.growth.rate, initial: 0.01}\n"
            "  - {key: \"vine.rest_angles[0]\", initial: -0.1}\n"
            "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  const FitFile read = read_fit_file(more);
  ASSERT_EQ(read.vine_parameters.size(), 3u);
  EXPECT_EQ(read.vine_parameters[1].kind, VineParameterKind::growth_rate);
  EXPECT_EQ(read.vine_parameters[2].kind, VineParameterKind::heading);
  const fs::path law = write("law.yaml",
                             "scene: vine3.yaml\nmethod: vine_shooting\nparameters:\n"
                             "  - {key: vine.damping, initial: 1.0e-3}\n"
                             "  - {key: vine.inflated_beam.collapse_moment, initial: 0.01}\n"
                             "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  expect_input_error([&] { read_fit_file(law); }, {"parameters[1]", "M_c", "bending_law linear"});
  // a scheduled growth: its rows' rates, not vine.growth.rate
  write("scheduled.yaml",
        "vine:\n  bodies: 4\n  half_length: 0.02\n  stiffness: [0.05]\n  steps: 10\n"
        "  growth: {schedule: [[0, 0.01], [0.05, 0.02]]}\n");
  const auto scheduled = [](const std::string& key) {
    return write("scheduled_fit.yaml",
                 "scene: scheduled.yaml\nmethod: vine_shooting\nparameters:\n"
                 "  - {key: \"" +
                     key +
                     "\", initial: 0.015}\n"
                     "data:\n  csv: frames3.csv\n  frames: {step: step, x: x, y: y}\n");
  };
  expect_input_error([&] { read_fit_file(scheduled("vine.growth.rate")); },
                     {"parameters[0].key", "vine.growth.schedule[i]"});
  EXPECT_EQ(read_fit_file(scheduled("vine.growth.schedule[1]")).vine_parameters[0].index, 1);
  expect_input_error([&] { read_fit_file(scheduled("vine.growth.schedule[2]")); },
                     {"parameters[0]", "sample 0 .. 1"});
  try {
    read_fit_file(fit_file("{key: vine.stiffness, initial: 0.05}"));
    ADD_FAILURE() << "a vine key accepted by finite_difference_lm";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("parameters[0].key"), std::string::npos) << m;
    EXPECT_NE(m.find("vine_shooting or joint_estimation"), std::string::npos) << m;
    EXPECT_EQ(m.find("a key path of the scene's schema"), std::string::npos) << m;
  }
}

// Method joint_estimation: its options reach JointEstimationOptions as written (sigmas, Hessian,
// IPOPT's tolerance and iterations, the switches; K's and C's scales and upper bounds from the
// parameters), a known contact `tip` is the scene's last contact point with the measured frames'
// steps by default, and options of another method are refused naming the key and the methods.
TEST(FitFile, ReadsTheJointEstimationsOptions) {
  write("vine.yaml",
        "vine:\n  bodies: 6\n  half_length: 0.02\n  stiffness: [0.05]\n  steps: 30\n"
        "  contact: {model: point}\n  obstacles:\n    - {type: half_plane, point: [0, -1], normal: "
        "[0, 1]}\n");
  write("frames.csv", "step,x,y\n3,0,0\n3,0.01,0\n9,0,0\n9,0.01,0\n");
  const auto file = [](const std::string& options) {
    return write("joint.yaml",
                 "scene: vine.yaml\nmethod: joint_estimation\nparameters:\n"
                 "  - {key: vine.stiffness, initial: 0.03, upper: 1, scale: 0.1}\n"
                 "  - {key: vine.damping, initial: 1.0e-3, lower: 0}\n"
                 "data:\n  csv: frames.csv\n  frames: {step: step, x: x, y: y}\noptions:\n" +
                     options);
  };
  const FitFile f = read_fit_file(file(
      "  measurement_sigma: 2.0e-3\n  model_sigma_position: 3.0e-5\n  model_sigma_angle: 4.0e-4\n"
      "  model_sigma_velocity: 5.0e-3\n  model_sigma_angular_velocity: 6.0e-2\n  per_joint: true\n"
      "  hessian: gauss_newton\n  trust_region_iterations: 7\n  trust_region_newton_iterations: 8\n"
      "  bilateral_contacts: true\n  multiplier_sigma: 0.5\n  min_prismatic_extension: -1.0e-3\n"
      "  eliminate_model_residuals: true\n  first_state_joint_velocities: true\n  tolerance: "
      "1.0e-6\n"
      "  max_iterations: 40\n  known_contacts:\n    - {point: tip, obstacle: 0}\n"
      "    - {point: 1, obstacle: 0, first_step: 4, last_step: 6}\n"));
  const JointEstimationOptions& o = f.estimation;
  EXPECT_EQ(o.measurement_sigma, 2e-3);
  EXPECT_EQ(o.model_sigma_position, 3e-5);
  EXPECT_EQ(o.model_sigma_angle, 4e-4);
  EXPECT_EQ(o.model_sigma_velocity, 5e-3);
  EXPECT_EQ(o.model_sigma_angular_velocity, 6e-2);
  EXPECT_TRUE(o.per_joint);
  EXPECT_EQ(o.hessian, EstimationHessian::gauss_newton);
  EXPECT_EQ(o.trust_region_iterations, 7);
  EXPECT_EQ(o.trust_region_newton_iterations, 8);
  EXPECT_TRUE(o.bilateral_contacts);
  EXPECT_EQ(o.multiplier_sigma, 0.5);
  EXPECT_EQ(o.min_prismatic_extension, -1e-3);
  EXPECT_TRUE(o.eliminate_model_residuals);
  EXPECT_TRUE(o.first_state_joint_velocities);
  EXPECT_EQ(o.tolerance, 1e-6);
  EXPECT_EQ(o.max_iterations, 40);
  EXPECT_EQ(o.stiffness_scale, 0.1);
  EXPECT_EQ(o.damping_scale, 1e-3);  // default: |initial|
  EXPECT_EQ(o.stiffness_max, 1.0);
  EXPECT_EQ(o.damping_max, 0.0);  // no upper bound given: the estimation's default
  ASSERT_EQ(o.contacts.size(), 2u);
  EXPECT_EQ(o.contacts[0].point, 2);  // six bodies: the ends of bodies 1 and 3, then the tip
  EXPECT_EQ(o.contacts[0].obstacle, 0);
  EXPECT_EQ(o.contacts[0].first_step, 3);
  EXPECT_EQ(o.contacts[0].last_step, 9);
  EXPECT_EQ(o.contacts[1].point, 1);
  EXPECT_EQ(o.contacts[1].first_step, 4);
  EXPECT_EQ(o.contacts[1].last_step, 6);
  EXPECT_EQ(o.formulation, EstimationFormulation::transcribed);  // the default
  // the defaults are the configuration that converges on the wall growth (docs/physics/fitting.md);
  // the step map's: its own options only, the Gauss-Newton Hessian, no pass
  const auto defaults = [&](const std::string& options) {
    const JointEstimationOptions e = read_fit_file(file(options)).estimation;
    return std::tuple(e.formulation, e.hessian, e.trust_region_iterations,
                      e.trust_region_newton_iterations, e.min_prismatic_extension,
                      e.multiplier_sigma);
  };
  EXPECT_EQ(defaults("  tolerance: 1.0e-6\n"),
            std::tuple(EstimationFormulation::transcribed, EstimationHessian::exact, 200, 1500, 0.0,
                       10.0));
  EXPECT_EQ(defaults("  formulation: step_map\n"),
            std::tuple(EstimationFormulation::step_map, EstimationHessian::gauss_newton, 0, 0,
                       -std::numeric_limits<double>::infinity(), 0.0));
  expect_input_error([&] { read_fit_file(file("  formulation: lifted\n")); },
                     {"options.formulation", "got lifted", "step_map", "transcribed"});
  EXPECT_EQ(read_fit_file(file("  tolerance: 1.0e-6\n")).estimation.max_iterations,
            500);  // IPOPT's default here
  expect_input_error([&] { read_fit_file(file("  gradient_tolerance: 1.0e-6\n")); },
                     {"options.gradient_tolerance", "got 1.0e-6",
                      "finite_difference_lm, adjoint_lm only", "joint_estimation"});
  expect_input_error(
      [&] {
        read_fit_file(file("  known_contacts:\n    - {point: tip, obstacle: 0, last_step: 10}\n"));
      },
      {"options.known_contacts[0].last_step", "got 10", "3 .. 9"});
  expect_input_error([&] { read_fit_file(file("  hessian: exactly\n")); },
                     {"options.hessian", "got exactly", "gauss_newton"});
  // bad values named with the key
  expect_input_error([&] { read_fit_file(file("  multiplier_sigma: 0\n")); },
                     {"options.multiplier_sigma", "got 0"});
  expect_input_error([&] { read_fit_file(file("  multiplier_sigma: -2\n")); },
                     {"options.multiplier_sigma", "got -2"});
  expect_input_error([&] { read_fit_file(file("  min_prismatic_extension: wide\n")); },
                     {"options.min_prismatic_extension", "got wide"});
}

// Method adjoint_lm takes the keys and observables it differentiates and scenes whose duration is
// a whole number of steps only, and not the finite differences' step; bad input names
// the key, the value and what is allowed. Observables are checked against the scene with either
// method.
TEST(FitFile, AdjointMethodRefusesWhatItDoesNotDifferentiate) {
  const auto adjoint_file = [](const std::string& parameter, const std::string& observable,
                               const std::string& extra = "") {
    const fs::path base = fit_file(parameter, observable);
    std::ifstream in(base);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return write("adjoint.yaml", "method: adjoint_lm\n" + extra + text);
  };
  const std::string speed = "{column: v_mm_per_s, observable: speed, factor: 1e-3}";
  const FitFile ok = read_fit_file(adjoint_file("{key: flagellated_robot.mu, initial: 6}", speed));
  EXPECT_EQ(ok.method, "adjoint_lm");
  EXPECT_EQ(read_fit_file(adjoint_file("{key: flagellated_robot.E, initial: 1.0e6}", speed))
                .parameters[0]
                .key,
            "flagellated_robot.E");
  expect_input_error(
      [&] {
        read_fit_file(adjoint_file("{key: flagellated_robot.tail_radius, initial: 3.0e-3}", speed));
      },
      {"parameters[0].key", "got flagellated_robot.tail_radius", "adjoint_lm differentiates",
       "flagellated_robot.C1", "rods[].material.E", "shells[].material.thickness"});
  // a component of an [x, y, z] key (gravity, point loads, moments, surface loads) is 0, 1 or 2
  expect_input_error(
      [&] { read_fit_file(adjoint_file("{key: 'forces.gravity[3]', initial: -9.81}", speed)); },
      {"parameters[0].key", "got forces.gravity[3]",
       "a component 0, 1 or 2 of the [x, y, z] key forces.gravity"});
  expect_input_error(
      [&] { read_fit_file(fit_file("{key: 'forces.point_loads[0].force', initial: 1}", speed)); },
      {"parameters[0].key", "got forces.point_loads[0].force", "a real-valued key"});
  expect_input_error(
      [&] {
        read_fit_file(adjoint_file("{key: flagellated_robot.C1, initial: 2}",
                                   "{column: v_mm_per_s, observable: 'rods[0].nodes[99].z@0.05'}"));
      },
      {"observable", "rods[0].nodes[99].z@0.05", "a node index of rods[0]"});
  expect_input_error(
      [&] {
        read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                               "{column: v_mm_per_s, observable: 'rods[0].nodes[1].z@0.055'}"));
      },
      {"observable", "rods[0].nodes[1].z@0.055", "whole number of steps of dt = 0.01 s"});
  expect_input_error(
      [&] {
        read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                               "{column: v_mm_per_s, observable: 'rods[0].nodes[1].w@0.05'}"));
      },
      {"observable", "rods[0].nodes[1].w@0.05", "rods[i].nodes[j].x@t"});
  // the efficiency reads the head drag's C1, C2 and radius: a scene without head drag has none
  EXPECT_EQ(read_fit_file(adjoint_file("{key: flagellated_robot.C1, initial: 2}",
                                       "{column: omega_h, observable: efficiency}"))
                .data.observables[0],
            "efficiency");
  write("rod.yaml",
        "duration: 0.2\nrods:\n  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, "
        "0], length: 0.1, num_nodes: 5}\n    material: {E: 1.0e6, nu: 0.5, density: 1000, radius: "
        "0.005}\nobservables: {head_edge: 0, tail_edge: 1, axis: [1, 0, 0]}\nintegrator: {type: "
        "implicit_euler, dt: 0.01}\n");
  write("rod_data.csv", "rods[0].material.density,omega_h\n1000,1\n");
  const fs::path no_head = write(
      "no_head.yaml",
      "method: adjoint_lm\nscene: rod.yaml\nparameters:\n  - {key: 'rods[0].material.E', initial: "
      "1.0e6}\ndata:\n  csv: rod_data.csv\n  variables: ['rods[0].material.density']\n  "
      "observables:\n    - {column: omega_h, observable: efficiency}\n");
  expect_input_error([&] { read_fit_file(no_head); },
                     {"observable", "efficiency", "a scene with head drag", "forces.head_drag"});
  // the scene's energies at a time on the step grid, with either method
  EXPECT_EQ(read_fit_file(adjoint_file("{key: flagellated_robot.C1, initial: 2}",
                                       "{column: v_mm_per_s, observable: 'elastic_energy@0.05'}"))
                .data.observables[0],
            "elastic_energy@0.05");
  expect_input_error(
      [&] {
        read_fit_file(adjoint_file("{key: flagellated_robot.C1, initial: 2}",
                                   "{column: v_mm_per_s, observable: 'kinetic_energy@0.055'}"));
      },
      {"observable", "kinetic_energy@0.055", "whole number of steps of dt = 0.01 s"});
  expect_input_error(
      [&] {
        read_fit_file(fit_file("{key: flagellated_robot.C1, initial: 2}",
                               "{column: v_mm_per_s, observable: 'potential_energy@0.05'}"));
      },
      {"observable", "potential_energy@0.05", "kinetic_energy@t or elastic_energy@t"});
  expect_input_error(
      [&] {
        read_fit_file(adjoint_file("{key: flagellated_robot.C1, initial: 2}", speed,
                                   "options: {difference_step: 1.0e-4}\n"));
      },
      {"options.difference_step", "finite_difference_lm only", "adjoint_lm"});
  write("robot.yaml",
        "duration: 0.2\nflagellated_robot: {tails: 2, motor_rpm: 100}\nintegrator: {type: "
        "static, dt: 0.01}\n");
  const fs::path statics =
      write("static.yaml",
            "method: adjoint_lm\nscene: robot.yaml\nparameters:\n  - {key: "
            "flagellated_robot.C1, initial: 2}\ndata:\n  csv: data.csv\n  variables: "
            "[flagellated_robot.motor_rpm]\n  observables:\n    - " +
                speed + "\n");
  // a quasi-static scene is differentiated for its node positions only
  expect_input_error([&] { read_fit_file(statics); },
                     {"observable", "speed", "a node coordinate", "quasi-static"});
}

// The shipped fit files read (the vine one needs the measured data beside the repository).
TEST(FitFile, ExamplesRead) {
  const fs::path dir = testing::source_tree() / "examples" / "fit";
  const FitFile n2 = read_fit_file(dir / "flagellated_robot_n2.yaml");
  EXPECT_EQ(n2.parameters.size(), 3u);
  EXPECT_EQ(n2.data.experiments.size(), 3u);
  EXPECT_TRUE(n2.options.absolute_sigma);
  EXPECT_EQ(n2.method, "adjoint_lm");  // the robot's medium fit by its runs' sensitivities
  EXPECT_EQ(read_fit_file(dir / "flagellated_robot_n2_finite_difference.yaml").method,
            "finite_difference_lm");
  const FitFile one = read_fit_file(dir / "flagellated_robot_one_point.yaml");
  EXPECT_EQ(one.data.measured(0, 0), 0.6e-3);
  if (fs::exists(testing::source_tree() / ".." / "shared" / "data" / "vine_wall_growth")) {
    EXPECT_EQ(read_fit_file(dir / "vine_wall_growth.yaml").frames.size(), 8u);
    const FitFile joint = read_fit_file(dir / "vine_wall_growth_joint_estimation.yaml");
    EXPECT_EQ(joint.frames.size(), 8u);
    ASSERT_EQ(joint.estimation.contacts.size(), 1u);
    EXPECT_EQ(joint.estimation.contacts[0].last_step, 21);
  }
}

}  // namespace
}  // namespace tendril::fit
