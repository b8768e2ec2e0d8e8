#include "tendril/fit/fitted_trajectory.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "tendril/core/number_text.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

RunSettings fitted_vine_settings(const FitFile& file, const FitReport& report) {
  RunSettings settings = file.data.experiments.front();
  // the values in report order: K (one, or one per joint), then C as many
  const Eigen::Index per = report.values.size() / 2;
  for (Eigen::Index p = 0; p < 2; ++p) {
    std::string list;
    for (Eigen::Index j = 0; j < per; ++j)
      list += (j ? ", " : "") + number_text(report.values[p * per + j], 17);
    settings.push_back(file.parameters[static_cast<std::size_t>(p)].key + "=[" + list + "]");
  }
  settings.push_back("vine.steps=" + std::to_string(file.frames.back().step));
  return settings;
}

std::string unwritable_trajectory_key(const FitFile& file) {
  const std::vector<std::string> settable = {"vine.stiffness", "vine.damping"};
  for (std::size_t k = 0; k < file.parameters.size(); ++k)
    if (k >= settable.size() || file.parameters[k].key != settable[k])
      return file.parameters[k].key;
  return file.parameters.size() == settable.size() ? "" : "vine.damping";
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
