#pragma once
/// The measurements of a fit file (fit/fit_file.hpp) as a CSV table: a header line, one row per
/// experiment (or per measured point), lines starting with # comments. Bad input names the key,
/// the file and its line.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/io/scene.hpp"

namespace tendril::fit {

/// A CSV file with a header: column names and rows of cells (trimmed).
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  ///< line number of each row in the file
};

/// Reads `file` (the fit file's `key`): InputError for a row whose column count differs from the
/// header's, or no data row.
CsvTable read_csv_table(const std::filesystem::path& file, const std::string& key);

/// Index of `column` in the header, or an InputError at `node`'s `key` listing the columns.
std::size_t column_index(const CsvTable& t, const std::string& column, const io::SceneNode& node,
                         const std::string& key, const std::filesystem::path& csv);

/// The names separated by ", ".
std::string comma_separated(const std::vector<std::string>& names);

/// `cell` as a finite real number, the whole cell; false if it is not one.
bool parse_real(const std::string& cell, double& value);

/// The vine methods' measured frames from the columns `frames` names (step, x, y, step_offset,
/// factor): the rows grouped by step (in increasing order), points in row order, at least two per
/// frame [m].
std::vector<MeasuredFrame> read_measured_frames(const CsvTable& t, const io::SceneNode& frames,
                                                const std::filesystem::path& csv);

}  // namespace tendril::fit
