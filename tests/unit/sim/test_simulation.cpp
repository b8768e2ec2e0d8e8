// The Simulation facade: step counts, energies by term, run directories on success and failure.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

namespace fs = std::filesystem;

RodScene load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_rod_scene_text(text, overrides, "test.yaml");
}

const std::string kCantilever =
    "duration: 0.0105\n"
    "rods:\n"
    "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 11}\n"
    "    clamp: start\n"
    "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
    "forces: {gravity: [0, 0, -9.81]}\n"
    "integrator: {type: implicit_euler, dt: 0.001}\n"
    "output: {every_steps: 4}\n";

fs::path scratch(const std::string& name) {
  return testing::scratch_dir("sim_run") / name;
}

TEST(Simulation, StepsFramesAndArrays) {
  Simulation sim{load(kCantilever)};
  EXPECT_EQ(sim.total_steps(), 11);  // ceil(0.0105 / 0.001), the last step shortened to end at T
  const fs::path out = scratch("cantilever");
  long calls = 0;
  const RunResult r = sim.run(out, [&](const Progress& p) { calls = p.step; });
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(calls, 11);
  EXPECT_NEAR(sim.state().time, 0.0105, 1e-15);
  // frames: initial, steps 4 and 8, and the last
  EXPECT_EQ(r.frames, 4);
  const io::NpyArray x = io::read_npy(out / "positions.npy");
  EXPECT_EQ(x.shape, (std::vector<std::size_t>{4, 11, 3}));
  EXPECT_EQ(io::read_npy(out / "twists.npy").shape, (std::vector<std::size_t>{4, 10}));
  const io::NpyArray t = io::read_npy(out / "frame_time.npy");
  EXPECT_NEAR(t.data[1], 0.004, 1e-15);
  EXPECT_NEAR(t.data[3], 0.0105, 1e-15);
  const io::NpyArray dt = io::read_npy(out / "step_dt.npy");
  ASSERT_EQ(dt.shape, (std::vector<std::size_t>{11}));
  EXPECT_NEAR(dt.data[10], 0.0005, 1e-12);
  // the tip falls
  EXPECT_LT(x.data[3 * 11 * 3 + 3 * 10 + 2], 0.0);
  // energy terms are named by the terms
  const auto e = sim.energies();
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].first, "stretch");
  EXPECT_EQ(e[2].first, "gravity");
  EXPECT_EQ(e[3].first, "kinetic");
  EXPECT_LT(e[2].second, 0.0);
  EXPECT_GT(e[3].second, 0.0);
}

TEST(Simulation, FailedStepKeepsPartialRunAsFailed) {
  // one Newton iteration without line search cannot converge a large step: the run must fail
  // cleanly
  Simulation sim{
      load(kCantilever, {"integrator.newton.max_iterations=1", "integrator.max_dt_halvings=0",
                         "integrator.dt=0.01", "duration=0.05"})};
  const fs::path out = scratch("failing");
  fs::create_directories(out);
  // an earlier run (its run.json lists its files)
  std::ofstream(out / "run.json")
      << "{\"format\": \"tendril-run\", \"files\": [\"previous\", \"run.json\"]}\n";
  std::ofstream(out / "previous") << "kept";
  const RunResult r = sim.run(out);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.message.find("max_iterations"), std::string::npos) << r.message;
  EXPECT_EQ(r.path.filename().string(), "failing.failed");
  EXPECT_TRUE(fs::exists(out / "previous"));
  std::ifstream meta(r.path / "run.json");
  std::stringstream text;
  text << meta.rdbuf();
  EXPECT_NE(text.str().find("\"status\": \"failed\""), std::string::npos);
  // the failed step is recorded with a non-zero status and no stopping criterion; the steps before
  // it converged by one of the two criteria
  const io::NpyArray status = io::read_npy(r.path / "step_status.npy");
  const io::NpyArray criterion = io::read_npy(r.path / "step_criterion.npy");
  ASSERT_GE(status.size(), 1u);
  ASSERT_EQ(criterion.size(), status.size());
  EXPECT_NE(status.data.back(), 0.0);
  EXPECT_EQ(criterion.data.back(), static_cast<double>(StopCriterion::none));
  for (std::size_t k = 0; k + 1 < criterion.size(); ++k)
    EXPECT_NE(criterion.data[k], 0.0) << "step " << k;
}

TEST(Simulation, StaticSolveOnce) {
  Simulation sim{
      load(kCantilever, {"integrator.type=static", "duration=0", "rods.0.material.E=1e9"})};
  EXPECT_EQ(sim.total_steps(), 1);
  const StepReport rep = sim.step();
  ASSERT_TRUE(rep.ok()) << rep.message;
  EXPECT_TRUE(sim.finished());
  // small deflection (q L^3 / EI ~ 2e-3): tip deflection close to Euler-Bernoulli q L^4 / (8 EI)
  const double r = 0.005, A = 3.141592653589793 * r * r, I = A * r * r / 4, q = 1000 * A * 9.81,
               L = 0.5;
  const double w = q * L * L * L * L / (8 * 1e9 * I);
  EXPECT_NEAR(sim.state().q[3 * 10 + 2], -w, 0.05 * w);
}

}  // namespace
}  // namespace tendril::sim

namespace tendril::sim {
namespace {

TEST(Simulation, StaticClampTurningAlmostHalfATurnInOneSolveStaysRigid) {
  // a weightless rod whose clamp turns by 3.1 rad about z in one quasi-static solve: the
  // equilibrium is the rigidly turned rod; the solver must carry the clamp along its rotation (a
  // straight-line path of the clamped nodes shortens the clamped edge almost to zero, and failed
  // here)
  Simulation sim{
      load("duration: 1.0\n"
           "rods:\n"
           "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 11}\n"
           "    clamp: start\n"
           "    clamp_motion: {angular_velocity: [0, 0, 3.1]}\n"
           "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
           "integrator: {type: static, dt: 1.0}\n")};
  const StepReport report = sim.step();
  ASSERT_TRUE(report.ok()) << report.message;
  const int tip = sim.model().dofs.num_nodes - 1;
  const Vec3 x = sim.state().q.segment<3>(3 * tip);
  EXPECT_NEAR(x.x(), 0.5 * std::cos(3.1), 1e-6);
  EXPECT_NEAR(x.y(), 0.5 * std::sin(3.1), 1e-6);
  EXPECT_NEAR(x.z(), 0.0, 1e-9);
}

TEST(Simulation, InitialVelocitiesAndTwistRates) {
  // a free rod without loads keeps its initial velocity and twist rate (no strain arises from a
  // uniform translation and spin): x(T) = x(0) + v T, theta(T) = theta(0) + omega T
  const std::string scene =
      "duration: 0.05\n"
      "rods:\n"
      "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 6}\n"
      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
      "initial_conditions:\n"
      "  velocities: [{velocity: [0.1, 0.2, -0.3]}]\n"
      "  twists: [{angle: 0.25, rate: 4.0}]\n"
      "integrator: {type: implicit_euler, dt: 0.01}\n";
  Simulation sim{load(scene)};
  const VecX q0 = sim.state().q;
  const DofMap& dofs = sim.model().dofs;
  for (int e = 0; e < dofs.num_edges; ++e) {
    EXPECT_EQ(q0[dofs.twist(e)], 0.25);
    EXPECT_EQ(sim.state().u[dofs.twist(e)], 4.0);
  }
  ASSERT_TRUE(sim.run("").ok);
  const VecX& q = sim.state().q;
  for (int i = 0; i < dofs.num_nodes; ++i)
    EXPECT_LE(
        (q.segment<3>(dofs.node(i)) - q0.segment<3>(dofs.node(i)) - 0.05 * Vec3(0.1, 0.2, -0.3))
            .norm(),
        1e-12);
  for (int e = 0; e < dofs.num_edges; ++e) EXPECT_NEAR(q[dofs.twist(e)], 0.25 + 0.05 * 4.0, 1e-12);
}

TEST(Simulation, InitialConditionsSelectNodesAndEdges) {
  const std::string base =
      "duration: 0.01\n"
      "rods:\n"
      "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 6}\n"
      "    clamp: start\n"
      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n";
  const RodScene s =
      load(base +
           "initial_conditions:\n  velocities: [{nodes: [-1], velocity: [0, 0, 2]}]\n"
           "  twists: [{edges: [2, -1], angle: 0.1}]\n");
  const DofMap& dofs = s.model.dofs;
  for (int i = 0; i < dofs.num_nodes; ++i)
    EXPECT_EQ(s.u_initial[dofs.node(i) + 2], i == 5 ? 2.0 : 0.0);
  for (int e = 0; e < dofs.num_edges; ++e)
    EXPECT_EQ(s.q_initial[dofs.twist(e)], e == 2 || e == 4 ? 0.1 : 0.0);
  // velocities and twist rates on fixed DOFs, and velocities in a static scene, are input errors
  testing::expect_input_error(
      [&] {
        load(base + "initial_conditions: {velocities: [{nodes: [1], velocity: [0, 1, 0]}]}\n");
      },
      {"initial_conditions.velocities[0].velocity", "fixed DOFs"});
  testing::expect_input_error(
      [&] { load(base + "initial_conditions: {twists: [{edges: [0], rate: 1}]}\n"); },
      {"initial_conditions.twists[0].rate", "fixed twists"});
  testing::expect_input_error(
      [&] {
        load(base + "initial_conditions: {velocities: [{nodes: [9], velocity: [0, 1, 0]}]}\n");
      },
      {"initial_conditions.velocities[0].nodes[0]", "9"});
  testing::expect_input_error(
      [&] {
        load(base +
             "integrator: {type: static}\ninitial_conditions: {twists: [{rate: 1, edges: [3]}]}\n");
      },
      {"initial_conditions", "integrator.type static"});
}

TEST(Simulation, SavedVelocitiesAreTheImplicitEulerDifferencesOfThePositions) {
  // implicit Euler: x_{k+1} = x_k + dt u_{k+1}, so with every step saved u_k = (x_k - x_{k-1}) / dt
  Simulation sim{load(kCantilever, {"output.every_steps=1", "duration=0.005"})};
  const fs::path out = scratch("velocities");
  ASSERT_TRUE(sim.run(out).ok);
  const io::NpyArray x = io::read_npy(out / "positions.npy"),
                     u = io::read_npy(out / "velocities.npy");
  ASSERT_EQ(u.shape, (std::vector<std::size_t>{6, 11, 3}));
  for (std::size_t j = 0; j < 33; ++j) EXPECT_EQ(u.data[j], 0.0);  // starts at rest
  double largest = 0;
  for (std::size_t k = 1; k < 6; ++k)
    for (std::size_t j = 0; j < 33; ++j) {
      const double difference = (x.data[33 * k + j] - x.data[33 * (k - 1) + j]) / 0.001;
      EXPECT_NEAR(u.data[33 * k + j], difference, 1e-9 * std::abs(difference) + 1e-12);
      largest = std::max(largest, std::abs(difference));
    }
  EXPECT_GT(largest, 1e-3);  // the rod moves: the comparison is not between zeros
  fs::remove_all(out);
}

TEST(Simulation, SavedContactForcesCarryTheWeightOfARodAtRestOnTheGround) {
  // a rod laid flat above the ground settles (implicit Euler damps it); at rest the ground carries
  // its weight: the contact forces on its nodes sum to rho pi r^2 L g upward, with no net sideways
  // force
  const std::string scene =
      "duration: 2.0\n"
      "rods:\n"
      "  - geometry: {type: straight, start: [0, 0, 0.0025], end: [0.1, 0, 0.0025], num_nodes: "
      "11}\n"
      "    material: {E: 2.0e6, nu: 0.3, density: 1500, radius: 0.001}\n"
      "forces: {gravity: [0, 0, -9.8]}\n"
      "contact: {stiffness: 20, distance_tolerance: 2.0e-3, ground: {friction: 0.25}}\n"
      "integrator: {type: implicit_euler, dt: 1.0e-2}\n"
      "output: {interval: 0.5}\n";
  Simulation sim{load(scene)};
  const fs::path out = scratch("contact_forces");
  ASSERT_TRUE(sim.run(out).ok);
  const io::NpyArray f = io::read_npy(out / "contact_forces.npy"),
                     u = io::read_npy(out / "velocities.npy");
  ASSERT_EQ(f.shape, (std::vector<std::size_t>{5, 11, 3}));
  const double weight = 1500 * std::numbers::pi * 1e-6 * 0.1 * 9.8;
  Vec3 total = Vec3::Zero();
  double speed = 0;
  for (std::size_t i = 0; i < 11; ++i)
    for (int c = 0; c < 3; ++c) {
      total[c] += f.data[4 * 33 + 3 * i + c];
      speed = std::max(speed, std::abs(u.data[4 * 33 + 3 * i + c]));
    }
  EXPECT_LT(speed, 1e-6);  // at rest
  EXPECT_NEAR(total.z(), weight, 1e-6 * weight);
  EXPECT_NEAR(total.x(), 0.0, 1e-9 * weight);
  EXPECT_NEAR(total.y(), 0.0, 1e-9 * weight);
  fs::remove_all(out);
}

TEST(Simulation, ReactionsBalanceTheLoads) {
  // statics of the whole rod: the supports' forces balance gravity and the tip load, sum R = -(m g
  // + P); the clamp's twist reaction is zero for loads in the rod's plane. Written per frame to the
  // run directory.
  const std::string scene =
      "duration: 0\n"
      "rods:\n"
      "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.5, num_nodes: 11}\n"
      "    clamp: start\n"
      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
      "forces:\n  gravity: [0, 0, -9.81]\n  point_loads: [{node: -1, force: [0.002, 0, -0.01]}]\n"
      "integrator: {type: static}\n";
  Simulation sim{load(scene)};
  const fs::path out = scratch("reactions");
  const io::RunResult result = sim.run(out);
  ASSERT_TRUE(result.ok) << result.message;
  const std::vector<int>& dofs = sim.reaction_dofs();
  ASSERT_EQ(dofs, (std::vector<int>{0, 1, 2, 3, 4, 5, 3 * 11}));
  const VecX r = sim.reactions();
  const double mass = sim.model().mass.head(3 * 11).sum() / 3.0;
  Vec3 total = Vec3::Zero();
  for (int k = 0; k < 6; ++k) total[k % 3] += r[k];
  EXPECT_LE((total - (-Vec3(0.002, 0.0, -0.01) + mass * Vec3(0, 0, 9.81))).norm(), 1e-9);
  EXPECT_NEAR(r[6], 0.0, 1e-12);
  const io::NpyArray saved = io::read_npy(out / "reactions.npy");
  ASSERT_EQ(saved.shape, (std::vector<std::size_t>{2, 7}));  // frames: t = 0 and the solution
  for (int k = 0; k < 7; ++k) EXPECT_DOUBLE_EQ(saved.data[7 + k], r[k]);
  fs::remove_all(out);
}

TEST(Simulation, WorkOfPointLoadsBecomesKineticEnergy) {
  // point loads proportional to the lumped masses (half on the end nodes) accelerate the free rod
  // as a rigid body; the midpoint rule gives Delta(u^T M u / 2) = F . Delta x exactly per step, so
  // the saved work of the forces equals the kinetic energy to round-off
  const std::string scene =
      "duration: 0.04\n"
      "rods:\n"
      "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.3, num_nodes: 4}\n"
      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
      "forces:\n  point_loads:\n"
      "    - {node: 0, force: [0.01, 0, 0.02]}\n    - {node: 1, force: [0.02, 0, 0.04]}\n"
      "    - {node: 2, force: [0.02, 0, 0.04]}\n    - {node: 3, force: [0.01, 0, 0.02]}\n"
      "integrator: {type: implicit_midpoint, dt: 0.01}\n";
  Simulation sim{load(scene)};
  const fs::path out = scratch("work");
  ASSERT_TRUE(sim.run(out).ok);
  const auto energies = sim.energies();
  const double kinetic = energies.back().second;
  ASSERT_EQ(energies.back().first, "kinetic");
  EXPECT_GT(kinetic, 0.0);
  EXPECT_NEAR(sim.work_of_forces(), kinetic, 1e-12 * kinetic);
  const io::NpyArray work = io::read_npy(out / "work_of_forces.npy");
  ASSERT_EQ(work.shape, (std::vector<std::size_t>{5}));
  EXPECT_EQ(work.data.front(), 0.0);
  EXPECT_DOUBLE_EQ(work.data.back(), sim.work_of_forces());
  fs::remove_all(out);
}

TEST(Simulation, WorkOfDragUnderImplicitEulerUsesTheForcesAtEachNewState) {
  // the trapezoidal work of the force terms (docs/output_format.md, work_of_forces), W = sum_k
  // (F_k + F_{k+1}) . (q_{k+1} - q_k) / 2, with F = point loads - eta dl_i u_i (mat_dismech eq. 27;
  // rest Voronoi lengths dl = 0.05, 0.1, 0.1, 0.05 m) recomputed here from each accepted state:
  // implicit Euler takes F_{k+1} from its last Newton evaluation, which must be the one at
  // (q_{k+1}, u_{k+1}, t_{k+1})
  const std::string scene =
      "duration: 0.05\n"
      "rods:\n"
      "  - geometry: {type: straight, direction: [1, 0, 0], length: 0.3, num_nodes: 4}\n"
      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
      "forces:\n  point_loads:\n"
      "    - {node: 0, force: [0.01, 0, 0.02]}\n    - {node: 3, force: [0, 0.03, -0.01]}\n"
      "  viscous_drag:\n    - {viscosity: 2.0}\n"
      "integrator: {type: implicit_euler, dt: 0.01}\n";
  Simulation sim{load(scene)};
  const double eta = 2.0;
  const double voronoi[4] = {0.05, 0.1, 0.1, 0.05};
  const auto forces = [&](const State& s) {
    VecX f = VecX::Zero(s.q.size());
    f.segment<3>(0) += Vec3(0.01, 0.0, 0.02);
    f.segment<3>(9) += Vec3(0.0, 0.03, -0.01);
    for (int i = 0; i < 4; ++i) f.segment<3>(3 * i) -= eta * voronoi[i] * s.u.segment<3>(3 * i);
    return f;
  };
  double work = 0.0;
  while (!sim.finished()) {
    const VecX q_before = sim.state().q;
    const VecX f_before = forces(sim.state());
    ASSERT_TRUE(sim.step().ok());
    work += 0.5 * (f_before + forces(sim.state())).dot(sim.state().q - q_before);
  }
  EXPECT_GT(std::abs(work), 0.0);
  EXPECT_NEAR(sim.work_of_forces(), work, 1e-12 * std::abs(work));
}

TEST(Simulation, MovingPinnedEndStretchesTheRod) {
  // displacement control of a pinned end (boundary_conditions.moving_nodes): a straight rod pinned
  // at node 0 whose last node is pulled by d = v t along its axis carries the axial force EA d / L
  // (uniform strain d / L; the stretching force is EA times the strain), the reaction at the moving
  // node
  const std::string scene =
      "duration: 2\n"
      "rods:\n"
      "  - geometry: {type: straight, direction: [1, 0, 0], length: 1.0, num_nodes: 11}\n"
      "    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.005}\n"
      "boundary_conditions:\n"
      "  fixed_nodes: [{nodes: [0]}]\n"
      "  fixed_twists: [{edges: [0]}]\n"
      "  moving_nodes: [{nodes: [-1], velocity: [0.0005, 0, 0]}]\n"
      "integrator: {type: static, dt: 1}\n";
  Simulation sim{load(scene)};
  ASSERT_TRUE(sim.run("").ok);
  const VecX& q = sim.state().q;
  EXPECT_NEAR(q[3 * 10], 1.001, 1e-15);  // d(2 s) = 1 mm
  EXPECT_NEAR(q[3 * 5], 0.5005, 1e-9);   // the middle node halfway
  const std::vector<int>& dofs = sim.reaction_dofs();
  ASSERT_EQ(dofs, (std::vector<int>{0, 1, 2, 30, 31, 32, 3 * 11}));  // node 0, node 10, twist 0
  const VecX r = sim.reactions();
  const double ea = 1e7 * std::numbers::pi * 25e-6;
  EXPECT_NEAR(r[3], ea * 1e-3, 1e-7 * ea * 1e-3);  // pulled towards +x by the support
  EXPECT_NEAR(r[0], -ea * 1e-3, 1e-7 * ea * 1e-3);
  // a table gives the same end state; with neither (or both) an input error names the key
  Simulation tabled{
      load(scene, {"boundary_conditions.moving_nodes.0.velocity=null",
                   "boundary_conditions.moving_nodes.0.table=[[0, 0, 0, 0], [2, 0.001, 0, 0]]"})};
  ASSERT_TRUE(tabled.run("").ok);
  EXPECT_LE((tabled.state().q - q).norm(), 1e-12);
  testing::expect_input_error(
      [&] { load(scene, {"boundary_conditions.moving_nodes.0.table=[[0, 0, 0, 0]]"}); },
      {"boundary_conditions.moving_nodes[0].velocity", "either velocity or table"});
}

}  // namespace
}  // namespace tendril::sim
