// Contact building blocks (docs/performance.md, "Contact"):
// - BM_BroadPhase/E: the broad phase alone on a tightly wound helix of E edges (r = 1 mm, 2 mm
// edges,
//   pitch 2.6 mm: every edge has neighbours in the turns above and below, a constant number per
//   edge), so a linear cost shows as a constant time per edge (counter edge, inverted rate);
// - BM_PointTriangleBroadPhase/n: the point-triangle broad phase on two stacked n x n-node sheets
//   (2 mm grid, mid-surfaces 1.2 mm apart, h = 1 mm, delta = 0.4 mm): every node of both sheets
//   against every triangle of both, a constant number of pairs per triangle (counter triangle);
// - BM_SelfContactCost/n: gradient + Hessian of SelfContact with n^2 active pairs (n one-edge rods
//   along x resting across n along y), counter pair = time per active pair.
#include <cmath>
#include <memory>
#include <numbers>

#include <benchmark/benchmark.h>

#include "support/statistics.hpp"
#include "tendril/contact/broad_phase.hpp"
#include "tendril/contact/self_contact.hpp"
#include "tendril/geometry/kinematics.hpp"

namespace {

using namespace tendril;

void BM_BroadPhase(benchmark::State& state) {
  const int num_edges = static_cast<int>(state.range(0));
  const double radius = 0.01, pitch = 0.0026, edge = 0.002;
  const double dphi = edge / radius;  // nearly the arc length per edge
  VecX positions(3 * (num_edges + 1));
  for (int i = 0; i <= num_edges; ++i) {
    const double phi = i * dphi;
    positions.segment<3>(3 * i) =
        Vec3(radius * std::cos(phi), radius * std::sin(phi), pitch * phi / (2 * std::numbers::pi));
  }
  std::vector<std::array<int, 2>> edges;
  for (int e = 0; e < num_edges; ++e) edges.push_back({e, e + 1});
  const std::vector<double> margin(num_edges, 0.001 + 0.0005);  // r + delta / 2, delta = 1 mm
  contact::BroadPhase broad;
  std::vector<contact::EdgePair> pairs;
  for (auto _ : state) {
    broad.find_pairs(positions, edges, margin, pairs);
    benchmark::DoNotOptimize(pairs.data());
  }
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["edge"] = benchmark::Counter(
      static_cast<double>(num_edges),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_BroadPhase)
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

void BM_PointTriangleBroadPhase(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const double spacing = 0.002, gap = 0.0012;
  VecX positions(3 * 2 * n * n);
  std::vector<int> points;
  std::vector<std::array<int, 3>> triangles;
  for (int sheet = 0; sheet < 2; ++sheet)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int node = sheet * n * n + j * n + i;
        positions.segment<3>(3 * node) = Vec3(i * spacing, j * spacing, sheet * gap);
        points.push_back(node);
        if (i + 1 < n && j + 1 < n) {
          triangles.push_back({node, node + 1, node + n + 1});
          triangles.push_back({node, node + n + 1, node + n});
        }
      }
  const std::vector<double> point_margin(points.size(), 0.0005 + 0.0002);  // r + delta / 2
  const std::vector<double> triangle_margin(triangles.size(), 0.0005 + 0.0002);
  contact::BroadPhase broad;
  std::vector<contact::EdgePair> pairs;
  for (auto _ : state) {
    broad.find_point_triangle_pairs(positions, points, point_margin, triangles, triangle_margin,
                                    pairs);
    benchmark::DoNotOptimize(pairs.data());
  }
  state.counters["pairs"] = static_cast<double>(pairs.size());
  state.counters["triangle"] = benchmark::Counter(
      static_cast<double>(triangles.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PointTriangleBroadPhase)
    ->Arg(23)
    ->Arg(72)
    ->Arg(225)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

void BM_SelfContactCost(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const double r = 0.001, spacing = 0.01, length = spacing * (n + 1);
  Model model;
  model.dofs.num_nodes = 4 * n;
  model.dofs.num_edges = 2 * n;
  contact::ContactEdges edges;
  VecX q = VecX::Zero(model.dofs.size()), far = q;
  for (int k = 0; k < n; ++k) {
    // rod k along x at y = (k + 1) spacing, rod n + k along y at x = (k + 1) spacing, overlapping
    // by 0.2 mm
    const double c = (k + 1) * spacing;
    q.segment<3>(6 * k) = Vec3(0, c, 2 * r - 2e-4);
    q.segment<3>(6 * k + 3) = Vec3(length, c, 2 * r - 2e-4);
    q.segment<3>(6 * (n + k)) = Vec3(c, 0, 0);
    q.segment<3>(6 * (n + k) + 3) = Vec3(c, length, 0);
    edges.nodes.push_back({2 * k, 2 * k + 1});
    edges.nodes.push_back({2 * (n + k), 2 * (n + k) + 1});
    edges.radius.push_back(r);
    edges.radius.push_back(r);
  }
  far = q;
  for (int k = 0; k < n; ++k)
    far[6 * k + 2] = far[6 * k + 5] = 1.0;  // x rods lifted: nothing excluded
  contact::ContactParameters params;
  params.distance_tolerance = 1e-3;
  const contact::SelfContact term(edges, params, far);
  State at_rest;
  at_rest.q = q;
  at_rest.u = VecX::Zero(q.size());
  const std::unique_ptr<TermWorkspace> workspace = term.make_workspace(model);
  term.update_stencils(model, at_rest, workspace.get());
  SparsityBuilder pattern(model.dofs.size());
  term.declare_stencils(model, workspace.get(), pattern);
  HessianAssembler hessian(pattern.build());
  Kinematics kin;
  const VecX u = VecX::Zero(q.size());
  EvalInput in{model, q, u, 0.0, kin};
  in.workspace = workspace.get();
  VecX gradient(q.size());
  for (auto _ : state) {
    gradient.setZero();
    hessian.set_zero();
    EnergyOutput out{0.0, &gradient, &hessian};
    term.accumulate(in, out);
    benchmark::DoNotOptimize(out.energy);
  }
  state.counters["active_pairs"] = term.statistics(model, q, 0.0).active;
  state.counters["pair"] =
      benchmark::Counter(static_cast<double>(n) * n, benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}
// 10, 100, 1024, 10000 active pairs
BENCHMARK(BM_SelfContactCost)
    ->Arg(3)
    ->Arg(10)
    ->Arg(32)
    ->Arg(100)
    ->ComputeStatistics("min", tendril::bench::fastest)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
