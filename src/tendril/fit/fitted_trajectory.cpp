#include "tendril/fit/fitted_trajectory.hpp"

#include <string>

#include "tendril/core/number_text.hpp"
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

io::RunResult write_fitted_trajectory(const FitFile& file, const FitReport& report,
                                      const std::filesystem::path& out_dir) {
  return vine::run_vine(vine::load_vine_scene_file(file.scene, fitted_vine_settings(file, report)),
                        out_dir);
}

}  // namespace tendril::fit
