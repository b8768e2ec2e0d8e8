#include "tendril/sim/restart_state.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::sim {

namespace {

constexpr std::size_t kScalars = 3;  // steps, work, has_forces

/// Copies between a flat record and the record's vectors, in the layout's order.
template <class Visit>
void visit_vectors(RestartRecord& r, Visit&& visit) {
  visit(r.state.u.data(), r.state.u.size());
  visit(r.forces.data(), r.forces.size());
  for (std::vector<Vec3>* v : {&r.state.frames.tangent, &r.state.frames.reference_director})
    visit(v->empty() ? nullptr : v->front().data(), 3 * static_cast<Eigen::Index>(v->size()));
  visit(r.state.frames.reference_twist.data(),
        static_cast<Eigen::Index>(r.state.frames.reference_twist.size()));
  std::vector<Vec3>& tau = r.state.frames.shell_edge_tau;
  visit(tau.empty() ? nullptr : tau.front().data(), 3 * static_cast<Eigen::Index>(tau.size()));
  visit(r.carried.data(), static_cast<Eigen::Index>(r.carried.size()));
}

}  // namespace

std::size_t restart_record_size(const RestartRecord& like) {
  const RodFrames& f = like.state.frames;
  return kScalars + 2 * static_cast<std::size_t>(like.state.q.size()) + 6 * f.tangent.size() +
         f.reference_twist.size() + 3 * f.shell_edge_tau.size() + like.carried.size();
}

FrameStateArrays::FrameStateArrays(io::RunDirectory& run, const RestartRecord& like)
    : work_(&run.add_array("work_of_forces", io::NpyType::Float64, {}, "J",
                           "work of the force terms (point loads and moments, drag, ...) since t = "
                           "0, trapezoidal per "
                           "step")),
      restart_(&run.add_array("restart_state", io::NpyType::Float64, {restart_record_size(like)},
                              "-",
                              "the state a restart continues from exactly besides q and t (layout: "
                              "docs/output_format.md#restarting-a-rod-or-shell-run)")) {}

void FrameStateArrays::append(const RestartRecord& record) {
  work_->append(std::span<const double>(&record.work, 1));
  RestartRecord r = record;
  const bool has_forces = r.forces.size() == r.state.q.size();
  if (!has_forces) r.forces = VecX::Zero(r.state.q.size());
  values_.assign({static_cast<double>(r.steps), r.work, has_forces ? 1.0 : 0.0});
  visit_vectors(r, [&](const double* data, Eigen::Index size) {
    values_.insert(values_.end(), data, data + size);
  });
  restart_->append(values_);
}

namespace {

/// Copies frame `f` of the frame array `name` (values per frame = `count`) into `out` (no-op if
/// count is 0).
void copy_frame(const io::RunData& run, const std::string& name, std::size_t f, std::size_t count,
                double* out, const std::string& key) {
  if (count == 0) return;
  const io::NpyArray& a = run.array(name);
  if (a.shape.empty() || a.shape[0] <= f || a.size() != a.shape[0] * count)
    throw InputError(key + ".run", fmt::format("a run whose {} does not match this scene", name),
                     "a run folder written by this scene");
  std::copy_n(a.data.data() + f * count, count, out);
}

}  // namespace

RestartRecord read_restart(const std::filesystem::path& run_dir, long frame, const DofMap& dofs,
                           const RestartRecord& like, const std::string& key) {
  io::RunData run;
  try {
    run = io::read_run(run_dir);
  } catch (const InputError& e) {
    throw InputError(key + ".run", e.what(), "a run folder written by this scene");
  }
  const std::size_t size = restart_record_size(like);
  if (run.kind != "rod" || !run.has("restart_state"))
    throw InputError(key + ".run", run_dir.string(),
                     "a rod or shell run folder with the array restart_state");
  const io::NpyArray& a = run.array("restart_state");
  if (a.shape.size() != 2 || a.shape[1] != size)
    throw InputError(
        key + ".run",
        fmt::format("a run with {} restart values per frame", a.shape.size() == 2 ? a.shape[1] : 0),
        fmt::format("a run of this scene ({} values per frame)", size));
  const long frames = static_cast<long>(a.shape[0]);
  const long f = frame < 0 ? frames + frame : frame;
  if (f < 0 || f >= frames)
    throw InputError(
        key + ".frame", std::to_string(frame),
        fmt::format("a saved frame: 0 to {} (or -1 to -{} from the end)", frames - 1, frames));
  const auto frame_index = static_cast<std::size_t>(f);
  const double* values = a.data.data() + frame_index * size;
  RestartRecord r;
  r.state = like.state;
  r.carried = like.carried;
  r.forces.resize(like.state.q.size());
  r.steps = static_cast<long>(values[0]);
  r.work = values[1];
  const bool has_forces = values[2] != 0.0;
  std::size_t at = kScalars;
  visit_vectors(r, [&](double* data, Eigen::Index n) {
    std::copy(values + at, values + at + n, data);
    at += static_cast<std::size_t>(n);
  });
  if (!has_forces) r.forces.resize(0);
  // t and q from the frame arrays
  copy_frame(run, "frame_time", frame_index, 1, &r.state.time, key);
  double* q = r.state.q.data();
  copy_frame(run, "positions", frame_index, 3 * static_cast<std::size_t>(dofs.num_nodes), q, key);
  copy_frame(run, "twists", frame_index, static_cast<std::size_t>(dofs.num_edges),
             q + 3 * dofs.num_nodes, key);
  if (dofs.num_shell_edges > 0)
    copy_frame(run, "xi", frame_index, static_cast<std::size_t>(dofs.num_shell_edges),
               q + dofs.xi(0), key);
  if (dofs.num_joint_edges > 0)
    copy_frame(run, "joint_twists", frame_index, static_cast<std::size_t>(dofs.num_joint_edges),
               q + dofs.joint_twist(0), key);
  return r;
}

}  // namespace tendril::sim
