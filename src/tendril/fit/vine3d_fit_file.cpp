#include "tendril/fit/vine3d_fit_file.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/fit_file.hpp"

namespace tendril::fit {

namespace fs = std::filesystem;

namespace {

/// One tracked point of a CSV row: its frame's step, its index and its position [m].
struct TrackedRow {
  int step = 0, point = 0;
  Vec3 position;
};

/// Row `i` of the table as a tracked point (InputError naming the column, the file and the line).
TrackedRow tracked_row(const CsvTable& t, std::size_t i, const std::size_t (&cols)[5],
                       const io::SceneNode& fr, const fs::path& csv, int bodies) {
  double v[5];
  for (int c = 0; c < 5; ++c)
    if (!parse_real(t.rows[i][cols[c]], v[c]))
      throw InputError(fmt::format("{} column {} ({} line {})", fr.path(), t.header[cols[c]],
                                   csv.string(), t.lines[i]),
                       t.rows[i][cols[c]], "a finite real number");
  const int offset = fr.integer("step_offset");
  const long step = std::lround(v[0]) - offset, point = std::lround(v[1]);
  if (step < 0 || step != v[0] - offset)
    throw InputError(fmt::format("{}.step ({} line {})", fr.path(), csv.string(), t.lines[i]),
                     t.rows[i][cols[0]], fmt::format("a whole step >= {}", offset));
  if (point < 0 || point > bodies || point != v[1])
    throw InputError(fmt::format("{}.point ({} line {})", fr.path(), csv.string(), t.lines[i]),
                     t.rows[i][cols[1]],
                     fmt::format("a joint point of the scene's {} bodies: a whole number from 0 "
                                 "(the base) to {} (the tip)",
                                 bodies, bodies));
  return {static_cast<int>(step), static_cast<int>(point),
          fr.real("factor") * Vec3(v[2], v[3], v[4])};
}

}  // namespace

bool is_vine3d_method(const std::string& method) {
  return method == "vine3d_shooting";
}

void check_vine3d_parameter_key(const io::SceneNode& p, const std::string& key) {
  if (key != "vine3d.stiffness" && key != "vine3d.damping")
    p.fail("key", key,
           "vine3d.stiffness or vine3d.damping (vine3d_shooting fits the uniform K and C of a 3D "
           "vine scene's bending joints)");
}

vine3d::Vine3dScene vine3d_scene_at_initial_values(const FitFile& file,
                                                   const std::vector<std::string>& settings) {
  std::vector<std::string> s = settings;
  for (const FitParameter& q : file.parameters)
    s.push_back(q.key + "=[" + number_text(q.initial, 17) + "]");
  // the law first: the inflated-beam law's scene refuses a stiffness
  if (vine3d::load_vine3d_scene_file(file.scene, settings).model.bending_law !=
      vine::BendingLaw::linear)
    throw InputError("vine3d.bending_law", "inflated_beam",
                     "linear (vine3d_shooting fits the linear law's K and C)");
  return vine3d::load_vine3d_scene_file(file.scene, s);
}

std::vector<vine3d::TrackedFrame3> read_tracked_frames3(const CsvTable& t, const io::SceneNode& fr,
                                                        const fs::path& csv, int bodies) {
  const std::size_t cols[5] = {column_index(t, fr.text("step"), fr, "step", csv),
                               column_index(t, fr.text("point"), fr, "point", csv),
                               column_index(t, fr.text("x"), fr, "x", csv),
                               column_index(t, fr.text("y"), fr, "y", csv),
                               column_index(t, fr.text("z"), fr, "z", csv)};
  std::map<int, std::map<int, Vec3>> points;  // step -> point -> position
  std::map<int, int> first_line;              // step -> line of its first row
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const TrackedRow row = tracked_row(t, i, cols, fr, csv, bodies);
    if (!points[row.step].emplace(row.point, row.position).second)
      throw InputError(fmt::format("{}.point ({} line {})", fr.path(), csv.string(), t.lines[i]),
                       t.rows[i][cols[1]],
                       fmt::format("each point once per frame (step {} has point {} already)",
                                   row.step + fr.integer("step_offset"), row.point));
    first_line.emplace(row.step, t.lines[i]);
  }
  std::vector<vine3d::TrackedFrame3> frames;
  for (const auto& [step, frame] : points) {
    vine3d::TrackedFrame3 f{step, MatX(bodies + 1, 3)};
    for (int k = 0; k <= bodies; ++k) {
      const auto at = frame.find(k);
      if (at == frame.end())
        throw InputError(
            fmt::format("{}.point ({} line {})", fr.path(), csv.string(), first_line.at(step)),
            fmt::format("no point {} in step {}", k, step + fr.integer("step_offset")),
            fmt::format("every joint point 0 .. {} in every frame (the scene has {} bodies)",
                        bodies, bodies));
      f.points.row(k) = at->second.transpose();
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

}  // namespace tendril::fit
