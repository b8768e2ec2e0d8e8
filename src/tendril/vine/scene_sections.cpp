#include "tendril/vine/scene_sections.hpp"

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::vine {

std::vector<double> per_joint(const io::SceneNode& node, std::string_view name, int count,
                              std::string_view joint) {
  std::vector<double> v = node.reals(name);
  if (v.size() == 1) return std::vector<double>(count, v[0]);
  if (static_cast<int>(v.size()) != count)
    node.fail(name, fmt::format("{} values", v.size()),
              fmt::format("1 value or {} (one per {})", count, joint));
  return v;
}

std::vector<Schedule> read_steering(const io::SceneNode& steer,
                                    const std::filesystem::path& base_dir, int columns,
                                    std::string_view columns_doc) {
  if (steer.has("table") && steer.has("csv")) steer.fail("csv", "either table or csv, not both");
  std::vector<Schedule> out;
  if (steer.has("table")) {
    const auto rows = steer.real_table("table", columns + 1);
    for (int k = 0; k < columns; ++k) {
      std::vector<double> times, angles;
      for (const auto& row : rows) {
        times.push_back(row[0]);
        angles.push_back(row[k + 1]);
      }
      try {
        out.push_back(table_schedule(times, angles));
      } catch (const InputError& e) {
        steer.fail("table", e.what(), "rows with increasing times and finite angles");
      }
    }
  }
  if (steer.has("csv")) {
    out = csv_schedules(base_dir / steer.text("csv"), steer.child_path("csv"));
    if (static_cast<int>(out.size()) != columns)
      steer.fail("csv", fmt::format("{} angle columns", out.size()),
                 fmt::format("t and {} angle columns ({})", columns, columns_doc));
  }
  return out;
}

}  // namespace tendril::vine
