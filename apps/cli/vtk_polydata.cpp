#include "vtk_polydata.hpp"

#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::cli {

namespace {

/// One DataArray: its XML header and its bytes in the appended block.
struct Appended {
  std::string xml;
  std::string bytes;
};

template <typename T>
std::string block_of(const std::vector<T>& values) {
  // raw appended data: a UInt64 byte count, then the values
  const std::uint64_t size = values.size() * sizeof(T);
  std::string out(sizeof(size) + size, '\0');
  std::memcpy(out.data(), &size, sizeof(size));
  if (size > 0) std::memcpy(out.data() + sizeof(size), values.data(), size);
  return out;
}

class AppendedWriter {
 public:
  template <typename T>
  std::string array(const std::string& name, const char* type, int components,
                    const std::vector<T>& values) {
    const std::string xml = fmt::format(
        "<DataArray type=\"{}\" Name=\"{}\" NumberOfComponents=\"{}\" format=\"appended\" "
        "offset=\"{}\"/>\n",
        type, name, components, data_.size());
    data_ += block_of(values);
    return xml;
  }
  const std::string& data() const { return data_; }

 private:
  std::string data_;
};

}  // namespace

void write_vtp(const std::filesystem::path& file, const VtkPolyData& d) {
  AppendedWriter w;
  const std::size_t num_points = d.points.size() / 3;
  const std::size_t num_lines = d.lines.size() / 2;
  const std::size_t num_triangles = d.triangles.size() / 3;

  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n"
      "<PolyData>\n";
  xml += "<FieldData>\n" + w.array("TimeValue", "Float64", 1, std::vector<double>{d.time}) +
         "</FieldData>\n";
  xml += fmt::format(
      "<Piece NumberOfPoints=\"{}\" NumberOfVerts=\"0\" NumberOfLines=\"{}\" NumberOfStrips=\"0\" "
      "NumberOfPolys=\"{}\">\n",
      num_points, num_lines, num_triangles);
  xml += "<PointData>\n";
  for (const VtkField& f : d.point_fields)
    xml += w.array(f.name, "Float64", f.components, f.values);
  xml += "</PointData>\n<CellData>\n";
  for (const VtkField& f : d.cell_fields) xml += w.array(f.name, "Float64", f.components, f.values);
  xml += "</CellData>\n<Points>\n" + w.array("Points", "Float64", 3, d.points) + "</Points>\n";

  // cells: connectivity and one-past-the-end offsets
  auto cells = [&](const std::vector<std::int64_t>& connectivity, std::size_t per_cell) {
    std::vector<std::int64_t> offsets(connectivity.size() / per_cell);
    for (std::size_t c = 0; c < offsets.size(); ++c)
      offsets[c] = static_cast<std::int64_t>((c + 1) * per_cell);
    return w.array("connectivity", "Int64", 1, connectivity) +
           w.array("offsets", "Int64", 1, offsets);
  };
  xml += "<Lines>\n" + cells(d.lines, 2) + "</Lines>\n";
  xml += "<Polys>\n" + cells(d.triangles, 3) + "</Polys>\n";
  xml += "</Piece>\n</PolyData>\n<AppendedData encoding=\"raw\">\n_";

  std::ofstream out(file, std::ios::binary);
  out << xml;
  out.write(w.data().data(), static_cast<std::streamsize>(w.data().size()));
  out << "\n</AppendedData>\n</VTKFile>\n";
  if (!out) throw InputError(file.string(), "(cannot be written)", "a writable file");
}

void write_pvd(const std::filesystem::path& file,
               const std::vector<std::pair<double, std::string>>& frames) {
  std::ofstream out(file);
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
         "byte_order=\"LittleEndian\">\n"
         "<Collection>\n";
  for (const auto& [time, name] : frames)
    out << fmt::format("<DataSet timestep=\"{:.17g}\" group=\"\" part=\"0\" file=\"{}\"/>\n", time,
                       name);
  out << "</Collection>\n</VTKFile>\n";
  if (!out) throw InputError(file.string(), "(cannot be written)", "a writable file");
}

}  // namespace tendril::cli
