#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "rod/rod_shapes.hpp"
#include "support/conformance.hpp"
#include "tendril/core/sparse_assembly.hpp"
#include "tendril/geometry/kinematics.hpp"
#include "tendril/rod/bend_twist.hpp"

namespace tendril {
namespace {

using namespace conformance;

/// A 3-node rod in the xy plane turning by phi at node 1, natural shape straight.
test::BuiltRod bent_rod(double phi) {
  RodNetworkInput in;
  in.nodes = {Vec3(-1.0, 0.0, 0.0), Vec3::Zero(), Vec3(std::cos(phi), std::sin(phi), 0.0)};
  in.edges = {{0, 1}, {1, 2}};
  in.materials = {test::unit_material()};
  in.natural_shape = NaturalShape::straight;
  return test::build(in);
}

TEST(BendTwist, BentRodHandValue) {
  // |kappa b| = 2 tan(phi/2); isotropic EI, l_k = 1: E = EI/2 * (2 tan(phi/2))^2 (mat_dismech eqs.
  // 11-14)
  const double phi = 0.7;
  const test::BuiltRod rod = bent_rod(phi);
  const BendTwistSpring& spring = rod.model.rods.springs.at(0);
  ASSERT_DOUBLE_EQ(spring.voronoi_length, 1.0);
  const double kappa = 2.0 * std::tan(phi / 2.0);
  const double expected = 0.5 * spring.bend_stiffness_1 * kappa * kappa;
  EXPECT_NEAR(evaluate_energy(BendTwistEnergy(), rod.model, rod.frames, rod.q, false).energy,
              expected, 1e-13);
}

TEST(BendTwist, TwistedStraightRodHandValue) {
  // straight rod, theta_b - theta_a = alpha: E = GJ/(2 l_k) alpha^2 (mat_dismech eq. 16)
  const test::BuiltRod rod = test::build(test::straight_rod(2));
  VecX q = rod.q;
  const double alpha = 0.3;
  q[rod.model.dofs.twist(1)] = alpha;
  const BendTwistSpring& spring = rod.model.rods.springs.at(0);
  const double expected = 0.5 * spring.twist_stiffness / spring.voronoi_length * alpha * alpha;
  EXPECT_NEAR(evaluate_energy(BendTwistEnergy(), rod.model, rod.frames, q, false).energy, expected,
              1e-14);
}

TEST(BendTwist, AnisotropicBendingPicksTheStiffnessOfTheBendingAxis) {
  // bend in the plane of m_1 (about m_2): only kappa_1 is nonzero, so E = EI_1/2 |kappa b|^2;
  // twisting the material frame by pi/2 swaps the axes and gives EI_2
  RodNetworkInput in = test::straight_rod(2, test::anisotropic_material());
  in.natural_shape = NaturalShape::straight;
  const test::BuiltRod rod = test::build(in);
  const Vec3 m1 =
      rod.frames.reference_director[0];  // theta = 0: m_1 = a_1, straight rod: same for both edges
  const double phi = 0.4;
  VecX q = rod.q;
  // turn edge 1 by phi towards m_1: the binormal is t x m_1 = m_2
  q.segment<3>(6) = q.segment<3>(3) + 0.5 * (std::cos(phi) * Vec3::UnitX() + std::sin(phi) * m1);
  const RodFrames frames = test::frames_after_step(rod, q);
  const BendTwistSpring& spring = rod.model.rods.springs.at(0);
  const double kappa = 2.0 * std::tan(phi / 2.0);
  const double scale = 0.5 / spring.voronoi_length * kappa * kappa;
  EXPECT_NEAR(evaluate_energy(BendTwistEnergy(), rod.model, frames, q, false).energy,
              scale * spring.bend_stiffness_1, 1e-12);
  VecX q_turned = q;
  q_turned[rod.model.dofs.twist(0)] = q_turned[rod.model.dofs.twist(1)] = std::numbers::pi / 2.0;
  EXPECT_NEAR(evaluate_energy(BendTwistEnergy(), rod.model, frames, q_turned, false).energy,
              scale * spring.bend_stiffness_2, 1e-12);
  EXPECT_NE(spring.bend_stiffness_1, spring.bend_stiffness_2);
}

/// Conformance at the rest state, at trial points away from the accepted frames, and after a step
/// (accepted frames transported to a deformed state with nonzero reference twist).
void expect_conforms_everywhere(const test::BuiltRod& rod) {
  const BendTwistEnergy term;
  expect_zero_at_rest(term, rod.model, rod.frames, rod.q);
  for (unsigned seed : {11u, 12u, 13u}) {
    SCOPED_TRACE(seed);
    const VecX trial = perturbed(rod.model, rod.q, 0.15, 0.8, seed);
    expect_energy_conforms(term, rod.model, rod.frames, trial);
    expect_rigid_motion_invariance(term, rod.model, rod.frames, trial, seed);
    const RodFrames stepped = test::frames_after_step(rod, trial);
    const VecX next = perturbed(rod.model, trial, 0.1, 0.5, seed + 100);
    expect_energy_conforms(term, rod.model, stepped, next);
    expect_rigid_motion_invariance(term, rod.model, stepped, next, seed);
  }
}

TEST(BendTwist, ConformsOnStraightRod) {
  expect_conforms_everywhere(test::build(test::straight_rod(4)));
}

TEST(BendTwist, ConformsOnHelixWithNaturalCurvatureAndTwist) {
  test::BuiltRod rod = test::build(test::helix(8, test::anisotropic_material()));
  // the helix's natural curvature comes from the geometry; add a natural twist (actuation)
  double twist = 0.1;
  for (BendTwistSpring& spring : rod.model.rods.springs) {
    EXPECT_GT(spring.natural_curvature.norm(), 0.1);
    spring.natural_twist += (twist += 0.05);
  }
  const BendTwistEnergy term;
  for (unsigned seed : {21u, 22u}) {
    const VecX trial = perturbed(rod.model, rod.q, 0.15, 0.8, seed);
    expect_energy_conforms(term, rod.model, rod.frames, trial);
    const RodFrames stepped = test::frames_after_step(rod, trial);
    expect_energy_conforms(term, rod.model, stepped,
                           perturbed(rod.model, trial, 0.1, 0.5, seed + 1));
  }
}

TEST(BendTwist, ConformsOnStarNetworkWithFlippedEdges) {
  const test::BuiltRod rod = test::build(test::star_network());
  int flipped = 0;
  for (const BendTwistSpring& spring : rod.model.rods.springs)
    flipped += (spring.sign_a < 0) + (spring.sign_b < 0);
  EXPECT_GT(flipped, 4);
  expect_conforms_everywhere(rod);
  // the same with every joint spring's director_sign_a toggled (frames turned by pi inside the
  // spring)
  test::BuiltRod turned = rod;
  for (BendTwistSpring& spring : turned.model.rods.springs)
    if (spring.node == 0) spring.director_sign_a = -spring.director_sign_a;
  initialize_frames(turned.model, turned.q, turned.frames);
  const VecX trial = perturbed(turned.model, turned.q, 0.15, 0.8, 17);
  expect_energy_conforms(BendTwistEnergy(), turned.model, turned.frames, trial);
  expect_energy_conforms(BendTwistEnergy(), turned.model, test::frames_after_step(turned, trial),
                         perturbed(turned.model, trial, 0.1, 0.5, 18));
}

TEST(BendTwist, EachSpringsValuesDoNotDependOnTheSpringsEvaluatedBesideIt) {
  // The kernel evaluates four springs at once (one per lane, core/lane_pack.hpp): a spring's
  // energy, gradient and Hessian must be bitwise the same whichever springs share its pass (the
  // threads' parts start anywhere, docs/physics/time_integration.md), also alone
  // (bend_twist_stencil) and without the Hessian.
  test::BuiltRod rod = test::build(test::helix(9, test::anisotropic_material()));
  const VecX q = perturbed(rod.model, rod.q, 0.15, 0.8, 31);
  Kinematics kin;
  compute_kinematics(rod.model, rod.frames, q, kin);
  const VecX u = VecX::Zero(q.size());
  const EvalInput in{rod.model, q, u, 0.0, kin};
  VecX gradient = VecX::Zero(q.size());
  HessianAssembler hessian;  // not written by prepare_bend_twist
  const EnergyOutput out{0.0, &gradient, &hessian};
  const std::size_t n = rod.model.rods.springs.size();
  ASSERT_GE(n, 8u);
  BendTwistValues whole, shifted;
  whole.resize(n);
  shifted.resize(n);
  prepare_bend_twist(0, 0, n, in, out, whole);
  // other pass boundaries: [0, 1), [1, 3), [3, n)
  prepare_bend_twist(0, 0, 1, in, out, shifted);
  prepare_bend_twist(0, 1, 3, in, out, shifted);
  prepare_bend_twist(0, 3, n, in, out, shifted);
  for (std::size_t k = 0; k < n; ++k) {
    VecN<11> g;
    MatN<11> h;
    const double alone = bend_twist_stencil(oriented_stencil(rod.model, kin, q, k),
                                            rod.model.rods.springs[k], &g, &h);
    EXPECT_NE(whole.value[k], 0.0);
    EXPECT_EQ(whole.value[k], shifted.value[k]) << k;
    EXPECT_EQ(whole.value[k], alone) << k;
    EXPECT_TRUE(whole.vector[k] == shifted.vector[k] && whole.vector[k] == g) << k;
    EXPECT_TRUE(whole.matrix[k] == shifted.matrix[k] && whole.matrix[k] == h) << k;
    // and the gradient does not depend on whether the Hessian is asked (a residual is a residual)
    VecN<11> g_alone;
    EXPECT_EQ(bend_twist_stencil(oriented_stencil(rod.model, kin, q, k), rod.model.rods.springs[k],
                                 &g_alone, nullptr),
              alone);
    EXPECT_TRUE(g_alone == g) << k;
  }
}

TEST(BendTwist, EnergyDoesNotDependOnEdgeOrientation) {
  // the same bent, twisted rod with edge 1 reversed: theta_1 flips sign, the energy is the same
  RodNetworkInput forward = test::helix(3);
  RodNetworkInput reversed = forward;
  reversed.edges[1] = {2, 1};
  const test::BuiltRod a = test::build(forward), b = test::build(reversed);
  VecX qa = perturbed(a.model, a.q, 0.1, 0.4, 5);
  VecX qb = qa;
  qb[b.model.dofs.twist(1)] = -qa[a.model.dofs.twist(1)];
  const EnergyEval ea = evaluate_energy(BendTwistEnergy(), a.model, a.frames, qa);
  const EnergyEval eb = evaluate_energy(BendTwistEnergy(), b.model, b.frames, qb);
  EXPECT_GT(ea.energy, 1e-4);
  EXPECT_NEAR(ea.energy, eb.energy, 1e-12 * ea.energy);
  EXPECT_NEAR(ea.gradient[a.model.dofs.twist(1)], -eb.gradient[b.model.dofs.twist(1)], 1e-12);
  EXPECT_LE((ea.gradient.head(12) - eb.gradient.head(12)).norm(), 1e-12 * ea.gradient.norm());
}

TEST(BendTwist, NaturalStrainsAreChangeableBetweenEvaluations) {
  test::BuiltRod rod = test::build(test::straight_rod(3));
  const BendTwistEnergy term;
  EXPECT_NEAR(evaluate_energy(term, rod.model, rod.frames, rod.q, false).energy, 0.0, 1e-15);
  rod.model.rods.springs[1].natural_curvature = Vec2(0.2, 0.0);
  rod.model.rods.springs[1].natural_twist = 0.1;
  const BendTwistSpring& s = rod.model.rods.springs[1];
  const double expected =
      0.5 / s.voronoi_length * (s.bend_stiffness_1 * 0.04 + s.twist_stiffness * 0.01);
  EXPECT_NEAR(evaluate_energy(term, rod.model, rod.frames, rod.q, false).energy, expected, 1e-14);
}

TEST(BendTwist, ReusedAssemblerGivesTheSameHessian) {
  // the integrator keeps one assembler across Newton iterations (cached stencil slots)
  const test::BuiltRod rod = test::build(test::star_network());
  Model model = rod.model;
  SparsityBuilder pattern(model.dofs.size());
  for (const auto& term : model.energies) term->declare_sparsity(model, pattern);
  HessianAssembler reused(pattern.build());
  for (unsigned seed : {31u, 32u}) {
    const VecX q = perturbed(model, rod.q, 0.1, 0.3, seed);
    Kinematics kin;
    compute_kinematics(model, rod.frames, q, kin);
    const VecX u = VecX::Zero(q.size());
    reused.set_zero();
    EnergyOutput out;
    out.hessian = &reused;
    MatX fresh = MatX::Zero(q.size(), q.size());
    for (const auto& term : model.energies) {
      term->accumulate(EvalInput{model, q, u, 0.0, kin}, out);
      fresh += evaluate_energy(*term, model, rod.frames, q).hessian;
    }
    EXPECT_LE((MatX(reused.matrix()) - fresh).norm(), 1e-14 * fresh.norm());
  }
}

}  // namespace
}  // namespace tendril

namespace tendril {
namespace {

using namespace conformance;

TEST(BendTwist, ConformsAtRealisticScale) {
  // the benchmark rod (E 1e7 Pa, r 5 mm, edges of 0.14 m): EA |e| / EI ~ 3e4 and GJ / EI ~ 0.7, so
  // the blocks of the Hessian span several decades; the entrywise check sees each on its own scale
  const test::BuiltRod rod = test::clamped_benchmark_rod(8);
  const VecX trial = perturbed(rod.model, rod.q, 0.01, 0.3, 5);
  const RodFrames stepped = test::frames_after_step(rod, trial);
  const VecX next = perturbed(rod.model, trial, 0.005, 0.2, 6);
  for (const auto& term : rod.model.energies) {
    expect_energy_conforms(*term, rod.model, rod.frames, trial);
    expect_energy_conforms(*term, rod.model, stepped, next);
  }
}

}  // namespace
}  // namespace tendril
