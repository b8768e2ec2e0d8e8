#include "tendril/fit/measurement_csv.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/schema.hpp"

namespace tendril::fit {

namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) cells.push_back(trimmed(cell));
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

}  // namespace

std::string comma_separated(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

CsvTable read_csv_table(const fs::path& file, const std::string& key) {
  std::istringstream in(read_data_file(file, key, "a CSV file (relative to the fit file)"));
  CsvTable t;
  std::string line;
  int number = 0;
  while (t.header.empty() && std::getline(in, line)) {
    ++number;
    if (!trimmed(line).empty() && trimmed(line)[0] != '#') t.header = split_cells(line);
  }
  while (std::getline(in, line)) {
    ++number;
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    std::vector<std::string> cells = split_cells(line);
    if (cells.size() != t.header.size())
      throw InputError(fmt::format("{} ({} line {})", key, file.string(), number),
                       fmt::format("{} columns", cells.size()),
                       fmt::format("{} comma-separated columns as in the header", t.header.size()));
    t.rows.push_back(std::move(cells));
    t.lines.push_back(number);
  }
  if (t.rows.empty())
    throw InputError(key, file.string(), "a CSV file with a header and at least one data row");
  return t;
}

std::size_t column_index(const CsvTable& t, const std::string& column, const io::SceneNode& node,
                         const std::string& key, const fs::path& csv) {
  const auto it = std::find(t.header.begin(), t.header.end(), column);
  if (it == t.header.end()) {
    const std::string near = io::closest_name(column, t.header);
    node.fail(key, column,
              fmt::format("a column of {} ({}){}", csv.string(), comma_separated(t.header),
                          near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  return static_cast<std::size_t>(it - t.header.begin());
}

bool parse_real(const std::string& cell, double& value) {
  std::size_t used = 0;
  try {
    value = std::stod(cell, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used != 0 && used == cell.size() && std::isfinite(value);
}

std::vector<MeasuredFrame> read_measured_frames(const CsvTable& t, const io::SceneNode& fr,
                                                const fs::path& csv) {
  const std::size_t step = column_index(t, fr.text("step"), fr, "step", csv);
  const std::size_t x = column_index(t, fr.text("x"), fr, "x", csv);
  const std::size_t y = column_index(t, fr.text("y"), fr, "y", csv);
  const int offset = fr.integer("step_offset");
  const double factor = fr.real("factor");
  std::map<int, std::vector<Vec2>> points;
  std::map<int, int> first_line;  // step -> line of its first row
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    double v[3];
    const std::size_t cols[3] = {step, x, y};
    for (int c = 0; c < 3; ++c)
      if (!parse_real(t.rows[i][cols[c]], v[c]))
        throw InputError(fmt::format("{} column {} ({} line {})", fr.path(), t.header[cols[c]],
                                     csv.string(), t.lines[i]),
                         t.rows[i][cols[c]], "a finite real number");
    const long s = std::lround(v[0]) - offset;
    if (s < 0 || s != v[0] - offset)
      throw InputError(fmt::format("{}.step ({} line {})", fr.path(), csv.string(), t.lines[i]),
                       t.rows[i][step], fmt::format("a whole step >= {}", offset));
    points[static_cast<int>(s)].push_back(factor * Vec2(v[1], v[2]));
    first_line.emplace(static_cast<int>(s), t.lines[i]);
  }
  std::vector<MeasuredFrame> frames;
  for (const auto& [s, p] : points) {
    // a frame is resampled by arc length along its points (vine_observation.hpp): it needs two
    if (p.size() < 2)
      throw InputError(
          fmt::format("{}.step ({} line {})", fr.path(), csv.string(), first_line.at(s)),
          fmt::format("{} (the only row of step {})", s + offset, s + offset),
          "at least 2 points (rows) per measured frame, base to tip");
    MeasuredFrame frame{s, MatX(static_cast<Eigen::Index>(p.size()), 2)};
    for (std::size_t k = 0; k < p.size(); ++k)
      frame.points.row(static_cast<Eigen::Index>(k)) = p[k].transpose();
    frames.push_back(std::move(frame));
  }
  return frames;
}

}  // namespace tendril::fit
