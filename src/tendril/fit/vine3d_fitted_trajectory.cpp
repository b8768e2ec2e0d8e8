#include "tendril/fit/vine3d_fitted_trajectory.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tendril/core/number_text.hpp"
#include "tendril/fit/vine3d_fit_file.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/vine3d/vine3d_run.hpp"

namespace tendril::fit {

RunSettings fitted_vine3d_settings(const FitFile& file, const FitReport& report) {
  RunSettings settings = file.data.experiments.front();
  for (std::size_t k = 0; k < file.parameters.size(); ++k)
    settings.push_back(file.parameters[k].key + "=[" +
                       number_text(report.values[static_cast<Eigen::Index>(k)], 17) + "]");
  settings.push_back("vine3d.steps=" + std::to_string(file.tracked_points.back().step));
  return settings;
}

io::RunResult write_fitted_vine3d_trajectory(const FitFile& file, const FitReport& report,
                                             const std::filesystem::path& out_dir) {
  vine3d::Vine3dRun run(
      vine3d::load_vine3d_scene_file(file.scene, fitted_vine3d_settings(file, report)));
  return io::run(run, out_dir);
}

std::filesystem::path write_measured_vine3d_run(const FitFile& file,
                                                const std::filesystem::path& out_dir) {
  const vine3d::Vine3dScene scene =
      vine3d_scene_at_initial_values(file, file.data.experiments.front());
  const auto bodies = static_cast<std::size_t>(scene.model.num_bodies);
  io::RunDirectory dir(out_dir, "vine3d", scene.resolved);
  dir.set_info("num_bodies", io::Json(static_cast<std::int64_t>(bodies)));
  dir.set_info("measured", "the fit's tracked points (residuals.csv), not a simulation");
  io::NpyAppender& time = dir.add_array("frame_time", io::NpyType::Float64, {}, "s", "frame time");
  io::NpyAppender& line = dir.add_array("centerline", io::NpyType::Float64, {bodies + 1, 3}, "m",
                                        "tracked joint points: base, proximal ends, tip");
  io::NpyAppender& middle = dir.add_array("body_position", io::NpyType::Float64, {bodies, 3}, "m",
                                          "midpoints between the tracked joint points");
  for (const vine3d::TrackedFrame3& f : file.tracked_points) {
    io::append_scalar(time, scene.initial.time + f.step * scene.model.dt);
    std::vector<double> points, midpoints;
    for (Eigen::Index k = 0; k < f.points.rows(); ++k) {
      for (int c = 0; c < 3; ++c) points.push_back(f.points(k, c));
      if (k + 1 < f.points.rows())
        for (int c = 0; c < 3; ++c)
          midpoints.push_back(0.5 * (f.points(k, c) + f.points(k + 1, c)));
    }
    line.append(std::span<const double>(points));
    middle.append(std::span<const double>(midpoints));
  }
  return dir.finish();
}

}  // namespace tendril::fit
