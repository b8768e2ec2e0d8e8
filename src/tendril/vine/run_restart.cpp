#include "tendril/vine/run_restart.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::vine {

namespace {

constexpr int kHeader = 3;  // row count, key low and high 32 bits
// bit of the row count set when the flags are the dual active-set method's working set
constexpr std::int64_t kDualBit = std::int64_t{1} << 32;
constexpr int kFlagsPerValue = 32;

/// Values per frame of qp_warm_start for a step with at most `max_rows` inequality rows.
std::size_t warm_start_record_size(int max_rows) {
  return static_cast<std::size_t>(kHeader + (max_rows + kFlagsPerValue - 1) / kFlagsPerValue);
}

/// `warm_start` as one frame of qp_warm_start.
std::vector<std::int64_t> pack_warm_start(const VineWarmStart& warm_start, int max_rows) {
  std::vector<std::int64_t> record(warm_start_record_size(max_rows), 0);
  const int rows = static_cast<int>(warm_start.active.size());
  if (rows == 0 || rows > max_rows) {
    record[0] = -1;
    return record;
  }
  // the dual active-set method's working set (flags 2, qp_solver.hpp) is marked in bit 32 of the
  // row count
  const bool dual =
      std::find(warm_start.active.begin(), warm_start.active.end(), 2) != warm_start.active.end();
  record[0] = rows | (dual ? kDualBit : 0);
  record[1] = static_cast<std::int64_t>(warm_start.rows_key & 0xffffffffu);
  record[2] = static_cast<std::int64_t>(warm_start.rows_key >> 32);
  pack_flags(warm_start.active, record, kHeader);
  return record;
}

}  // namespace

void pack_flags(const std::vector<char>& flags, std::vector<std::int64_t>& values,
                std::size_t first) {
  for (std::size_t r = 0; r < flags.size(); ++r)
    if (flags[r]) values[first + r / kFlagsPerValue] |= std::int64_t{1} << (r % kFlagsPerValue);
}

bool packed_flag(const double* values, std::size_t r) {
  return (static_cast<std::int64_t>(values[r / kFlagsPerValue]) >> (r % kFlagsPerValue)) & 1;
}

io::NpyAppender& add_warm_start_array(io::RunDirectory& run, int max_rows) {
  return run.add_array(
      "qp_warm_start", io::NpyType::Int64, {warm_start_record_size(max_rows)}, "-",
      "QP active set the next step starts from (row count or -1, rows' key as two 32-bit halves, "
      "active flags 32 per value; bit 32 of the row count: the dual active-set method's working "
      "set): restarts continue exactly");
}

void append_warm_start(io::NpyAppender& array, const VineWarmStart& warm_start, int max_rows) {
  const std::vector<std::int64_t> record = pack_warm_start(warm_start, max_rows);
  array.append(std::span<const std::int64_t>(record.data(), record.size()));
}

io::NpyAppender& add_warm_start_array(io::RunDirectory& run, const VineStepper& stepper) {
  return add_warm_start_array(run, stepper.max_inequality_rows());
}

void append_warm_start(io::NpyAppender& array, const VineStepper& stepper) {
  append_warm_start(array, stepper.warm_start(), stepper.max_inequality_rows());
}

namespace {

/// The record of one frame unpacked (empty active set for -1 or a record that does not fit).
VineWarmStart unpack_warm_start(const double* record, std::size_t size) {
  VineWarmStart out;
  const auto header = static_cast<std::int64_t>(record[0]);
  const long rows = header < 0 ? -1 : static_cast<long>(header & (kDualBit - 1));
  if (rows <= 0 || warm_start_record_size(static_cast<int>(rows)) > size) return out;
  const char flag = header & kDualBit ? 2 : 1;
  out.rows_key =
      static_cast<std::uint64_t>(record[1]) | (static_cast<std::uint64_t>(record[2]) << 32);
  out.active.resize(static_cast<std::size_t>(rows));
  for (long r = 0; r < rows; ++r)
    out.active[r] = packed_flag(record + kHeader, static_cast<std::size_t>(r)) ? flag : 0;
  return out;
}

}  // namespace

RestartFrame read_restart_frame(const std::filesystem::path& run_dir, long frame,
                                const std::string& kind, int bodies,
                                const std::vector<std::string>& arrays, const std::string& key,
                                const std::string& frame_key) {
  RestartFrame out;
  try {
    out.run = io::read_run(run_dir);
  } catch (const InputError& e) {
    throw InputError(key, e.what(), fmt::format("a {} run folder written by this scene", kind));
  }
  if (out.run.kind != kind)
    throw InputError(key, fmt::format("a {} run", out.run.kind),
                     fmt::format("a {} run folder", kind));
  const io::NpyArray& per_body = out.run.array(arrays.front());
  const auto n = static_cast<std::size_t>(bodies);
  if (per_body.shape.size() != 3 || per_body.shape[1] != n)
    throw InputError(
        key, fmt::format("a run of {} bodies", per_body.shape.size() == 3 ? per_body.shape[1] : 0),
        fmt::format("a run of this scene's {} bodies", n));
  auto frames = static_cast<long>(out.run.array("frame_time").shape[0]);
  for (const std::string& name : arrays)
    frames = std::min(frames, static_cast<long>(out.run.array(name).shape[0]));
  const long chosen = frame < 0 ? frames + frame : frame;
  if (chosen < 0 || chosen >= frames)
    throw InputError(frame_key, std::to_string(frame),
                     fmt::format("a saved frame of the run: 0 to {} (or -1 to -{} from the end)",
                                 frames - 1, frames));
  out.frame = static_cast<std::size_t>(chosen);
  return out;
}

SavedVineState read_saved_state(const std::filesystem::path& run_dir, long frame,
                                const VineModel& model, const std::string& key,
                                const std::string& frame_key) {
  const RestartFrame saved = read_restart_frame(run_dir, frame, "vine", model.num_bodies,
                                                {"body_pose", "body_velocity"}, key, frame_key);
  const io::RunData& run = saved.run;
  const io::NpyArray& pose = run.array("body_pose");
  const io::NpyArray& velocity = run.array("body_velocity");
  const io::NpyArray& time = run.array("frame_time");
  const auto n = static_cast<std::size_t>(model.num_bodies);
  const std::size_t f = saved.frame;
  SavedVineState out;
  out.state.time = time.data[f];
  out.state.q = Eigen::Map<const VecX>(pose.data.data() + 3 * n * f, static_cast<int>(3 * n));
  out.state.v = Eigen::Map<const VecX>(velocity.data.data() + 3 * n * f, static_cast<int>(3 * n));
  out.warm_start = saved_warm_start(run, f);
  return out;
}

VineWarmStart saved_warm_start(const io::RunData& run, std::size_t frame) {
  if (!run.has("qp_warm_start")) return {};
  const io::NpyArray& warm = run.array("qp_warm_start");
  const std::size_t size = warm.shape.size() == 2 ? warm.shape[1] : 0;
  if (size < 1 || warm.shape[0] <= frame) return {};
  return unpack_warm_start(warm.data.data() + size * frame, size);
}

}  // namespace tendril::vine
