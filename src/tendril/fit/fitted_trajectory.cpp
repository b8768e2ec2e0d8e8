#include "tendril/fit/fitted_trajectory.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tendril/core/number_text.hpp"
#include "tendril/fit/track_import.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace {

using Kind = VineParameterKind;

/// `assignment` ("key=value") in `settings`, replacing an earlier assignment of the same key.
void set_override(RunSettings& settings, const std::string& assignment) {
  const std::string key = assignment.substr(0, assignment.find('=') + 1);
  std::erase_if(settings, [&](const std::string& s) { return s.rfind(key, 0) == 0; });
  settings.push_back(assignment);
}

/// True if the scene's growth schedule comes from a CSV table (`vine.growth.table_csv`), whose
/// samples no override can set.
bool growth_from_csv(const vine::VineScene& scene) {
  const io::Json* v = scene.resolved.find("vine");
  const io::Json* growth = v ? v->find("growth") : nullptr;
  return growth && growth->find("table_csv") && !growth->find("table_csv")->is_null();
}

/// The scene override that sets fitted parameter `p` as `model` has it.
std::string parameter_override(const vine::VineModel& model, const VineParameter& p) {
  const auto real = [](double v) { return number_text(v, 17); };
  const auto list = [](const std::vector<double>& v) {
    return reals_text(Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size())));
  };
  switch (p.kind) {
    case Kind::stiffness:
      return "vine.stiffness=" + list(model.stiffness);
    case Kind::damping:
      return "vine.damping=" + list(model.damping);
    case Kind::growth_rate:
      return model.growth.num_samples() == 1
                 ? "vine.growth.rate=" + real(model.growth.sample_rate(0))
                 : fmt::format("vine.growth.schedule[{}][1]={}", p.index,
                               real(model.growth.sample_rate(p.index)));
    case Kind::heading:
      return "vine.rest_angles=" + list(model.rest_angle);
    case Kind::contact_radius:
      return "vine.contact.radius=" + real(model.contact_radius);
    case Kind::collapse_moment:  // M_c = pi p r^3 with r held
      return "vine.inflated_beam.pressure=" + real(model.inflated_beam.pressure);
    case Kind::wrinkling_angle:  // theta_w = l eps_w / r with r and l held
      return "vine.inflated_beam.wrinkling_strain=" + real(model.inflated_beam.wrinkling_strain);
  }
  return "";
}

}  // namespace

RunSettings fitted_vine_settings(const FitFile& file, const FitReport& report) {
  RunSettings settings = file.data.experiments.front();
  vine::VineModel model = vine_scene_at_initial_values(file, settings).model;
  // the report's values: one per parameter, but with joint_estimation's per_joint K and C (the
  // first two) one per pin each
  const auto np = static_cast<Eigen::Index>(file.parameters.size());
  const Eigen::Index per = (report.values.size() - np) / 2 + 1;
  for (Eigen::Index k = 0; k < np; ++k) {
    const VineParameter& p = file.vine_parameters[static_cast<std::size_t>(k)];
    const Eigen::Index e = k < 2 ? k * per : k + 2 * (per - 1);
    if (per > 1 && k < 2) {
      std::vector<double>& pins = p.kind == Kind::stiffness ? model.stiffness : model.damping;
      for (Eigen::Index j = 0; j < per; ++j)
        pins[static_cast<std::size_t>(j)] = report.values[e + j];
    } else {
      set_vine_parameter(model, p, report.values[e]);
    }
  }
  for (const VineParameter& p : file.vine_parameters)
    set_override(settings, parameter_override(model, p));
  if (report.start.size() > 0)
    set_override(settings, "vine.initial_state={q: " + reals_text(report.start) + "}");
  set_override(settings, "vine.steps=" + std::to_string(file.frames.back().step));
  return settings;
}

std::string unwritable_trajectory_key(const FitFile& file) {
  const vine::VineScene scene =
      vine::load_vine_scene_file(file.scene, file.data.experiments.front());
  for (std::size_t k = 0; k < file.parameters.size(); ++k)
    if (file.vine_parameters[k].kind == Kind::growth_rate && growth_from_csv(scene))
      return file.parameters[k].key;
  return "";
}

io::RunResult write_fitted_trajectory(const FitFile& file, const FitReport& report,
                                      const std::filesystem::path& out_dir) {
  return vine::run_vine(vine::load_vine_scene_file(file.scene, fitted_vine_settings(file, report)),
                        out_dir);
}

std::filesystem::path write_measured_run(const FitFile& file,
                                         const std::filesystem::path& out_dir) {
  const vine::VineScene scene =
      vine::load_vine_scene_file(file.scene, file.data.experiments.front());
  const auto points = static_cast<std::size_t>(file.frames.front().points.rows());
  for (const MeasuredFrame& f : file.frames)
    if (static_cast<std::size_t>(f.points.rows()) != points) return {};
  io::RunDirectory dir(out_dir, "vine", scene.resolved);
  dir.set_info("measured", "the fit's measured frames (residuals.csv), not a simulation");
  io::NpyAppender& time = dir.add_array("frame_time", io::NpyType::Float64, {}, "s", "frame time");
  io::NpyAppender& line = dir.add_array("centerline", io::NpyType::Float64, {points, 2}, "m",
                                        "measured centre-line points, base to tip");
  io::NpyAppender& pose = dir.add_array("body_pose", io::NpyType::Float64, {points - 1, 3},
                                        "m, m, rad", "segments between the points: x, y, theta");
  for (const MeasuredFrame& f : file.frames) {
    io::append_scalar(time, f.step * scene.model.dt);
    std::vector<double> xy, segments;
    for (std::size_t k = 0; k < points; ++k) {
      const Vec2 p = f.points.row(static_cast<Eigen::Index>(k)).transpose();
      xy.insert(xy.end(), {p.x(), p.y()});
      if (k + 1 == points) continue;
      const Vec2 q = f.points.row(static_cast<Eigen::Index>(k + 1)).transpose();
      segments.insert(segments.end(), {0.5 * (p.x() + q.x()), 0.5 * (p.y() + q.y()),
                                       std::atan2(q.y() - p.y(), q.x() - p.x())});
    }
    line.append(std::span<const double>(xy));
    pose.append(std::span<const double>(segments));
  }
  return dir.finish();
}

}  // namespace tendril::fit
