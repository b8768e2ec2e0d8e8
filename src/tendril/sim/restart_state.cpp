#include "tendril/sim/restart_state.hpp"

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::sim {

namespace {

constexpr std::size_t kScalars = 4;  // steps, work, t, has_forces

/// Copies between a flat record and the record's vectors, in the layout's order.
template <class Visit>
void visit_vectors(RestartRecord& r, Visit&& visit) {
  visit(r.state.q.data(), r.state.q.size());
  visit(r.state.u.data(), r.state.u.size());
  visit(r.forces.data(), r.forces.size());
  visit(r.acceleration.data(), r.acceleration.size());
  for (std::vector<Vec3>* v : {&r.state.frames.tangent, &r.state.frames.reference_director})
    visit(v->empty() ? nullptr : v->front().data(), 3 * static_cast<Eigen::Index>(v->size()));
  visit(r.state.frames.reference_twist.data(), static_cast<Eigen::Index>(r.state.frames.reference_twist.size()));
  std::vector<Vec3>& tau = r.state.frames.shell_edge_tau;
  visit(tau.empty() ? nullptr : tau.front().data(), 3 * static_cast<Eigen::Index>(tau.size()));
}

}  // namespace

std::size_t restart_record_size(const State& like) {
  const RodFrames& f = like.frames;
  return kScalars + 4 * static_cast<std::size_t>(like.q.size()) + 6 * f.tangent.size() + f.reference_twist.size() +
         3 * f.shell_edge_tau.size();
}

void pack_restart(const RestartRecord& record, std::vector<double>& out) {
  RestartRecord r = record;
  const bool has_forces = r.forces.size() == r.state.q.size();
  if (!has_forces) r.forces = VecX::Zero(r.state.q.size());
  out.assign({static_cast<double>(r.steps), r.work, r.state.time, has_forces ? 1.0 : 0.0});
  visit_vectors(r, [&](const double* data, Eigen::Index size) { out.insert(out.end(), data, data + size); });
}

RestartRecord read_restart(const std::filesystem::path& run_dir, long frame, const State& like,
                           const std::string& key) {
  io::RunData run;
  try {
    run = io::read_run(run_dir);
  } catch (const InputError& e) {
    throw InputError(key + ".run", e.what(), "a run folder written by this scene");
  }
  const std::size_t size = restart_record_size(like);
  if (run.kind != "rod" || !run.has("restart_state"))
    throw InputError(key + ".run", run_dir.string(), "a rod or shell run folder with the array restart_state");
  const io::NpyArray& a = run.array("restart_state");
  if (a.shape.size() != 2 || a.shape[1] != size)
    throw InputError(key + ".run", fmt::format("a run with {} restart values per frame", a.shape.size() == 2 ? a.shape[1] : 0),
                     fmt::format("a run of this scene ({} values per frame)", size));
  const long frames = static_cast<long>(a.shape[0]);
  const long f = frame < 0 ? frames + frame : frame;
  if (f < 0 || f >= frames)
    throw InputError(key + ".frame", std::to_string(frame),
                     fmt::format("a saved frame: 0 to {} (or -1 to -{} from the end)", frames - 1, frames));
  const double* values = a.data.data() + static_cast<std::size_t>(f) * size;
  RestartRecord r;
  r.state = like;
  r.forces.resize(like.q.size());
  r.acceleration.resize(like.q.size());
  r.steps = static_cast<long>(values[0]);
  r.work = values[1];
  r.state.time = values[2];
  const bool has_forces = values[3] != 0.0;
  std::size_t at = kScalars;
  visit_vectors(r, [&](double* data, Eigen::Index n) {
    std::copy(values + at, values + at + n, data);
    at += static_cast<std::size_t>(n);
  });
  if (!has_forces) r.forces.resize(0);
  return r;
}

}  // namespace tendril::sim
