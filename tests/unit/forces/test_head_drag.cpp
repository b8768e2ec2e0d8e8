// HeadDrag: F_h = - 6 pi C1 mu a v_h on the head node, T_h = - 8 pi C2 mu a^3 omega_h on the head
// edge's twist (granular_flagella IV-C, eq. 11-12).
#include <numbers>

#include <gtest/gtest.h>

#include "media_state.hpp"
#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "support/input_error.hpp"
#include "tendril/forces/head_drag.hpp"

namespace tendril {
namespace {

using namespace conformance;

const HeadDragParameters kPaper{2.420, 0.039, 6.828, 0.02};  // granular_flagella V-C and IV-F

TEST(HeadDrag, JacobiansMatchFiniteDifferencesAtRandomStates) {
  auto rod = testing::make_small_rod(5, 6);
  const HeadDrag drag(0, 0, kPaper);
  for (unsigned seed : {1u, 2u, 3u}) {
    const VecX q = perturbed(rod.model, rod.q, 0.03, 0.3, seed);
    const VecX u = testing::random_velocity(q.size(), 0.5, seed + 30);
    expect_force_conforms(drag, rod.model, rod.frames, q, u, 0.0);
  }
}

TEST(HeadDrag, HandComputedForceAndTorque) {
  auto rod = testing::make_small_rod(4, 3);
  const HeadDrag drag(1, 2, kPaper);
  const VecX u = testing::random_velocity(rod.q.size(), 1.0, 8);
  const ForceEval f = evaluate_force(drag, rod.model, rod.frames, rod.q, u, 0.0);
  const double pi = std::numbers::pi;
  const double cf = 6 * pi * 2.420 * 6.828 * 0.02, ct = 8 * pi * 0.039 * 6.828 * 0.02 * 0.02 * 0.02;
  EXPECT_NEAR((f.force.segment<3>(3) + cf * u.segment<3>(3)).norm(), 0.0, 1e-14);
  const int twist = rod.model.dofs.twist(2);
  EXPECT_NEAR(f.force[twist], -ct * u[twist], 1e-18);
  EXPECT_DOUBLE_EQ(f.force.norm(), std::hypot(f.force.segment<3>(3).norm(), f.force[twist]));
}

TEST(HeadDrag, BadInputNamesTheKey) {
  testing::expect_input_error([] { HeadDrag(0, 0, {-1.0, 0.1, 1.0, 0.02}); }, {"C1", "-1"});
  testing::expect_input_error([] { HeadDrag(0, 0, {1.0, 0.1, -6.0, 0.02}); }, {"mu", "-6"});
  testing::expect_input_error([] { HeadDrag(0, 0, {1.0, 0.1, 1.0, 0.0}); }, {"radius", "0"});
  auto rod = testing::make_small_rod(3, 1);
  SparsityBuilder pattern(rod.model.dofs.size());
  testing::expect_input_error([&] { HeadDrag(0, 5, kPaper).declare_sparsity(rod.model, pattern); },
                              {"edge", "5"});
}

}  // namespace
}  // namespace tendril
