// `tendril export RUN_DIR --vtk DIR`: one VTK XML PolyData file per saved frame plus a .pvd time
// series that ParaView opens (File > Open > run.pvd). What each file holds:
// - rod runs: the nodes as points, every edge as a 2-point line cell (so per-edge values are exact
//   cell data), triangles as polygon cells when the run records info.triangles (shells);
//   point fields displacement, velocity [m/s] and curvature [1/m]; cell fields twist [rad],
//   strain (edge length / its length in frame 0 - 1) and radius [m];
// - vine runs: the centre line (base, body joints, tip) at z = 0 as points, each body as a line
//   cell with fields body_angle [rad] and body_velocity (vx, vy, omega);
// - 3D vine runs: the centre line in 3D as points, each body as a line cell with fields
//   body_orientation (unit quaternion w, x, y, z) and body_velocity (v, omega).
// Fields are documented in docs/visualisation.md.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "command.hpp"
#include "rod_run_topology.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"
#include "vtk_polydata.hpp"

namespace tendril::cli {

namespace {

namespace fs = std::filesystem;

/// Velocity of every value of `series` (F x n) at frame f by central differences in `time`
/// (one-sided at the ends; zero for a single frame).
std::vector<double> frame_rate_of_change(const io::NpyArray& series, const io::NpyArray& time,
                                         std::size_t f) {
  const std::size_t frames = series.shape[0];
  const std::size_t n = series.size() / std::max<std::size_t>(frames, 1);
  std::vector<double> rate(n, 0.0);
  if (frames < 2) return rate;
  const std::size_t a = f == 0 ? 0 : f - 1;
  const std::size_t b = f + 1 == frames ? f : f + 1;
  const double dt = time.data[b] - time.data[a];
  if (!(dt > 0)) return rate;
  for (std::size_t i = 0; i < n; ++i)
    rate[i] = (series.data[b * n + i] - series.data[a * n + i]) / dt;
  return rate;
}

VtkPolyData rod_frame(const io::RunData& run, const RodRunTopology& topo, std::size_t f) {
  const io::NpyArray& x = run.array("positions");
  const std::size_t n = topo.num_nodes;
  const std::size_t num_edges = topo.edges.size();
  VtkPolyData d;
  d.time = run.array("frame_time").data[f];
  d.points.assign(x.data.begin() + static_cast<std::ptrdiff_t>(f * n * 3),
                  x.data.begin() + static_cast<std::ptrdiff_t>((f + 1) * n * 3));
  for (const auto& [a, b] : topo.edges) d.lines.insert(d.lines.end(), {a, b});
  d.triangles = topo.triangles;

  VtkField displacement{"displacement", 3, std::vector<double>(n * 3)};
  for (std::size_t i = 0; i < n * 3; ++i)
    displacement.values[i] = x.data[f * n * 3 + i] - x.data[i];
  d.point_fields.push_back(std::move(displacement));
  d.point_fields.push_back({"velocity", 3, frame_rate_of_change(x, run.array("frame_time"), f)});
  d.point_fields.push_back({"curvature", 1, topo.node_curvature(d.points)});

  // per-edge cell fields, then NaN for triangle cells (they carry no edge value)
  const std::size_t cells = num_edges + topo.triangles.size() / 3;
  auto edge_field = [&](const char* name, std::vector<double> values) {
    values.resize(cells, std::nan(""));
    d.cell_fields.push_back({name, 1, std::move(values)});
  };
  if (run.has("twists")) {
    const io::NpyArray& theta = run.array("twists");
    edge_field("twist", std::vector<double>(
                            theta.data.begin() + static_cast<std::ptrdiff_t>(f * num_edges),
                            theta.data.begin() + static_cast<std::ptrdiff_t>((f + 1) * num_edges)));
  }
  const std::vector<double> length = topo.edge_lengths(d.points);
  const std::vector<double> length0 = topo.edge_lengths(
      std::vector<double>(x.data.begin(), x.data.begin() + static_cast<std::ptrdiff_t>(n * 3)));
  std::vector<double> strain(num_edges);
  for (std::size_t e = 0; e < num_edges; ++e) strain[e] = length[e] / length0[e] - 1.0;
  edge_field("strain", std::move(strain));
  edge_field("radius", topo.edge_radius);
  return d;
}

VtkPolyData vine_frame(const io::RunData& run, std::size_t f) {
  const io::NpyArray& line = run.array("centerline");  // (F, n+1, 2)
  const io::NpyArray& pose = run.array("body_pose");   // (F, n, 3)
  const std::size_t points = line.shape[1];
  const std::size_t bodies = pose.shape[1];
  VtkPolyData d;
  d.time = run.array("frame_time").data[f];
  for (std::size_t i = 0; i < points; ++i)
    d.points.insert(d.points.end(),
                    {line.data[(f * points + i) * 2], line.data[(f * points + i) * 2 + 1], 0.0});
  for (std::size_t b = 0; b < bodies; ++b)
    d.lines.insert(d.lines.end(), {static_cast<std::int64_t>(b), static_cast<std::int64_t>(b + 1)});
  VtkField angle{"body_angle", 1, {}};
  for (std::size_t b = 0; b < bodies; ++b)
    angle.values.push_back(pose.data[(f * bodies + b) * 3 + 2]);
  d.cell_fields.push_back(std::move(angle));
  if (run.has("body_velocity")) {
    const io::NpyArray& v = run.array("body_velocity");
    d.cell_fields.push_back(
        {"body_velocity", 3,
         std::vector<double>(v.data.begin() + static_cast<std::ptrdiff_t>(f * bodies * 3),
                             v.data.begin() + static_cast<std::ptrdiff_t>((f + 1) * bodies * 3))});
  }
  return d;
}

VtkPolyData vine3d_frame(const io::RunData& run, std::size_t f) {
  const io::NpyArray& line = run.array("centerline");  // (F, n+1, 3)
  const std::size_t points = line.shape[1];
  const std::size_t bodies = points - 1;
  VtkPolyData d;
  d.time = run.array("frame_time").data[f];
  const auto frame = [&](const io::NpyArray& a, std::size_t values) {
    const auto first = a.data.begin() + static_cast<std::ptrdiff_t>(f * values);
    return std::vector<double>(first, first + static_cast<std::ptrdiff_t>(values));
  };
  d.points = frame(line, 3 * points);
  for (std::size_t b = 0; b < bodies; ++b)
    d.lines.insert(d.lines.end(), {static_cast<std::int64_t>(b), static_cast<std::int64_t>(b + 1)});
  d.cell_fields.push_back(
      {"body_orientation", 4, frame(run.array("body_orientation"), 4 * bodies)});
  d.cell_fields.push_back({"body_velocity", 6, frame(run.array("body_velocity"), 6 * bodies)});
  return d;
}

int export_vtk(const fs::path& run_dir, const fs::path& out) {
  const io::RunData run = io::read_run(run_dir);
  if (run.kind != "rod" && run.kind != "vine" && run.kind != "vine3d")
    throw InputError((run_dir / "run.json").string(), "kind '" + run.kind + "'",
                     "a run of kind 'rod', 'vine' or 'vine3d'");
  const std::size_t frames = run.array("frame_time").shape[0];
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec || !fs::is_directory(out))
    throw InputError("--vtk", out.string(), "a directory that can be created");

  std::unique_ptr<RodRunTopology> topo;
  if (run.kind == "rod") topo = std::make_unique<RodRunTopology>(RodRunTopology::from_run(run));
  std::vector<std::pair<double, std::string>> series;
  for (std::size_t f = 0; f < frames; ++f) {
    const VtkPolyData d = topo                   ? rod_frame(run, *topo, f)
                          : run.kind == "vine3d" ? vine3d_frame(run, f)
                                                 : vine_frame(run, f);
    const std::string name = fmt::format("frame_{:05d}.vtp", f);
    write_vtp(out / name, d);
    series.emplace_back(d.time, name);
  }
  write_pvd(out / "run.pvd", series);
  std::printf("%s: %zu frames written to %s (open run.pvd in ParaView)\n", run_dir.string().c_str(),
              frames, (out / "run.pvd").string().c_str());
  return 0;
}

}  // namespace

Command add_export_command(CLI::App& app) {
  auto options = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* cmd =
      app.add_subcommand("export", "Export a run directory for other tools (VTK XML for ParaView)");
  cmd->add_option("run", options->first, "Run directory (docs/output_format.md)")->required();
  cmd->add_option("--vtk", options->second,
                  "Write one .vtp per saved frame and run.pvd into this directory")
      ->required();
  return {cmd, [options] { return export_vtk(options->first, options->second); }};
}

}  // namespace tendril::cli
