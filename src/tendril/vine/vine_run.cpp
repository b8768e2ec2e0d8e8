#include "tendril/vine/vine_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include <fmt/format.h>

#include "tendril/vine/run_restart.hpp"

namespace tendril::vine {

namespace {

/// The first non-finite quantity of a state after a step ("" if all are finite).
std::string non_finite_quantity(const VineState& state, bool impulses_finite) {
  if (!std::isfinite(state.time)) return "the time";
  if (!state.q.allFinite()) return "the body poses q";
  if (!state.v.allFinite()) return "the body velocities v";
  if (!impulses_finite) return "a contact normal impulse";
  return "";
}

/// Why step k + 1 (report `rep`, ending at `state`) ends the run, or "": a QP that did not solve, a
/// non-finite state or impulse, joint drift or an energy blow-up (with the friction-jam hint where
/// it applies).
std::string step_failure(const VineStepReport& rep, const VineModel& m, const VineState& state,
                         long k, bool impulses_finite) {
  // a tip wedged against a frictional obstacle under hard growth: the QP stays feasible, but the
  // growth rate can be met only with huge contact impulses (tests/unit/vine/test_vine_step.cpp,
  // FrictionJam), so the step either ends at the QP's iteration limit or sets the vine flying
  const bool may_jam =
      rep.contact_pairs > 0 && m.friction > 0.0 && m.growth_control == GrowthControl::rate;
  const char* jam_hint =
      may_jam ? "; with growth control 'rate' and friction at a contact this is usually a "
                "jam (the growth rate can be met only with ever larger contact impulses): "
                "vine.growth.control: force_limited lets the growth stall instead"
              : "";
  if (rep.status != QpStatus::solved)
    return fmt::format("step {} at t = {:.6g} s: QP {} (KKT residual {:.3g}){}", k + 1, state.time,
                       to_string(rep.status), rep.kkt_residual,
                       rep.status == QpStatus::max_iterations ? jam_hint : "");
  const std::string bad = non_finite_quantity(state, impulses_finite);
  if (!bad.empty())
    return fmt::format("step {} at t = {:.6g} s: {} became non-finite", k + 1, state.time, bad);
  if (rep.failure == VineFailure::joint_drift)
    return fmt::format(
        "step {} at t = {:.6g} s: joint drift: |c(q)| = {:.3g} m exceeds vine.limits.joint_error "
        "= {:.3g} m (unstable springs? try vine.springs: implicit or a smaller dt)",
        k + 1, state.time, rep.joint_error, m.max_joint_error);
  if (rep.failure != VineFailure::none)
    return fmt::format(
        "step {} at t = {:.6g} s: energy blow-up: kinetic energy {:.3g} J exceeds 1/2 (sum m) "
        "vine.limits.speed^2 (speed {:.3g} m/s){}",
        k + 1, state.time, rep.kinetic_energy, m.max_speed, jam_hint);
  return {};
}

/// The arrays of a vine run (run_vine in vine_scene.hpp lists them).
class VineRunRecord : public io::RunRecord {
 public:
  VineRunRecord(io::RunDirectory& run, const VineRun& vine);
  void save_frame() override;
  void write_step(double wall_time) override;

 private:
  using Array = io::NpyAppender*;
  void add_frame_arrays(io::RunDirectory& run);

  const VineRun& vine_;
  Array frame_time_ = nullptr, pose_ = nullptr, velocity_ = nullptr, centerline_ = nullptr,
        warm_start_ = nullptr;
  VineStepRows step_rows_;
  Array impulses_ = nullptr, step_pairs_ = nullptr;
  std::vector<double> buffer_;  ///< one frame of the centerline
};

VineRunRecord::VineRunRecord(io::RunDirectory& run, const VineRun& vine) : vine_(vine) {
  run.set_info("num_bodies", io::Json(static_cast<std::int64_t>(vine_.model().num_bodies)));
  run.set_info("num_contact_pairs",
               io::Json(static_cast<std::int64_t>(vine_.last_normal_impulses().size())));
  run.set_info("initial_state_projection_m", io::Json(vine_.scene().projection.max_move));
  add_frame_arrays(run);
  const StepRowDocs docs{"|c(q_k)|_inf joint error at the start of the step",
                         "smallest contact distance Phi(q_k) (inf without obstacles)",
                         "achieved total growth rate sum_j G_bar_j v_{k+1} (below u when stalled)",
                         "contact pairs with a positive normal impulse"};
  step_rows_ = VineStepRows(run, docs, [&] {
    impulses_ = &run.add_array(
        "contact_normal_impulse", io::NpyType::Float64, {vine_.last_normal_impulses().size()},
        "N s",
        "normal impulse n per (contact element, obstacle) pair, element-major (elements: "
        "bodies, or contact points with contact.model: point)",
        "step");
  });
  step_pairs_ = &run.add_array("step_contact_pairs", io::NpyType::Int64, {}, "-",
                               "contact pairs with rows in the QP (near contact)", "step");
  warm_start_ = &add_warm_start_array(run, vine_.stepper());
}

void VineRunRecord::add_frame_arrays(io::RunDirectory& run) {
  const auto nb = static_cast<std::size_t>(vine_.model().num_bodies);
  frame_time_ =
      &run.add_array("frame_time", io::NpyType::Float64, {}, "s", "time of each saved frame");
  pose_ = &run.add_array("body_pose", io::NpyType::Float64, {nb, 3}, "m, m, rad",
                         "(x, y, theta) of each body's centre of mass, base to tip");
  velocity_ = &run.add_array("body_velocity", io::NpyType::Float64, {nb, 3}, "m/s, m/s, rad/s",
                             "(vx, vy, omega) of each body");
  centerline_ = &run.add_array("centerline", io::NpyType::Float64, {nb + 1, 2}, "m",
                               "base, proximal end of bodies 1..n-1, tip");
}

void VineRunRecord::save_frame() {
  const VineState& state = vine_.state();
  const auto values = static_cast<std::size_t>(state.q.size());
  io::append_scalar(*frame_time_, state.time);
  pose_->append(std::span<const double>(state.q.data(), values));
  velocity_->append(std::span<const double>(state.v.data(), values));
  const std::vector<Vec2> points = centerline_points(vine_.model(), state.q);
  buffer_.resize(2 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    buffer_[2 * i] = points[i].x();
    buffer_[2 * i + 1] = points[i].y();
  }
  centerline_->append(std::span<const double>(buffer_.data(), buffer_.size()));
  append_warm_start(*warm_start_, vine_.stepper());
}

void VineRunRecord::write_step(double wall_time) {
  const VineStepReport& rep = vine_.last_report();
  step_rows_.append(rep, vine_.state().time, vine_.last_growth_command(), wall_time);
  io::append_scalar(*step_pairs_, static_cast<std::int64_t>(rep.contact_pairs));
  const std::vector<double>& normal = vine_.last_normal_impulses();
  impulses_->append(std::span<const double>(normal.data(), normal.size()));
}

}  // namespace

VineRun::VineRun(VineScene scene)
    : VineRunBase(std::move(scene)),
      normal_(static_cast<std::size_t>(model().num_contact_elements()) * model().obstacles.size()) {
}

std::string VineRun::check_step() {
  const VineModel& m = model();
  std::fill(normal_.begin(), normal_.end(), 0.0);
  bool impulses_finite = true;
  for (const ContactInfo& c : stepper().contacts()) {
    normal_[c.point * m.obstacles.size() + c.obstacle] += c.normal_impulse;
    impulses_finite = impulses_finite && std::isfinite(c.normal_impulse);
  }
  return step_failure(last_report(), m, state(), steps(), impulses_finite);
}

std::unique_ptr<io::RunRecord> VineRun::begin_record(io::RunDirectory& run) {
  return std::make_unique<VineRunRecord>(run, *this);
}

io::RunResult run_vine(const VineScene& scene, const std::filesystem::path& out_dir,
                       const std::function<void(const io::RunProgress&)>& progress) {
  VineRun run(scene);
  return io::run(run, out_dir, progress);
}

}  // namespace tendril::vine
