#include "tendril/vine3d/vine3d_run.hpp"

#include <cmath>
#include <cstdint>
#include <span>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/vine/run_restart.hpp"

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
  void add_step_arrays(io::RunDirectory& run);

  const Vine3dRun& vine_;
  Array frame_time_ = nullptr, position_ = nullptr, orientation_ = nullptr, velocity_ = nullptr,
        centerline_ = nullptr, warm_start_ = nullptr;
  Array step_time_ = nullptr, step_status_ = nullptr, step_iterations_ = nullptr,
        step_kkt_ = nullptr, step_joint_ = nullptr, step_min_distance_ = nullptr, growth_ = nullptr,
        achieved_ = nullptr, step_wall_ = nullptr, step_active_ = nullptr;
  std::vector<double> buffer_;  ///< one frame of one array
};

Vine3dRunRecord::Vine3dRunRecord(io::RunDirectory& run, const Vine3dRun& vine) : vine_(vine) {
  run.set_info("num_bodies", io::Json(static_cast<std::int64_t>(vine_.model().num_bodies)));
  run.set_info("num_obstacles",
               io::Json(static_cast<std::int64_t>(vine_.model().obstacles.size())));
  add_frame_arrays(run);
  add_step_arrays(run);
  warm_start_ = &vine::add_warm_start_array(run, vine_.stepper().max_inequality_rows());
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

void Vine3dRunRecord::add_step_arrays(io::RunDirectory& run) {
  const auto add = [&](const char* name, io::NpyType type, const char* unit, const char* doc) {
    return &run.add_array(name, type, {}, unit, doc, "step");
  };
  step_time_ = add("step_time", io::NpyType::Float64, "s", "time at the end of each step");
  step_status_ =
      add("step_status", io::NpyType::Int64, "-",
          "QP status: 0 solved, 1 infeasible, 2 unbounded, 3 max iterations, 4 numerical failure");
  step_iterations_ = add("step_qp_iterations", io::NpyType::Int64, "-", "QP iterations");
  step_kkt_ = add("step_kkt_residual", io::NpyType::Float64, "-", "scaled KKT residual");
  step_joint_ = add("step_joint_error", io::NpyType::Float64, "m",
                    "largest joint position error at the start of the step");
  step_min_distance_ =
      add("step_min_distance", io::NpyType::Float64, "m",
          "smallest contact distance Phi(q_k) of the pairs near contact (inf if none)");
  growth_ = add("growth_rate", io::NpyType::Float64, "m/s", "commanded total growth rate u");
  achieved_ = add("achieved_growth_rate", io::NpyType::Float64, "m/s",
                  "achieved total growth rate sum_j G_bar_j V_{k+1}");
  step_wall_ = add("step_wall_time", io::NpyType::Float64, "s", "wall-clock time of the step");
  step_active_ = add("step_active_contacts", io::NpyType::Int64, "-",
                     "contact rows with a positive normal impulse");
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
  vine::append_warm_start(*warm_start_, vine_.stepper().warm_start(),
                          vine_.stepper().max_inequality_rows());
}

void Vine3dRunRecord::write_step(double wall_time) {
  const Vine3dStepReport& rep = vine_.last_report();
  io::append_scalar(*step_time_, vine_.state().time);
  io::append_scalar(*step_status_, static_cast<std::int64_t>(rep.status));
  io::append_scalar(*step_iterations_, static_cast<std::int64_t>(rep.qp_iterations));
  io::append_scalar(*step_kkt_, rep.kkt_residual);
  io::append_scalar(*step_joint_, rep.joint_error);
  io::append_scalar(*step_min_distance_, rep.min_distance);
  io::append_scalar(*growth_, vine_.last_growth_command());
  io::append_scalar(*achieved_, rep.growth_rate);
  io::append_scalar(*step_wall_, wall_time);
  io::append_scalar(*step_active_, static_cast<std::int64_t>(rep.active_contacts));
}

}  // namespace

std::vector<Vec3> centerline_points(const Vine3dModel& model, const Vine3dState& state) {
  std::vector<Vec3> points{model.base};
  for (int i = 1; i < model.num_bodies; ++i)
    points.push_back(state.position[i] -
                     model.half_length[i] * (state.orientation[i] * Vec3::UnitX()));
  const int tip = model.num_bodies - 1;
  points.push_back(state.position[tip] +
                   model.half_length[tip] * (state.orientation[tip] * Vec3::UnitX()));
  return points;
}

Vine3dRun::Vine3dRun(Vine3dScene scene)
    : scene_(std::move(scene)), stepper_(scene_.model), state_(scene_.initial) {
  stepper_.set_warm_start(scene_.warm_start);
}

Vine3dStepReport Vine3dRun::step() {
  command_ = model().growth.rate(state_.time);
  return finish_step(stepper_.step(state_));
}

Vine3dStepReport Vine3dRun::step(const VecX& joint_rates) {
  command_ = joint_rates.sum();
  return finish_step(stepper_.step(state_, joint_rates));
}

Vine3dStepReport Vine3dRun::finish_step(const Vine3dStepReport& report) {
  report_ = report;
  message_ = step_failure(report_, model(), state_, steps_);
  if (message_.empty()) ++steps_;
  return report_;
}

io::StepSummary Vine3dRun::advance() {
  step();
  io::StepSummary out;
  out.iterations = report_.qp_iterations;
  out.failure = message_;
  out.save = out.ok() && steps_ % scene_.save_every == 0;
  return out;
}

double Vine3dRun::duration() const {
  return static_cast<double>(scene_.steps) * model().dt;
}

std::unique_ptr<io::RunRecord> Vine3dRun::begin_record(io::RunDirectory& run) {
  return std::make_unique<Vine3dRunRecord>(run, *this);
}

void Vine3dRun::restore(const std::filesystem::path& run_dir, long frame) {
  if (steps_ != 0)
    throw InputError("vine3d.initial_state.run",
                     fmt::format("a simulation that has taken {} steps", steps_),
                     "a restart before the first step");
  SavedVine3dState saved = read_saved_state(run_dir, frame, model(), "vine3d.initial_state.run",
                                            "vine3d.initial_state.frame");
  state_ = std::move(saved.state);
  stepper_.set_warm_start(std::move(saved.warm_start));
}

}  // namespace tendril::vine3d
