#include "tendril/vine3d/vine3d_run.hpp"

#include <cmath>
#include <cstdint>
#include <span>

#include <fmt/format.h>

#include "tendril/vine/run_restart.hpp"
#include "tendril/vine3d/run_warm_start.hpp"

namespace tendril::vine3d {

namespace {

/// Why step k + 1 (report `rep`, ending at `state`) ends the run, or "".
std::string step_failure(const Vine3dStepReport& rep, const Vine3dModel& m,
                         const Vine3dState& state, long k) {
  if (rep.status != qp::QpStatus::solved)
    return fmt::format("step {} at t = {:.6g} s: QP {} (KKT residual {:.3g})", k + 1, state.time,
                       qp::to_string(rep.status), rep.kkt_residual);
  if (rep.failure == Vine3dFailure::joint_drift)
    return fmt::format(
        "step {} at t = {:.6g} s: joint drift: |c(q)| = {:.3g} m exceeds vine3d.limits.joint_error "
        "= {:.3g} m (unstable springs? try vine3d.springs: implicit or a smaller dt)",
        k + 1, state.time, rep.joint_error, m.max_joint_error);
  bool finite = std::isfinite(state.time) && state.velocity.allFinite();
  for (int i = 0; i < m.num_bodies; ++i)
    finite = finite && state.position[i].allFinite() && state.orientation[i].coeffs().allFinite();
  if (!finite)
    return fmt::format("step {} at t = {:.6g} s: the state became non-finite", k + 1, state.time);
  return {};
}

/// The arrays of a 3D vine run (vine3d_run.hpp lists them).
class Vine3dRunRecord : public io::RunRecord {
 public:
  Vine3dRunRecord(io::RunDirectory& run, const Vine3dRun& vine);
  void save_frame() override;
  void write_step(double wall_time) override;

 private:
  using Array = io::NpyAppender*;
  void add_frame_arrays(io::RunDirectory& run);

  const Vine3dRun& vine_;
  Array frame_time_ = nullptr, position_ = nullptr, orientation_ = nullptr, velocity_ = nullptr,
        centerline_ = nullptr;
  WarmStartArrays warm_start_;
  vine::VineStepRows step_rows_;
  std::vector<double> buffer_;  ///< one frame of one array
};

Vine3dRunRecord::Vine3dRunRecord(io::RunDirectory& run, const Vine3dRun& vine) : vine_(vine) {
  run.set_info("num_bodies", io::Json(static_cast<std::int64_t>(vine_.model().num_bodies)));
  run.set_info("num_obstacles",
               io::Json(static_cast<std::int64_t>(vine_.model().obstacles.size())));
  add_frame_arrays(run);
  step_rows_ = vine::VineStepRows(
      run, {"largest joint position error at the start of the step",
            "smallest contact distance Phi(q_k) of the pairs near contact (inf if none)",
            "achieved total growth rate sum_j G_bar_j V_{k+1}",
            "contact rows with a positive normal impulse"});
  warm_start_ = add_warm_start_arrays(run, vine_.stepper());
}

void Vine3dRunRecord::add_frame_arrays(io::RunDirectory& run) {
  const auto nb = static_cast<std::size_t>(vine_.model().num_bodies);
  frame_time_ =
      &run.add_array("frame_time", io::NpyType::Float64, {}, "s", "time of each saved frame");
  position_ = &run.add_array("body_position", io::NpyType::Float64, {nb, 3}, "m",
                             "centre of mass of each body, base to tip");
  orientation_ = &run.add_array("body_orientation", io::NpyType::Float64, {nb, 4}, "-",
                                "unit quaternion (w, x, y, z) of each body (body to world; the "
                                "body's x axis is along the vine)");
  velocity_ = &run.add_array("body_velocity", io::NpyType::Float64, {nb, 6}, "m/s, rad/s",
                             "(v, omega) of each body in the world frame");
  centerline_ = &run.add_array("centerline", io::NpyType::Float64, {nb + 1, 3}, "m",
                               "base, proximal end of bodies 1..n-1, tip");
}

void Vine3dRunRecord::save_frame() {
  const Vine3dState& state = vine_.state();
  const auto n = state.position.size();
  io::append_scalar(*frame_time_, state.time);
  buffer_.resize(4 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) buffer_[3 * i + k] = state.position[i](k);
  position_->append(std::span<const double>(buffer_.data(), 3 * n));
  for (std::size_t i = 0; i < n; ++i) {
    const Quat& r = state.orientation[i];
    buffer_[4 * i] = r.w();
    buffer_[4 * i + 1] = r.x();
    buffer_[4 * i + 2] = r.y();
    buffer_[4 * i + 3] = r.z();
  }
  orientation_->append(std::span<const double>(buffer_.data(), 4 * n));
  velocity_->append(std::span<const double>(state.velocity.data(), 6 * n));
  const std::vector<Vec3> points = centerline_points(vine_.model(), state);
  buffer_.resize(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    for (int k = 0; k < 3; ++k) buffer_[3 * i + k] = points[i](k);
  centerline_->append(std::span<const double>(buffer_.data(), buffer_.size()));
  append_warm_start(warm_start_, vine_.stepper());
}

void Vine3dRunRecord::write_step(double wall_time) {
  step_rows_.append(vine_.last_report(), vine_.state().time, vine_.last_growth_command(),
                    wall_time);
}

}  // namespace

std::string Vine3dRun::check_step() {
  return step_failure(last_report(), model(), state(), steps());
}

std::unique_ptr<io::RunRecord> Vine3dRun::begin_record(io::RunDirectory& run) {
  return std::make_unique<Vine3dRunRecord>(run, *this);
}

}  // namespace tendril::vine3d
