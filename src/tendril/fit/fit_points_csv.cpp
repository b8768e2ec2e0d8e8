#include "tendril/fit/fit_points_csv.hpp"

#include <fstream>
#include <system_error>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::fit {

std::string fit_points_csv(const std::vector<MeasuredFrame>& frames,
                           const std::vector<MatX>& simulated) {
  TENDRIL_ASSERT(simulated.size() <= frames.size(), "at most one simulated point set per frame");
  std::string csv = "frame,step,point,measured_x,measured_y,simulated_x,simulated_y\n";
  for (std::size_t f = 0; f < simulated.size(); ++f) {
    const MatX& measured = frames[f].points;
    const Eigen::Index first =
        simulated[f].rows() == measured.rows() ? 0 : measured.rows() - simulated[f].rows();
    for (Eigen::Index p = 0; p < simulated[f].rows(); ++p)
      csv += fmt::format("{},{},{},{:.9g},{:.9g},{:.9g},{:.9g}\n", f, frames[f].step, first + p,
                         measured(first + p, 0), measured(first + p, 1), simulated[f](p, 0),
                         simulated[f](p, 1));
  }
  return csv;
}

void write_fit_points_csv(const std::filesystem::path& file,
                          const std::vector<MeasuredFrame>& frames,
                          const std::vector<MatX>& simulated) {
  TENDRIL_ASSERT(frames.size() == simulated.size(), "one simulated point set per frame");
  const std::filesystem::path partial = file.string() + ".partial";
  {
    std::ofstream out(partial);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", partial.string()));
    out << fit_points_csv(frames, simulated);
    if (!out.flush()) {
      std::error_code ignored;
      std::filesystem::remove(partial, ignored);
      throw std::runtime_error(fmt::format("writing {} failed", partial.string()));
    }
  }
  std::filesystem::rename(partial, file);
}

}  // namespace tendril::fit
