// ViscousDrag: F_i = - eta Delta l_i u_i (mat_dismech 5.3, eq. 27-28).
#include <gtest/gtest.h>

#include "media_state.hpp"
#include "small_rod.hpp"
#include "support/conformance.hpp"
#include "support/input_error.hpp"
#include "tendril/forces/viscous_drag.hpp"

namespace tendril {
namespace {

using namespace conformance;

TEST(ViscousDrag, JacobiansMatchFiniteDifferencesAtRandomStates) {
  auto rod = testing::make_small_rod(6, 4);
  const ViscousDrag all(rod.model, {}, 2.5);
  const ViscousDrag some(rod.model, {0, 3, 5}, 0.7);
  for (unsigned seed : {1u, 2u, 3u}) {
    const VecX q = perturbed(rod.model, rod.q, 0.03, 0.3, seed);
    const VecX u = testing::random_velocity(q.size(), 0.5, seed + 10);
    expect_force_conforms(all, rod.model, rod.frames, q, u, 0.1);
    expect_force_conforms(some, rod.model, rod.frames, q, u, 0.1);
  }
}

TEST(ViscousDrag, HandComputedValueOnItsNodesOnly) {
  auto rod = testing::make_small_rod(4, 2);
  const double eta = 3.0;
  const ViscousDrag drag(rod.model, {0, 2}, eta);
  const VecX u = testing::random_velocity(rod.q.size(), 1.0, 5);
  const ForceEval f = evaluate_force(drag, rod.model, rod.frames, rod.q, u, 0.0);
  const auto& l = rod.model.rods.rest_length;
  // node 0: half its one edge; node 2: half of edges 1 and 2
  EXPECT_NEAR((f.force.segment<3>(0) + eta * 0.5 * l[0] * u.segment<3>(0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((f.force.segment<3>(6) + eta * 0.5 * (l[1] + l[2]) * u.segment<3>(6)).norm(), 0.0,
              1e-15);
  EXPECT_EQ(f.force.segment<3>(3).norm(), 0.0);
  EXPECT_EQ(f.force.tail(rod.model.dofs.num_edges).norm(), 0.0);
  EXPECT_TRUE(drag.has_symmetric_jacobian());
}

TEST(ViscousDrag, BadInputNamesTheKey) {
  auto rod = testing::make_small_rod(3, 1);
  testing::expect_input_error([&] { ViscousDrag(rod.model, {}, -1.0); }, {"viscosity", "-1"});
  testing::expect_input_error([&] { ViscousDrag(rod.model, {0, 9}, 1.0); }, {"nodes[1]", "9"});
}

}  // namespace
}  // namespace tendril
