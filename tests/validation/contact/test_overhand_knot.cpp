// Overhand knot (IMC self-contact with friction, Choi et al. 2021 / Tong et al. 2023, mat_dismech
// refs. 20 and 35): tightening the knot of examples/overhand_knot.yaml, no pair of edges ever
// passes through another. Checked at every step: (1) no overlap beyond delta (centrelines at least
// r_a + r_b - delta apart), and (2) no node moves by more than r - delta / 2 in one step, so along
// the straight-line motion between two steps two centrelines stay more than
// 2 r - delta - 2 (r - delta / 2) = 0 apart: no crossing in between either. Run for the first
// 0.12 s, when the strands first press on each other; every contact pair must have been among the
// candidates declared before its step (docs/physics/contact.md, "Sparsity").
#include <gtest/gtest.h>

#include <filesystem>

#include "tendril/contact/self_contact.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril {
namespace {

TEST(OverhandKnot, NoPairEverCrosses) {
  sim::Simulation sim = sim::Simulation::from_file(std::filesystem::path(TENDRIL_EXAMPLES_DIR) / "overhand_knot.yaml",
                                                   {"duration=0.12"});
  const contact::SelfContact* self = nullptr;
  for (const auto& e : sim.model().energies)
    if (const auto* c = dynamic_cast<const contact::SelfContact*>(e.get())) self = c;
  ASSERT_NE(self, nullptr);
  const double delta = self->parameters().distance_tolerance, r = 0.001;
  const int n = 3 * sim.model().dofs.num_nodes;
  int max_active = 0;
  while (!sim.finished()) {
    const VecX before = sim.state().q.head(n);
    const StepReport report = sim.step();
    ASSERT_TRUE(report.ok()) << "t = " << sim.state().time << ": " << report.message;
    const contact::ContactStatistics stats = sim.contact_statistics();
    ASSERT_GT(stats.min_gap, -delta) << "t = " << sim.state().time;
    const VecX moved = sim.state().q.head(n) - before;
    for (int i = 0; i < n; i += 3) ASSERT_LT(moved.segment<3>(i).norm(), r - delta / 2) << "t = " << sim.state().time;
    max_active = std::max(max_active, stats.active);
  }
  EXPECT_GT(max_active, 5);  // the strands did come into contact
  EXPECT_EQ(self->missed_pairs(), 0);  // every pair in contact was a declared candidate
}

}  // namespace
}  // namespace tendril
