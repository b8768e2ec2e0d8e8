#include "tendril/vine3d/run_warm_start.hpp"

#include <cstdint>
#include <span>
#include <vector>

#include "tendril/core/error.hpp"
#include "tendril/vine/run_restart.hpp"

namespace tendril::vine3d {

namespace {

/// Values per frame of qp_warm_start_pairs: the pair count, then one flag per (body, obstacle)
/// pair, bit b #obstacles + o, packed 32 per value.
std::size_t pairs_record_size(const Vine3dModel& model) {
  return 1 + (static_cast<std::size_t>(model.num_bodies) * model.obstacles.size() + 31) / 32;
}

}  // namespace

WarmStartArrays add_warm_start_arrays(io::RunDirectory& run, const Vine3dStepper& stepper) {
  WarmStartArrays arrays;
  arrays.active = &vine::add_warm_start_array(run, stepper.max_inequality_rows());
  arrays.pairs = &run.add_array(
      "qp_warm_start_pairs", io::NpyType::Int64, {pairs_record_size(stepper.model())}, "-",
      "(body, obstacle) pairs of the contact rows of qp_warm_start (pair count, then bit "
      "body * num_obstacles + obstacle set per pair, 32 per value)");
  return arrays;
}

void append_warm_start(const WarmStartArrays& arrays, const Vine3dStepper& stepper) {
  const Vine3dWarmStart warm = stepper.warm_start();
  std::vector<int> bodies;
  const std::size_t obstacles = stepper.model().obstacles.size();
  std::vector<char> flags(static_cast<std::size_t>(stepper.model().num_bodies) * obstacles, 0);
  for (const ContactPair& p : warm.pairs) {
    bodies.push_back(p.body);
    flags[static_cast<std::size_t>(p.body) * obstacles + static_cast<std::size_t>(p.obstacle)] = 1;
  }
  vine::append_warm_start(*arrays.active, {vine::rows_key(bodies), warm.active},
                          stepper.max_inequality_rows());
  std::vector<std::int64_t> record(pairs_record_size(stepper.model()), 0);
  record[0] = static_cast<std::int64_t>(warm.pairs.size());
  vine::pack_flags(flags, record, 1);
  arrays.pairs->append(std::span<const std::int64_t>(record.data(), record.size()));
}

Vine3dWarmStart saved_warm_start(const io::RunData& run, std::size_t frame,
                                 const Vine3dModel& model, const std::string& key) {
  Vine3dWarmStart out;
  out.active = vine::saved_warm_start(run, frame).active;
  if (out.active.empty()) return out;
  if (!run.has("qp_warm_start_pairs"))
    throw InputError(key, "a run whose qp_warm_start has no qp_warm_start_pairs (an older format)",
                     "a vine3d run that saved its warm start's contact pairs: run the scene again");
  const io::NpyArray& pairs = run.array("qp_warm_start_pairs");
  const std::size_t size = pairs_record_size(model);
  if (pairs.shape.size() != 2 || pairs.shape[1] != size || pairs.shape[0] <= frame) return {};
  const double* record = pairs.data.data() + size * frame;
  const std::size_t obstacles = model.obstacles.size();
  for (std::size_t bit = 0; bit < static_cast<std::size_t>(model.num_bodies) * obstacles; ++bit)
    if (vine::packed_flag(record + 1, bit))
      out.pairs.push_back({static_cast<int>(bit / obstacles), static_cast<int>(bit % obstacles)});
  // a run of another contact model (friction: 4 rows per point, else 1): the first step starts cold
  const std::size_t rows_per_point = model.friction > 0.0 ? 4 : 1;
  if (static_cast<double>(out.pairs.size()) != record[0] ||
      out.active.size() != 3 * rows_per_point * out.pairs.size())
    return {};
  return out;
}

}  // namespace tendril::vine3d
