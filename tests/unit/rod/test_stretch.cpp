#include <gtest/gtest.h>

#include "rod/rod_shapes.hpp"
#include "support/conformance.hpp"
#include "tendril/rod/stretch.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(Stretch, HandComputedValue) {
  // |e| = 1.5, |e_bar| = 1, EA = 2: E = 1/2 * 2 * 0.5^2 * 1 = 0.25, dE/dx_1 = EA eps t = (1, 0, 0)
  const Vec3 edge(1.5, 0.0, 0.0);
  EXPECT_DOUBLE_EQ(stretch_energy(edge, 1.0, 2.0), 0.25);
  const VecN<6> g = stretch_gradient(edge, 1.0, 2.0);
  EXPECT_DOUBLE_EQ(g[3], 1.0);
  EXPECT_DOUBLE_EQ(g[0], -1.0);
  // axial stiffness EA / |e_bar| = 2, transverse EA eps / |e| = 2/3
  const MatN<6> h = stretch_hessian(edge, 1.0, 2.0);
  EXPECT_DOUBLE_EQ(h(3, 3), 2.0);
  EXPECT_NEAR(h(4, 4), 2.0 / 3.0, 1e-15);
  EXPECT_DOUBLE_EQ(h(0, 3), -2.0);
}

TEST(Stretch, ConformsOnStraightRodHelixAndNetwork) {
  const StretchEnergy term;
  for (const RodNetworkInput& input :
       {test::straight_rod(4), test::helix(6), test::star_network()}) {
    const test::BuiltRod rod = test::build(input);
    expect_zero_at_rest(term, rod.model, rod.frames, rod.q);
    for (unsigned seed : {1u, 2u}) {
      const VecX q = perturbed(rod.model, rod.q, 0.1, 0.5, seed);
      expect_energy_conforms(term, rod.model, rod.frames, q);
      expect_rigid_motion_invariance(term, rod.model, rod.frames, q, seed);
    }
  }
}

}  // namespace
}  // namespace tendril
