// Closed forms for the motor between a free head and free tails (granular_flagella IV-E and V): the
// motor turns the tails against the head at omega_T, so at steady state omega_h + omega_t =
// omega_T; inertia is negligible, so the torque the motor spring exerts on the head edge's twist
// balances the head drag torque of eq. 12, (GJ / l)(m - m_bar) = 8 pi C2 mu a^3 omega_h, with
// omega_h measured independently from the head's spin angle (the observables' fit).
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "tendril/core/actuator.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/bend_twist.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::sim {
namespace {

TEST(MotorBalance, RatesAddUpAndTheHeadTorqueBalances) {
  for (int tails : {2, 3}) {
    Simulation sim(
        load_rod_scene_text("duration: 3\nflagellated_robot: {tails: " + std::to_string(tails) +
                            ", motor_rpm: 150, steady_start: 1.5}\nintegrator: {dt: 0.01}\n"));
    while (!sim.finished()) ASSERT_TRUE(sim.step().ok());
    const RobotObservables::Summary o = sim.observables()->summary();
    const double omega_T = 150.0 * 2 * std::numbers::pi / 60.0;
    EXPECT_NEAR(o.head_rotation_rate + o.tail_rotation_rate, omega_T, 1e-3 * omega_T)
        << tails << " tails";
    // the motor spring: body node 1 (x_h), spring 0; the head edge is its edge a
    const Model& m = sim.model();
    RodNetwork rods;
    actuated_rods(m, sim.state().time, rods);
    Kinematics kin;
    compute_kinematics(m, sim.state().frames, sim.state().q, kin);
    const BendTwistSpring& spring = rods.springs[0];
    ASSERT_EQ(spring.node, 1);
    const double twist = spring_twist(oriented_stencil(m, kin, sim.state().q, 0));
    const double motor_torque =
        spring.twist_stiffness / spring.voronoi_length * (twist - spring.natural_twist);
    const double a = 0.02, C2 = 0.039, mu = 6.828;
    EXPECT_NEAR(std::abs(motor_torque),
                8 * std::numbers::pi * C2 * mu * a * a * a * o.head_rotation_rate,
                0.01 * std::abs(motor_torque))
        << tails << " tails";
  }
}

}  // namespace
}  // namespace tendril::sim
