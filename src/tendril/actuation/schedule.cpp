#include "tendril/actuation/schedule.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/core/piecewise_linear.hpp"

namespace tendril {
namespace {

void check_finite(const char* key, double v) {
  if (!std::isfinite(v)) throw InputError(key, number_text(v), "a finite value");
}

/// Splits a CSV row at commas, semicolons and whitespace.
std::vector<std::string> fields(const std::string& line) {
  std::string s = line;
  for (char& c : s)
    if (c == ',' || c == ';') c = ' ';
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

/// The number in `text`, or false.
bool parse_number(const std::string& text, double& value) {
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

}  // namespace

Schedule constant_rate(double start, double rate) {
  check_finite("start", start);
  check_finite("rate", rate);
  return [start, rate](double t) { return start + rate * t; };
}

Schedule sinusoid(double mean, double amplitude, double frequency, double phase) {
  check_finite("mean", mean);
  check_finite("amplitude", amplitude);
  check_finite("phase", phase);
  if (!(std::isfinite(frequency) && frequency >= 0.0))
    throw InputError("frequency", number_text(frequency), "a finite frequency f >= 0 [Hz]");
  const double omega = 2.0 * std::numbers::pi * frequency;
  return [=](double t) { return mean + amplitude * std::sin(omega * t + phase); };
}

Schedule table_schedule(std::vector<double> times, std::vector<double> values) {
  return piecewise_linear<double>(std::move(times), std::move(values));
}

std::vector<Schedule> csv_schedules(const std::filesystem::path& file, const std::string& key) {
  std::istringstream in(read_data_file(file, key, "a CSV file"));
  std::vector<double> times;
  std::vector<std::vector<double>> columns;
  std::string line;
  int line_number = 0;
  bool header_allowed = true;
  while (std::getline(in, line)) {
    ++line_number;
    const std::vector<std::string> row = fields(line);
    if (row.empty() || row.front().front() == '#') continue;
    std::vector<double> numbers(row.size());
    bool numeric = true;
    for (std::size_t c = 0; c < row.size(); ++c)
      numeric = numeric && parse_number(row[c], numbers[c]);
    const std::string where = file.string() + ":" + std::to_string(line_number);
    if (!numeric) {
      if (header_allowed) {  // a header row of column names
        header_allowed = false;
        continue;
      }
      throw InputError(where, line, "rows of numbers: t, v_1, v_2, ...");
    }
    header_allowed = false;
    if (row.size() < 2) throw InputError(where, line, "a time and at least one value per row");
    if (columns.empty()) columns.resize(row.size() - 1);
    if (row.size() != columns.size() + 1)
      throw InputError(where, line,
                       std::to_string(columns.size() + 1) + " columns like the first row");
    for (double v : numbers)
      if (!std::isfinite(v)) throw InputError(where, line, "finite numbers");
    if (!times.empty() && !(numbers[0] > times.back()))
      throw InputError(where, line,
                       "times in strictly increasing order (previous row: t = " +
                           number_text(times.back()) + " s)");
    times.push_back(numbers[0]);
    for (std::size_t c = 1; c < numbers.size(); ++c) columns[c - 1].push_back(numbers[c]);
  }
  if (times.empty()) throw InputError(file.string(), "(no rows)", "at least one row t, v_1, ...");
  std::vector<Schedule> out;
  for (auto& column : columns) out.push_back(table_schedule(times, std::move(column)));
  return out;
}

}  // namespace tendril
