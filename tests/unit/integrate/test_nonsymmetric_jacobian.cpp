// Non-symmetric Newton matrices: a chain of particles on linear springs with a gyroscopic force
// F = B u (B skew, per particle a rotation generator b [e_z]_x, as from a magnetic field or a
// Coriolis term) under implicit Euler. The system is linear, so exact Newton solves it in one
// iteration; an LDL^T reading one triangle of J = M/dt^2 + K - B/dt (issue 7: 30 iterations at a
// linear rate) would not. Each linear solver kind must give one iteration and the closed-form step.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "springs.hpp"
#include "tendril/forces/custom_force.hpp"
#include "tendril/integrate/time_stepper.hpp"

namespace tendril {
namespace {

constexpr int kParticles = 6;
constexpr double kMass = 0.2;      // [kg]
constexpr double kStiffness = 50;  // [N/m]
constexpr double kGyro = 3.0;      // b [N s/m]

Mat3 gyroscopic_block() {
  Mat3 b;
  b << 0.0, kGyro, 0.0, -kGyro, 0.0, 0.0, 0.0, 0.0, 0.0;  // F = b (u_y, -u_x, 0) = b u x e_z
  return b;
}

struct GyroChain {
  Model model;
  State state;
  GyroChain(CustomForce::Symmetry symmetry = CustomForce::Symmetry::general) {
    VecX x(3 * kParticles);
    for (int i = 0; i < kParticles; ++i) x.segment<3>(3 * i) = Vec3(0.1 * i, 0.02 * i, 0.0);
    model = testing::make_particles(x, kMass);
    std::vector<testing::LinearSpring> springs;
    springs.push_back({0, -1, kStiffness, Vec3::Zero()});
    for (int i = 1; i < kParticles; ++i)
      springs.push_back({i, i - 1, kStiffness, Vec3(0.1, 0.0, 0.0)});
    model.energies.push_back(std::make_shared<testing::LinearSprings>(springs));
    std::vector<std::vector<int>> stencils;
    for (int i = 0; i < kParticles; ++i) stencils.push_back({3 * i, 3 * i + 1, 3 * i + 2});
    model.forces.push_back(std::make_shared<CustomForce>(
        "gyroscopic",
        [](const VecX&, const VecX& u, double, VecX& f) {
          for (int i = 0; i < kParticles; ++i)
            f.segment<3>(3 * i) += gyroscopic_block() * u.segment<3>(3 * i);
        },
        stencils,
        [](const VecX&, const VecX&, double, JacobianSink& sink) {
          for (int i = 0; i < kParticles; ++i) {
            const int dofs[3] = {3 * i, 3 * i + 1, 3 * i + 2};
            sink.add(dofs, MatX(), gyroscopic_block());
          }
        },
        symmetry));
    VecX u(3 * kParticles);
    for (int i = 0; i < 3 * kParticles; ++i) u[i] = 0.3 * std::sin(1.0 + i);
    state = testing::make_state(model, x, u);
  }
};

/// The implicit Euler step of M q'' = -K (q - r) + B u in closed form (dense solve).
VecX closed_form_step(const GyroChain& chain, double dt) {
  const int n = 3 * kParticles;
  // K and the spring offsets as a dense linear map: grad E = K q - g
  MatX K = MatX::Zero(n, n);
  VecX g = VecX::Zero(n);
  for (int i = 0; i < kParticles; ++i) K.block<3, 3>(3 * i, 3 * i) += kStiffness * Mat3::Identity();
  for (int i = 1; i < kParticles; ++i) {
    const int a = 3 * i, b = 3 * (i - 1);
    K.block<3, 3>(a, b) -= kStiffness * Mat3::Identity();
    K.block<3, 3>(b, a) -= kStiffness * Mat3::Identity();
    K.block<3, 3>(b, b) += kStiffness * Mat3::Identity();
    g.segment<3>(a) += kStiffness * Vec3(0.1, 0.0, 0.0);
    g.segment<3>(b) -= kStiffness * Vec3(0.1, 0.0, 0.0);
  }
  MatX B = MatX::Zero(n, n);
  for (int i = 0; i < kParticles; ++i) B.block<3, 3>(3 * i, 3 * i) = gyroscopic_block();
  const VecX& q = chain.state.q;
  const VecX& u = chain.state.u;
  // (M/dt^2 + K - B/dt) y = M/dt^2 (q + dt u) + g - B q / dt
  const MatX A = kMass / (dt * dt) * MatX::Identity(n, n) + K - B / dt;
  const VecX rhs = kMass / (dt * dt) * (q + dt * u) + g - B * q / dt;
  return A.partialPivLu().solve(rhs);
}

TEST(NonSymmetricJacobian, GyroscopicStepConvergesInOneNewtonIterationWithEachSolver) {
  for (LinearSolverKind kind :
       {LinearSolverKind::automatic, LinearSolverKind::banded_ldlt, LinearSolverKind::sparse_ldlt,
        LinearSolverKind::banded_lu, LinearSolverKind::sparse_lu}) {
    GyroChain chain;
    DynamicsOptions options;
    options.dt = 0.01;
    options.newton.linear_solver = kind;
    TimeStepper stepper(chain.model, options, chain.state.q);
    EXPECT_FALSE(stepper.system().symmetric());
    const VecX expected = closed_form_step(chain, options.dt);
    const StepReport report = stepper.step(chain.state);
    ASSERT_TRUE(report.ok()) << to_string(kind) << ": " << report.message;
    EXPECT_EQ(report.iterations, 1)
        << to_string(kind) << " with " << stepper.system().linear_solver()->name();
    EXPECT_NE(stepper.system().linear_solver()->name().find("lu"), std::string_view::npos)
        << to_string(kind);
    // the linear solve's round-off on a matrix of norm ~ M/dt^2 = 2e3 and q ~ 0.5 m
    EXPECT_LE((chain.state.q - expected).norm(), 1e-12 * expected.norm()) << to_string(kind);
  }
}

TEST(NonSymmetricJacobian, CustomForceWithoutJacobianOrDeclaredSymmetricKeepsLdlt) {
  Model model = testing::make_particles(VecX::Zero(3), 1.0);
  model.forces.push_back(
      std::make_shared<CustomForce>("no_jacobian", [](const VecX&, const VecX&, double, VecX&) {}));
  const TimeStepper stepper(model, DynamicsOptions{}, VecX::Zero(3));
  EXPECT_TRUE(stepper.system().symmetric());
  EXPECT_EQ(stepper.system().linear_solver()->name(), "banded_ldlt");

  // a wrong declaration is trusted: the LDL^T then reads one triangle and exact Newton is lost
  GyroChain declared(CustomForce::Symmetry::symmetric);
  DynamicsOptions options;
  options.dt = 0.01;
  TimeStepper wrong(declared.model, options, declared.state.q);
  EXPECT_TRUE(wrong.system().symmetric());
  const StepReport report = wrong.step(declared.state);
  EXPECT_GT(report.iterations, 1);
}

}  // namespace
}  // namespace tendril
