#pragma once
/// The vine paper's growth-into-a-wall case (IV-B-2, Fig. 7) from the measured data in
/// ../shared/data/vine_wall_growth (its README: source, units, terms; never copied into the
/// repository): the CSV tables, and the model with the authors' initial-guess parameters (before
/// their fit: K = 0.05 N m/rad, C = 1e-5 N m s/rad, heading 1.31 rad, 8 mm/s per prismatic joint),
/// started straight through the measured base and tip of video frame 0, at rest.

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/source_tree.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/vine/obstacles.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::testing {

/// ../shared/data/vine_wall_growth beside the source tree, or an empty path when it is absent (a
/// clone of the repository alone); tests then skip with a message naming the path.
inline std::filesystem::path wall_growth_data_dir() {
  const std::filesystem::path dir = source_tree() / ".." / "shared" / "data" / "vine_wall_growth";
  return std::filesystem::exists(dir) ? dir : std::filesystem::path();
}

/// Rows of a CSV file of numbers, the header skipped.
inline std::vector<std::vector<double>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

struct WallGrowthCase {
  vine::VineModel model;
  vine::VineState start;
  std::vector<std::vector<double>> tip;  ///< per video frame: frame, 1-based step, t [s], x, y [mm]
  std::vector<std::vector<double>>
      points;  ///< frame, 1-based step, t [s], point, x, y [mm] (8 x 21 rows)
};

/// The vine of the case without its wall: 10 bodies, the authors' initial-guess parameters.
inline vine::VineModel wall_growth_vine() {
  vine::UniformVineParameters p;
  p.bodies = 10;
  p.half_length = 0.016845;
  p.tube_diameter = 0.024;
  p.mass = 1e-3;
  p.inertia = 2e-4;
  p.stiffness = 0.05;
  p.damping = 1e-5;
  p.heading = 1.31;
  p.dt = 1.0 / 90.0;
  vine::VineModel m = vine::uniform_vine(p);
  m.growth = vine::GrowthSchedule::constant(0.040);
  return m;
}

inline WallGrowthCase wall_growth_case(const std::filesystem::path& dir) {
  WallGrowthCase c;
  c.tip = read_csv(dir / "wall_growth_video_tip_mm.csv");
  c.points = read_csv(dir / "wall_growth_video_points_mm.csv");
  const auto wall =
      read_csv(dir / "wall_growth_wall_polygon_mm.csv");  // edge, x1, y1, x2, y2, nx, ny
  c.model = wall_growth_vine();
  std::vector<Vec2> corners;
  for (const auto& edge : wall) corners.push_back(1e-3 * Vec2(edge[1], edge[2]));
  c.model.obstacles = {vine::make_polygon(corners, 0.0, "wall")};
  // straight through the measured tip of frame 0, prismatic joints extended to its length
  const Vec2 tip0 = 1e-3 * Vec2(c.tip[0][3], c.tip[0][4]);
  const double extension =
      (tip0.norm() - 2 * c.model.num_bodies * c.model.half_length[0]) / c.model.num_prismatic();
  c.start = vine::straight_state(c.model, std::atan2(tip0.y(), tip0.x()), extension);
  return c;
}

/// Video frames first .. last (0-7) as measured frames: 21 points each [m] at their simulation
/// steps.
inline std::vector<fit::MeasuredFrame> wall_growth_frames(const WallGrowthCase& c, int first,
                                                          int last) {
  std::vector<fit::MeasuredFrame> frames;
  for (int f = first; f <= last; ++f) {
    fit::MeasuredFrame frame{0, MatX(21, 2)};
    for (const auto& row : c.points)
      if (static_cast<int>(row[0]) == f) {
        frame.step = static_cast<int>(row[1]) - 1;
        frame.points.row(static_cast<int>(row[3])) << 1e-3 * row[4], 1e-3 * row[5];
      }
    frames.push_back(frame);
  }
  return frames;
}

/// Tip-x mean absolute error [mm] of simulated points per frame (the tip last) against the video,
/// simulated[i] being video frame first_frame + i.
inline double wall_growth_tip_x_mae(const std::vector<MatX>& simulated, const WallGrowthCase& c,
                                    int first_frame) {
  double sum = 0.0;
  for (std::size_t i = 0; i < simulated.size(); ++i)
    sum += std::abs(1e3 * simulated[i](simulated[i].rows() - 1, 0) - c.tip[first_frame + i][3]);
  return sum / static_cast<double>(simulated.size());
}

}  // namespace tendril::testing
