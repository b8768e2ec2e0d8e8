// Overhand knot (IMC self-contact with friction, Choi et al. 2021 / Tong et al. 2023, mat_dismech
// refs. 20 and 35): tightening the knot of examples/overhand_knot.yaml, no pair of edges ever
// passes through another. Checked at every step: (1) no overlap beyond delta (centrelines at least
// r_a + r_b - delta apart), and (2) no node moves by more than r - delta / 2 in one step, so along
// the straight-line motion between two steps two centrelines stay more than
// 2 r - delta - 2 (r - delta / 2) = 0 apart: no crossing in between either. Checked over the whole
// run (1 s): the two end pulls cancel (equal and opposite along the line through the end nodes), so
// the knot tightens in place and its centre of mass, at rest at t = 0, stays put (momentum
// conservation); every contact pair must have been among the candidates declared before its step
// (docs/physics/contact.md, "Sparsity").
#include <gtest/gtest.h>

#include <filesystem>

#include "tendril/contact/self_contact.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

TEST(OverhandKnot, NoPairEverCrosses) {
  sim::Simulation sim = sim::Simulation::from_file(std::filesystem::path(TENDRIL_EXAMPLES_DIR) /
                                                   "overhand_knot.yaml");
  const contact::SelfContact* self = nullptr;
  for (const auto& e : sim.model().energies)
    if (const auto* c = dynamic_cast<const contact::SelfContact*>(e.get())) self = c;
  ASSERT_NE(self, nullptr);
  const double delta = self->parameters().distance_tolerance, r = 0.001;
  const int n = 3 * sim.model().dofs.num_nodes;
  int max_active = 0;
  // the centre of mass: the nodes' lumped masses are equal but for the two end nodes' halves
  const auto centre = [&](const VecX& q) {
    Vec3 sum = Vec3::Zero();
    double weight = 0.0;
    for (int i = 0; i < n; i += 3) {
      const double w = (i == 0 || i == n - 3) ? 0.5 : 1.0;
      sum += w * q.segment<3>(i);
      weight += w;
    }
    return Vec3(sum / weight);
  };
  const Vec3 centre0 = centre(sim.state().q);
  while (!sim.finished()) {
    const VecX before = sim.state().q.head(n);
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "t = " << sim.state().time << ": " << report.message;
    const contact::ContactStatistics stats = sim.contact_statistics();
    ASSERT_GT(stats.min_gap, -delta) << "t = " << sim.state().time;
    const VecX moved = sim.state().q.head(n) - before;
    for (int i = 0; i < n; i += 3)
      ASSERT_LT(moved.segment<3>(i).norm(), r - delta / 2) << "t = " << sim.state().time;
    max_active = std::max(max_active, stats.active);
  }
  EXPECT_DOUBLE_EQ(sim.state().time, 1.0);
  // the pulls cancel: no drift (a net 1.85 mN would accelerate its 1.0 g by 1.85 m/s^2: 0.9 m in 1
  // s); the lumped masses differ from equal edge shares by the edge lengths' spread only
  EXPECT_LT((centre(sim.state().q) - centre0).norm(), 1e-3);
  EXPECT_GT(max_active, 5);  // the strands did come into contact
  // every pair in contact was a declared candidate
  EXPECT_EQ(self->missed_pairs(*sim.workspace().of(self)), 0);
}

}  // namespace
}  // namespace tendril
