// `tendril fit`'s gradient method (adjoint_lm) on rod and shell scenes with any differentiated key
// and node coordinates as observables (fit/run_derivatives.hpp, fit/run_observables.hpp):
// - the derivatives of the observables with respect to scene keys (Young's modulus, density, a
//   rod's radius, whose residual is a quartic, a shell's thickness, a cubic) against converged
//   central differences of whole scene runs, for implicit Euler (forward sensitivities) and
//   implicit midpoint (the adjoint);
// - a cantilever's E and density fitted to its tip's positions at several times (synthetic data
//   with Gaussian noise): recovered within 4 sigma of the truth, the same estimate as
//   finite_difference_lm;
// - a shell strip's thickness fitted to its corner's height over time, the same estimate both ways.
// - the robot's efficiency (the chain rule from v and omega_h and the head drag's C1, C2) and the
//   elastic energy at the equilibria of a quasi-static scene against whole scene-run differences;
// - the robot under implicit midpoint: the differentiated run is the scene's run where steps are
//   halved, and its derivatives against whole scene-run differences;
// - the cantilever by implicit Euler over a duration whose step times are not sums of dt in binary:
//   the forward sensitivities' run is the scene's run bitwise, and its derivatives against whole
//   scene-run differences.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/fit/fit_methods.hpp"
#include "tendril/fit/run_derivatives.hpp"
#include "tendril/fit/scene_run_evaluator.hpp"
#include "validation/adjoint/whole_run_difference.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;

/// An 11-node cantilever (L 1 m, r 5 mm, E 1e7 Pa, rho 1273.52 kg/m^3, clamped at x = 0) under
/// gravity and a tip load out of the plane (0.02 N along y, 0.05 N down): the load does not scale
/// with the density, so tip positions over time tell E from rho.
constexpr const char* kCantilever = R"(duration: 0.6
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 1.0, num_nodes: 11}
    clamp: start
    material: {E: 1.0e7, nu: 0.5, density: 1273.52, radius: 0.005}
forces:
  gravity: [0, 0, -9.81]
  point_loads: [{rod: 0, node: -1, force: [0, 0.02, -0.05]}]
integrator: {type: implicit_euler, dt: 0.01}
)";

/// A 0.1 m x 0.03 m mid-edge shell strip (6 x 3 nodes; E 1e6 Pa, nu 0.3, rho 1000 kg/m^3, h 2 mm)
/// clamped by its two first columns, swinging down under gravity.
constexpr const char* kStrip = R"(duration: 0.08
rods: []
shells:
  - geometry: {type: rectangle, length: 0.1, width: 0.03, nodes_x: 6, nodes_y: 3, pattern: alternating}
    material: {E: 1.0e6, nu: 0.3, density: 1000, thickness: 0.002}
    bending: midedge
    clamp: {side: x_min, rows: 2}
forces: {gravity: [0, 0, -9.81]}
integrator: {type: implicit_euler, dt: 0.004}
)";

class SceneGradientFit : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tendril_scene_gradient_fit_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  fs::path dir_;
};

/// The settings with every key at its value, key `moved` at `value`.
RunSettings settings_at(RunSettings settings, const std::vector<std::string>& keys,
                        const std::vector<double>& values, std::size_t moved, double value) {
  for (std::size_t i = 0; i < keys.size(); ++i)
    settings.push_back(parameter_setting(keys[i], i == moved ? value : values[i]));
  return settings;
}

/// Every derivative of run_scene_with_derivatives against converged central differences of whole
/// scene runs (relative error <= 1e-6 of the difference, resolved 1000 times over).
void expect_derivatives_match_differences(const fs::path& scene, const RunSettings& settings,
                                          const std::vector<std::string>& keys,
                                          const std::vector<double>& values,
                                          const std::vector<std::string>& observables) {
  const RunSettings at = settings_at(settings, keys, values, keys.size(), 0.0);
  const RunOutcome d = run_scene_with_derivatives(scene, at, keys, observables);
  ASSERT_TRUE(d.ok) << d.message;
  const RunOutcome plain = run_scene(scene, at, observables);
  ASSERT_TRUE(plain.ok) << plain.message;
  for (std::size_t k = 0; k < observables.size(); ++k) {
    EXPECT_NEAR(d.values[k], plain.values[k], 1e-12 * (1.0 + std::abs(plain.values[k])))
        << observables[k] << ": the differentiated run is the scene's run";
    for (std::size_t i = 0; i < keys.size(); ++i) {
      double uncertainty = 0.0;
      const double difference = test::converged_central_difference(
          [&](double v) {
            const RunOutcome o =
                run_scene(scene, settings_at(settings, keys, values, i, v), observables);
            EXPECT_TRUE(o.ok) << o.message;
            return o.ok ? o.values[k] : std::nan("");
          },
          values[i], 1e-2 * std::abs(values[i]), &uncertainty);
      const double value =
          d.derivatives(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(i));
      EXPECT_NEAR(value, difference, 1e-6 * std::abs(difference))
          << "d " << observables[k] << " / d " << keys[i] << ": whole-run difference " << difference
          << " (converged to " << uncertainty << ")";
      EXPECT_GT(std::abs(difference), 1e3 * uncertainty) << "the difference is resolved";
    }
  }
}

/// expect_derivatives_match_differences over 0.3 s of the cantilever scene `scene` by implicit
/// Euler (the forward sensitivities) and implicit midpoint (the adjoint).
void expect_both_schemes_match_differences(const fs::path& scene,
                                           const std::vector<std::string>& keys,
                                           const std::vector<double>& values,
                                           const std::vector<std::string>& observables) {
  for (const char* scheme : {"implicit_euler", "implicit_midpoint"}) {
    SCOPED_TRACE(scheme);
    expect_derivatives_match_differences(scene,
                                         {"duration=0.3", std::string("integrator.type=") + scheme,
                                          "integrator.newton.force_tolerance=1e-14"},
                                         keys, values, observables);
  }
}

TEST_F(SceneGradientFit, CantileverKeysAgainstWholeRunDifferences) {
  expect_both_schemes_match_differences(
      write("cantilever.yaml", kCantilever),
      {"rods[0].material.E", "rods[0].material.density", "rods[0].material.radius"},
      {1e7, 1273.52, 5e-3},
      {"rods[0].nodes[10].z@0.3", "rods[0].nodes[10].y@0.3", "rods[0].nodes[6].x@0.15"});
}

TEST_F(SceneGradientFit, ShellStripKeysAgainstWholeRunDifferences) {
  const fs::path scene = write("strip.yaml", kStrip);
  expect_derivatives_match_differences(
      scene, {"integrator.newton.force_tolerance=1e-14"},
      {"shells[0].material.thickness", "shells[0].material.E", "shells[0].material.density"},
      {2e-3, 1e6, 1000.0}, {"shells[0].nodes[17].z@0.08", "shells[0].nodes[11].z@0.04"});
}

/// The strip's Poisson ratio, which its CST moduli and bending stiffnesses (and the mid-edge
/// metric) read through 1/(1 + nu), nu/(1 - nu^2) and 1/(1 - nu^2): moved along their tangent,
/// where the residual is affine with hinges and a quadratic with mid-edge bending (stiffness times
/// metric), before the thickness, which reloads the scene.
TEST_F(SceneGradientFit, ShellStripPoissonRatioAgainstWholeRunDifferences) {
  for (const char* bending : {"midedge", "hinge"}) {
    SCOPED_TRACE(bending);
    std::string text = kStrip;
    text.replace(text.find("midedge"), 7, bending);
    const fs::path scene = write("strip.yaml", text);
    expect_derivatives_match_differences(
        scene, {"integrator.newton.force_tolerance=1e-14"},
        {"shells[0].material.nu", "shells[0].material.thickness"}, {0.3, 2e-3},
        {"shells[0].nodes[17].z@0.08", "shells[0].nodes[11].z@0.04"});
  }
}

/// The scene's kinetic and elastic energies as observables: their derivatives hold the energies'
/// own dependence on the keys (the masses a density or a radius sets, the stiffnesses E, a radius
/// or a thickness sets, the Poisson ratio's along its tangent) besides the path through the
/// states, against whole scene-run differences, for the forward sensitivities (implicit Euler) and
/// the adjoint (implicit midpoint).
TEST_F(SceneGradientFit, EnergiesAgainstWholeRunDifferences) {
  expect_both_schemes_match_differences(
      write("cantilever.yaml", kCantilever),
      {"rods[0].material.E", "rods[0].material.density", "rods[0].material.radius"},
      {1e7, 1273.52, 5e-3}, {"kinetic_energy@0.15", "elastic_energy@0.3", "kinetic_energy@0.3"});
  const fs::path strip = write("strip.yaml", kStrip);
  expect_derivatives_match_differences(strip, {"integrator.newton.force_tolerance=1e-14"},
                                       {"shells[0].material.nu", "shells[0].material.thickness",
                                        "shells[0].material.E", "shells[0].material.density"},
                                       {0.3, 2e-3, 1e6, 1000.0},
                                       {"elastic_energy@0.08", "kinetic_energy@0.04"});
}

/// Components of [x, y, z] keys as fitted keys (forces.gravity[i], forces.point_loads[j].force[i],
/// forces.point_moments[j].moment[i], forces.surface_loads[j].load[i]): the cantilever with a dead
/// moment on its last edge and the strip under a surface load, against whole scene-run differences.
/// The moment's twist component M . t acts on the twist DOF without the frame's holonomy in its
/// position rows: with it taken as part of dE/dphi, every derivative of this run was off (E's by 2
/// %, the moment's by up to 29 %).
TEST_F(SceneGradientFit, LoadComponentsAgainstWholeRunDifferences) {
  std::string text = kCantilever;
  text.replace(text.find("  point_loads:"), 0,
               "  point_moments: [{rod: 0, edge: -1, moment: [1.0e-3, 0, 2.0e-3]}]\n");
  expect_both_schemes_match_differences(
      write("cantilever.yaml", text),
      {"forces.gravity[2]", "forces.point_loads[0].force[1]", "forces.point_moments.0.moment.0",
       "forces.point_moments[0].moment[2]", "rods[0].material.E"},
      {-9.81, 0.02, 1e-3, 2e-3, 1e7},
      {"rods[0].nodes[10].z@0.3", "rods[0].nodes[10].y@0.3", "rods[0].nodes[8].x@0.2",
       "elastic_energy@0.3"});
  std::string strip = kStrip;
  strip.replace(
      strip.find("forces: {gravity: [0, 0, -9.81]}"), 32,
      "forces:\n  gravity: [0, 0, -9.81]\n  surface_loads: [{shell: 0, load: [0, 2, -5]}]");
  expect_derivatives_match_differences(
      write("strip.yaml", strip), {"integrator.newton.force_tolerance=1e-14"},
      {"forces.surface_loads[0].load[2]", "forces.surface_loads[0].load[1]", "forces.gravity[2]"},
      {-5.0, 2.0, -9.81}, {"shells[0].nodes[17].z@0.08", "shells[0].nodes[17].y@0.08"});
}

/// The robot's efficiency eta = 6 C1 |v| / (8 C2 a omega_h) (eq. 18) as an observable: its
/// derivative by the chain rule from those of v and omega_h, plus its explicit dependence on C1 and
/// C2, against whole scene-run differences over 1 s of the two-tailed robot at 150 rpm (implicit
/// Euler, the forward sensitivities).
TEST_F(SceneGradientFit, RobotEfficiencyAgainstWholeRunDifferences) {
  const fs::path scene = write("robot.yaml",
                               "duration: 1\nflagellated_robot: {tails: 2, motor_rpm: 150}\n"
                               "integrator: {type: implicit_euler, dt: 0.01}\n");
  expect_derivatives_match_differences(scene, {"integrator.newton.force_tolerance=1e-14"},
                                       {"flagellated_robot.C1", "flagellated_robot.C2",
                                        "flagellated_robot.mu", "flagellated_robot.motor_rpm"},
                                       {2.42, 0.039, 6.828, 150.0},
                                       {"efficiency", "speed", "head_rotation_rate"});
}

/// The robot by the midpoint rule (the adjoint) over 1 s of the two-tailed robot at 150 rpm. At a
/// Newton tolerance of 1e-14, below the round-off floor of some of its steps, a step now and then
/// fails and is halved: the differentiated run takes the scene's steps (each ending at k dt) and
/// halves the same ones, so its speed and head rotation rate are the scene run's at C2 and at
/// C2 (1 +- 10^-j), the points of its central differences. At 1e-10 no step is halved and the
/// derivatives in C1, C2, mu and the motor's rate match whole scene-run differences.
TEST_F(SceneGradientFit, RobotMidpointRunIsTheScenesRun) {
  const fs::path scene = write("robot.yaml",
                               "duration: 1\nflagellated_robot: {tails: 2, motor_rpm: 150}\n"
                               "integrator: {type: implicit_midpoint, dt: 0.01}\n");
  const std::vector<std::string> observables{"speed", "head_rotation_rate"};
  for (double factor : {1.0, 1.01, 0.99, 1.001, 0.999, 1.0001, 0.9999}) {
    const RunSettings at{"integrator.newton.force_tolerance=1e-14",
                         parameter_setting("flagellated_robot.C2", 0.039 * factor)};
    const RunOutcome d =
        run_scene_with_derivatives(scene, at, {"flagellated_robot.C2"}, observables);
    ASSERT_TRUE(d.ok) << d.message;
    const RunOutcome plain = run_scene(scene, at, observables);
    ASSERT_TRUE(plain.ok) << plain.message;
    for (std::size_t k = 0; k < observables.size(); ++k)
      EXPECT_NEAR(d.values[k], plain.values[k], 1e-12 * (1.0 + std::abs(plain.values[k])))
          << observables[k] << " at C2 = " << 0.039 * factor;
  }
  expect_derivatives_match_differences(scene, {"integrator.newton.force_tolerance=1e-10"},
                                       {"flagellated_robot.C1", "flagellated_robot.C2",
                                        "flagellated_robot.mu", "flagellated_robot.motor_rpm"},
                                       {2.42, 0.039, 6.828, 150.0},
                                       {"efficiency", "speed", "head_rotation_rate"});
}

/// The cantilever by implicit Euler (the forward sensitivities) over 0.37 s, 37 steps of 0.01 s
/// whose scene times k dt and duration are not sums of steps of dt in binary: the differentiated
/// run takes the scene's steps (each ending at k dt, the last at the duration), so its node
/// positions are the scene run's bitwise (with steps of exactly dt they differed by up to 7e-16 m),
/// and its derivatives in E, the density and the tip load match whole scene-run differences.
TEST_F(SceneGradientFit, CantileverEulerRunIsTheScenesRun) {
  const fs::path scene = write("cantilever.yaml", kCantilever);
  const RunSettings settings{"duration=0.37", "integrator.newton.force_tolerance=1e-14"};
  const std::vector<std::string> keys{"rods[0].material.E", "rods[0].material.density",
                                      "forces.point_loads[0].force[1]"};
  const std::vector<double> values{1e7, 1273.52, 0.02};
  const std::vector<std::string> observables{"rods[0].nodes[10].z@0.37", "rods[0].nodes[10].y@0.37",
                                             "rods[0].nodes[6].x@0.23"};
  const RunSettings at = settings_at(settings, keys, values, keys.size(), 0.0);
  const RunOutcome d = run_scene_with_derivatives(scene, at, keys, observables);
  ASSERT_TRUE(d.ok) << d.message;
  const RunOutcome plain = run_scene(scene, at, observables);
  ASSERT_TRUE(plain.ok) << plain.message;
  for (std::size_t k = 0; k < observables.size(); ++k)
    EXPECT_EQ(d.values[k], plain.values[k]) << observables[k];
  expect_derivatives_match_differences(scene, settings, keys, values, observables);
}

/// Writes the synthetic measurements (the truth's observables plus Gaussian noise of `sigma`,
/// std::mt19937 seeded 25) and the fit file of `method`; returns the fit file.
fs::path write_fit(const fs::path& scene, const std::vector<std::string>& observables, double sigma,
                   const std::string& parameters, const std::string& method) {
  const RunOutcome truth = run_scene(scene, {}, observables);
  EXPECT_TRUE(truth.ok) << truth.message;
  std::mt19937 random(25);
  std::normal_distribution<double> noise(0.0, sigma);
  std::string header, row, columns;
  for (std::size_t k = 0; k < observables.size(); ++k) {
    const char* comma = k ? "," : "";
    header += fmt::format("{}m{}", comma, k);
    row += fmt::format("{}{:.12g}", comma, truth.values[k] + noise(random));
    columns += fmt::format("    - {{column: m{}, observable: '{}', sigma: {}}}\n", k,
                           observables[k], sigma);
  }
  std::ofstream(scene.parent_path() / "data.csv") << header << "\n" << row << "\n";
  const fs::path fit = scene.parent_path() / (method + ".yaml");
  std::ofstream(fit) << "scene: " << scene.filename().string() << "\nmethod: " << method
                     << "\nparameters:\n"
                     << parameters << "data:\n  csv: data.csv\n  observables:\n"
                     << columns;
  return fit;
}

FitReport fit(const fs::path& file_path) {
  const FitFile file = read_fit_file(file_path);
  FitContext context;
  context.evaluate = thread_pool_evaluator(file.scene, file.data.observables, 1);
  context.jobs = 1;
  return fit_method(file.method).run(file, context);
}

/// Both methods' estimates: converged, the same to 1 % of sigma (and the same sigma).
void expect_same_estimate(const FitReport& fd, const FitReport& adjoint) {
  ASSERT_TRUE(fd.converged) << fd.message;
  ASSERT_TRUE(adjoint.converged) << adjoint.message;
  for (Eigen::Index j = 0; j < fd.values.size(); ++j) {
    std::printf("%s: finite differences %.9g +- %.3g (%ld runs), adjoint %.9g +- %.3g (%ld runs)\n",
                fd.names[static_cast<std::size_t>(j)].c_str(), fd.values[j], fd.sigma[j], fd.runs,
                adjoint.values[j], adjoint.sigma[j], adjoint.runs);
    EXPECT_LT(std::abs(adjoint.values[j] - fd.values[j]), 1e-2 * fd.sigma[j]);
    EXPECT_NEAR(adjoint.sigma[j], fd.sigma[j], 1e-2 * fd.sigma[j]);
  }
}

/// The fit by finite_difference_lm and by adjoint_lm (expect_same_estimate); returns adjoint_lm's.
FitReport fit_both_ways(const fs::path& scene, const std::vector<std::string>& observables,
                        double sigma, const std::string& parameters) {
  const FitReport fd =
      fit(write_fit(scene, observables, sigma, parameters, "finite_difference_lm"));
  FitReport adjoint = fit(write_fit(scene, observables, sigma, parameters, "adjoint_lm"));
  expect_same_estimate(fd, adjoint);
  return adjoint;
}

TEST_F(SceneGradientFit, CantileverModulusAndDensityFromTipPositions) {
  const fs::path scene = write("cantilever.yaml", kCantilever);
  std::vector<std::string> observables;
  for (int k = 1; k <= 6; ++k)
    for (const char* axis : {"y", "z"})
      observables.push_back(fmt::format("rods[0].nodes[10].{}@{:g}", axis, 0.1 * k));
  const std::string parameters =
      "  - {key: rods.0.material.E, initial: 1.6e7, lower: 1e6, upper: 1e8}\n"
      "  - {key: rods.0.material.density, initial: 900, lower: 100, upper: 1e4}\n";
  const double sigma = 2e-3;  // [m]
  const FitReport adjoint = fit_both_ways(scene, observables, sigma, parameters);
  const double truth[] = {1e7, 1273.52};
  for (Eigen::Index j = 0; j < 2; ++j) {
    EXPECT_LT(std::abs(adjoint.values[j] - truth[j]), 4.0 * adjoint.sigma[j])
        << adjoint.names[static_cast<std::size_t>(j)];
    EXPECT_LT(adjoint.sigma[j], 0.1 * truth[j])
        << "the data determine " << adjoint.names[static_cast<std::size_t>(j)];
  }
}

TEST_F(SceneGradientFit, ShellStripThicknessFromCornerHeights) {
  const fs::path scene = write("strip.yaml", kStrip);
  std::vector<std::string> observables;
  for (int k = 1; k <= 4; ++k)
    observables.push_back(fmt::format("shells[0].nodes[17].z@{:g}", 0.02 * k));
  const std::string parameters =
      "  - {key: 'shells[0].material.thickness', initial: 3.0e-3, lower: 1e-3, upper: 1e-2}\n";
  const double sigma = 2e-4;  // [m]
  const FitReport adjoint = fit_both_ways(scene, observables, sigma, parameters);
  EXPECT_LT(std::abs(adjoint.values[0] - 2e-3), 4.0 * adjoint.sigma[0]);
}

TEST_F(SceneGradientFit, CantileverTipLoadFromTipPositions) {
  const fs::path scene = write("cantilever.yaml", kCantilever);
  std::vector<std::string> observables;
  for (int k = 1; k <= 6; ++k)
    observables.push_back(fmt::format("rods[0].nodes[10].y@{:g}", 0.1 * k));
  const std::string parameters =
      "  - {key: 'forces.point_loads[0].force[1]', initial: 0.05, lower: -1, upper: 1}\n";
  const double sigma = 2e-3;  // [m]
  const FitReport adjoint = fit_both_ways(scene, observables, sigma, parameters);
  EXPECT_LT(std::abs(adjoint.values[0] - 0.02), 4.0 * adjoint.sigma[0]);
  EXPECT_LT(adjoint.sigma[0], 0.2 * 0.02) << "the data determine the load";
}

/// A quasi-static cantilever (integrator.type static: a static solve at t = 0.1 and 0.2 s) of
/// `nodes` nodes (L 1 m, r 5 mm, E 1e7 Pa, clamped at x = 0) under a tip load growing from 0 at
/// t = 0 to (0, 2e-6, -2e-5) N at 0.2 s, and `gravity`.
std::string static_cantilever(int nodes, const std::string& gravity) {
  return fmt::format(R"(duration: 0.2
rods:
  - geometry: {{type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 1.0, num_nodes: {}}}
    clamp: start
    material: {{E: 1.0e7, nu: 0.5, density: 1273.52, radius: 0.005}}
forces:
  gravity: {}
  point_loads: [{{rod: 0, node: -1, table: [[0, 0, 0, 0], [0.2, 0, 2.0e-6, -2.0e-5]]}}]
integrator: {{type: static, dt: 0.1}}
)",
                     nodes, gravity);
}

/// Quasi-static scenes are differentiated by the adjoint of their equilibria: the sagging
/// cantilever's E, density (its weight), radius and gravity over two load steps (node coordinates,
/// and the elastic energy: the path through the equilibria's node positions plus its explicit
/// dependence on the keys), and the one solve
/// of a static scene of duration 0 with a constant tip load, against whole scene-run differences.
TEST_F(SceneGradientFit, QuasiStaticKeysAgainstWholeRunDifferences) {
  const fs::path scene = write("static.yaml", static_cantilever(11, "[0, 0, -0.5]"));
  const std::vector<std::string> tight{"integrator.newton.force_tolerance=1e-14"};
  expect_derivatives_match_differences(
      scene, tight,
      {"rods[0].material.E", "rods[0].material.density", "rods[0].material.radius",
       "forces.gravity[2]"},
      {1e7, 1273.52, 5e-3, -0.5},
      {"rods[0].nodes[10].z@0.1", "rods[0].nodes[10].y@0.2", "rods[0].nodes[5].z@0.2"});
  // the elastic energy at the equilibria, bent out of the plane by gravity's y component
  expect_derivatives_match_differences(
      write("static_y.yaml", static_cantilever(11, "[0, 0.3, -0.5]")), tight,
      {"rods[0].material.E", "rods[0].material.density", "rods[0].material.radius",
       "forces.gravity[2]", "forces.gravity[1]"},
      {1e7, 1273.52, 5e-3, -0.5, 0.3}, {"elastic_energy@0.1", "elastic_energy@0.2"});
  std::string one = static_cantilever(11, "[0, 0, -0.5]");
  one.replace(one.find("duration: 0.2"), 13, "duration: 0");
  one.replace(one.find("table: [[0, 0, 0, 0], [0.2, 0, 2.0e-6, -2.0e-5]]"), 48,
              "force: [0, 2.0e-6, -2.0e-5]");
  expect_derivatives_match_differences(
      write("one_solve.yaml", one), tight,
      {"rods[0].material.E", "forces.point_loads[0].force[2]", "forces.gravity[2]"},
      {1e7, -2e-5, -0.5}, {"rods[0].nodes[10].z@0", "rods[0].nodes[7].y@0"});
}

/// The elastic energy of a quasi-static scene is differentiated without point moments (at
/// equilibrium its gradient on the twists balances them): with one, it is refused naming the
/// observable.
TEST_F(SceneGradientFit, QuasiStaticElasticEnergyWithAPointMomentIsRefused) {
  std::string moment = static_cantilever(11, "[0, 0, -0.5]");
  moment.replace(moment.find("  point_loads:"), 0,
                 "  point_moments: [{rod: 0, edge: -1, moment: [1.0e-6, 0, 0]}]\n");
  const RunOutcome o =
      run_scene_with_derivatives(write("moment.yaml", moment), {"rods[0].material.E=1e7"},
                                 {"rods[0].material.E"}, {"elastic_energy@0.2"});
  EXPECT_FALSE(o.ok);
  for (const char* part : {"elastic_energy@0.2", "without point moments"})
    EXPECT_NE(o.message.find(part), std::string::npos) << o.message << " lacks " << part;
}

/// E of a quasi-static cantilever (41 nodes, no gravity) from the Euler-Bernoulli deflections
/// w(x) = F x^2 (3 L - x) / (6 E I), I = pi r^4 / 4, of its tip load at 0.1 and 0.2 s (a tenth of a
/// millimetre at the tip, so the rod bends linearly) at x = 0.25, 0.5, 0.75, 1 m plus Gaussian
/// noise of 1 % of the largest (std::mt19937 seeded 25): E recovered within 2 sigma, sigma below
/// 1 %, the same estimate by finite_difference_lm. The rod's own discretization error (the tip's
/// deflection 1.6e-4, x = 0.5 m's 6.6e-4 below the closed form) is below the data's resolution.
TEST_F(SceneGradientFit, QuasiStaticCantileverModulusFromClosedFormDeflections) {
  const fs::path scene = write("static.yaml", static_cantilever(41, "[0, 0, 0]"));
  const double E = 1e7, I = M_PI * std::pow(5e-3, 4) / 4.0, sigma = 0.01 * 2e-5 / (3.0 * E * I);
  std::mt19937 random(25);
  std::normal_distribution<double> noise(0.0, sigma);
  std::string header, row, columns;
  for (int k = 1; k <= 2; ++k)
    for (int j = 10; j <= 40; j += 10) {
      const double F = -1e-5 * k, x = 0.025 * j;
      const double w = F * x * x * (3.0 - x) / (6.0 * E * I) + noise(random);
      const char* comma = header.empty() ? "" : ",";
      header += fmt::format("{}w{}_{}", comma, k, j);
      row += fmt::format("{}{:.12g}", comma, w);
      columns += fmt::format(
          "    - {{column: w{}_{}, observable: 'rods[0].nodes[{}].z@{:g}', "
          "sigma: {:.6g}}}\n",
          k, j, j, 0.1 * k, sigma);
    }
  std::ofstream(dir_ / "data.csv") << header << "\n" << row << "\n";
  std::vector<FitReport> reports;
  for (const char* method : {"finite_difference_lm", "adjoint_lm"}) {
    std::ofstream(dir_ / "fit.yaml")
        << "scene: static.yaml\nmethod: " << method
        << "\nparameters:\n  - {key: rods.0.material.E, initial: 2.0e7, lower: 1e6, upper: 1e8}\n"
        << "data:\n  csv: data.csv\n  observables:\n"
        << columns;
    reports.push_back(fit(dir_ / "fit.yaml"));
  }
  expect_same_estimate(reports[0], reports[1]);
  const FitReport& adjoint = reports[1];
  std::printf("E = %.6g +- %.3g Pa (%.2f sigma from the truth), %ld runs\n", adjoint.values[0],
              adjoint.sigma[0], (adjoint.values[0] - E) / adjoint.sigma[0], adjoint.runs);
  EXPECT_LT(std::abs(adjoint.values[0] - E), 2.0 * adjoint.sigma[0]);
  EXPECT_LT(adjoint.sigma[0], 0.01 * E);
}

/// A rod's radius is differentiated only where the residual is a polynomial in it: with viscous
/// drag in the scene, adjoint_lm refuses it naming the key and the term.
TEST_F(SceneGradientFit, RadiusInAMediumIsRefused) {
  std::string text = kCantilever;
  text.replace(text.find("forces:\n"), 8, "forces:\n  viscous_drag: [{viscosity: 0.1}]\n");
  const fs::path scene = write("cantilever.yaml", text);
  const RunOutcome o =
      run_scene_with_derivatives(scene, {"rods[0].material.radius=0.005"},
                                 {"rods[0].material.radius"}, {"rods[0].nodes[10].z@0.3"});
  EXPECT_FALSE(o.ok);
  for (const char* part : {"rods[0].material.radius", "without contact or media", "viscous_drag"})
    EXPECT_NE(o.message.find(part), std::string::npos) << o.message << " lacks " << part;
}

/// The tangent of a shell's Poisson ratio is that of the material's laws on every shell element:
/// with two shells, or a hinge stiffness set (which does not follow nu), adjoint_lm refuses it
/// naming the key.
TEST_F(SceneGradientFit, PoissonRatioIsRefusedWhereItsTangentIsNotTheScenes) {
  const std::string clamp = "    clamp: {side: x_min, rows: 2}\n";
  std::string two_shells = kStrip;
  two_shells.insert(
      two_shells.find(clamp) + clamp.size(),
      "  - geometry: {type: rectangle, length: 0.1, width: 0.03, nodes_x: 6, nodes_y: 3}\n"
      "    material: {E: 1.0e6, nu: 0.4, density: 1000, thickness: 0.002}\n");
  std::string set_hinges = kStrip;
  set_hinges.replace(set_hinges.find("bending: midedge"), 16,
                     "bending: hinge\n    hinge_stiffness: 1.0e-3");
  for (const std::string& text : {two_shells, set_hinges}) {
    const fs::path scene = write("strips.yaml", text);
    const RunOutcome o =
        run_scene_with_derivatives(scene, {"shells[0].material.nu=0.3"}, {"shells[0].material.nu"},
                                   {"shells[0].nodes[17].z@0.08"});
    EXPECT_FALSE(o.ok);
    for (const char* part : {"shells[0].material.nu", "one shell whose hinge_stiffness"})
      EXPECT_NE(o.message.find(part), std::string::npos) << o.message << " lacks " << part;
  }
}

}  // namespace
}  // namespace tendril::fit
