#pragma once
/// VTK XML PolyData (.vtp) files with raw appended binary data (UInt64 headers, little-endian),
/// and the ParaView collection (.pvd) that makes a time series of them. Read by ParaView and by
/// VTK's vtkXMLPolyDataReader.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tendril::cli {

/// A named field with `components` values per point or per cell (row-major, (#items x components)).
struct VtkField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

/// One frame: points, 2-point line cells (edges), triangle cells, then fields.
/// Cell fields list the lines first, then the triangles (VTK's cell order).
struct VtkPolyData {
  std::vector<double> points;           ///< (#points x 3) [m]
  std::vector<std::int64_t> lines;      ///< (#lines x 2) point indices
  std::vector<std::int64_t> triangles;  ///< (#triangles x 3) point indices
  std::vector<VtkField> point_fields;
  std::vector<VtkField> cell_fields;
  double time = 0.0;  ///< written as the field "TimeValue" [s]
};

/// Writes `data` to `file`; throws InputError if the file cannot be written.
void write_vtp(const std::filesystem::path& file, const VtkPolyData& data);

/// Writes a .pvd collection listing (time, file name relative to the .pvd) pairs.
void write_pvd(const std::filesystem::path& file,
               const std::vector<std::pair<double, std::string>>& frames);

}  // namespace tendril::cli
