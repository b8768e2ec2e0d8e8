#include "tendril/fit/track_import.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <Eigen/Eigenvalues>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"
#include "tendril/core/number_text.hpp"
#include "tendril/fit/centerline_order.hpp"
#include "tendril/fit/measurement_csv.hpp"
#include "tendril/fit/polyline_resample.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/io/schema_keys.hpp"
#include "tendril/vine/initial_state.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {

namespace fs = std::filesystem;
using io::KeyType;
using namespace io::keys;

namespace {

/// One tracked point: its video frame, pixel coordinates, the time column (NaN without), and
/// where it was read ("line 12" of a CSV, "row 12" of an .npy array).
struct TrackedPoint {
  long frame = 0;
  Vec2 pixel;
  double time = std::nan("");
  std::string where;
};

/// Pixels to metres: x = scale sx (u - u0), y = scale sy (v - v0), s = -1 where flipped.
struct PixelFrame {
  double scale = 1.0;
  Vec2 sign = Vec2::Ones();
  Vec2 origin = Vec2::Zero();
  Vec2 metres(const Vec2& pixel) const { return scale * sign.cwiseProduct(pixel - origin); }
};

[[noreturn]] void bad_data(const io::SceneNode& track, const std::string& key, const fs::path& file,
                           const std::string& where, const std::string& value,
                           const std::string& allowed) {
  throw InputError(fmt::format("{} ({} {})", track.child_path(key), file.string(), where), value,
                   allowed);
}

/// A whole frame number from `value`.
long whole_frame(const io::SceneNode& track, const fs::path& file, const std::string& where,
                 double value) {
  if (value != std::round(value) || std::abs(value) > 1e15)
    bad_data(track, "frame", file, where, number_text(value, 17), "a whole frame number");
  return static_cast<long>(value);
}

/// The tracked points of a CSV: columns frame, x, y and (optional) time.
std::vector<TrackedPoint> read_csv_points(const io::SceneNode& track, const fs::path& file) {
  const CsvTable t = read_csv_table(file, track.child_path("points"));
  std::vector<std::string> keys = {"frame", "x", "y"};
  if (track.has("time")) keys.push_back("time");
  std::vector<std::size_t> columns;
  for (const std::string& k : keys)
    columns.push_back(column_index(t, track.text(k), track, k, file));
  std::vector<TrackedPoint> points;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const std::string where = fmt::format("line {}", t.lines[i]);
    double v[4] = {0.0, 0.0, 0.0, std::nan("")};
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (!parse_real(t.rows[i][columns[c]], v[c]))
        bad_data(track, keys[c], file, where, t.rows[i][columns[c]], "a finite real number");
    points.push_back({whole_frame(track, file, where, v[0]), Vec2(v[1], v[2]), v[3], where});
  }
  return points;
}

/// The .npy array `file` named at `key`, at most the data-file limit (core/bounded_file.hpp) big.
io::NpyArray read_limited_npy(const io::SceneNode& track, const std::string& key,
                              const fs::path& file) {
  std::error_code error;
  const std::uintmax_t bytes = fs::file_size(file, error);
  const std::size_t limit = input_file_limits().max_data_file_bytes;
  if (!error && bytes > limit)
    throw InputError(track.child_path(key) + " (" + file.string() + ")",
                     fmt::format("{} bytes", bytes),
                     fmt::format("an .npy file of at most {} bytes (the limit on files a scene or "
                                 "fit file names)",
                                 limit));
  return io::read_npy(file);
}

/// The tracked points of an .npy array: (N, 3) rows of frame, x, y, or (F, P, 2) with P points
/// per frame (NaN: not tracked).
std::vector<TrackedPoint> read_npy_points(const io::SceneNode& track, const fs::path& file) {
  if (track.has("time"))
    track.fail("time", track.text("time"), "no time column with an .npy array (give frame_rate)");
  const io::NpyArray a = read_limited_npy(track, "points", file);
  std::vector<TrackedPoint> points;
  const auto& s = a.shape;
  if (s.size() == 2 && s[1] == 3) {
    for (std::size_t i = 0; i < s[0]; ++i) {
      const std::string where = fmt::format("row {}", i);
      const double* r = &a.data[3 * i];
      if (!std::isfinite(r[0]) || !std::isfinite(r[1]) || !std::isfinite(r[2]))
        bad_data(track, "points", file, where, "NaN or inf", "finite frame, x, y");
      points.push_back(
          {whole_frame(track, file, where, r[0]), Vec2(r[1], r[2]), std::nan(""), where});
    }
  } else if (s.size() == 3 && s[2] == 2) {
    for (std::size_t f = 0; f < s[0]; ++f)
      for (std::size_t k = 0; k < s[1]; ++k) {
        const double* r = &a.data[2 * (f * s[1] + k)];
        if (std::isfinite(r[0]) && std::isfinite(r[1]))
          points.push_back({static_cast<long>(f), Vec2(r[0], r[1]), std::nan(""),
                            fmt::format("frame {} point {}", f, k)});
      }
  } else {
    std::string shape;
    for (std::size_t d : s) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    throw InputError(track.child_path("points") + " (" + file.string() + ")",
                     "an array of shape (" + shape + ")",
                     "shape (N, 3): rows of frame, x, y; or (F, P, 2): P points per frame");
  }
  return points;
}

/// A frame's points and time, and where its first point was read.
struct TrackedFrame {
  std::vector<Vec2> pixels;
  double time = 0.0;
  std::string where;
};

/// The points grouped by frame with each frame's time: the time column (one time per frame,
/// increasing with the frame) or frame / frame_rate.
std::map<long, TrackedFrame> group_frames(const io::SceneNode& track, const fs::path& file,
                                          const std::vector<TrackedPoint>& points) {
  if (track.has("time") == track.has("frame_rate"))
    track.fail("frame_rate", track.has("time") ? "(given with time)" : "(missing)",
               "either a frame rate [1/s] or a time column, not both");
  const double rate = track.has("frame_rate") ? track.real("frame_rate") : 0.0;
  std::map<long, TrackedFrame> frames;
  for (const TrackedPoint& p : points) {
    const double time = rate > 0.0 ? static_cast<double>(p.frame) / rate : p.time;
    auto [it, added] = frames.try_emplace(p.frame, TrackedFrame{{}, time, p.where});
    if (!added && time != it->second.time)
      bad_data(track, "time", file, p.where, number_text(time, 17),
               fmt::format("the time of frame {} ({} s, {})", p.frame,
                           number_text(it->second.time, 17), it->second.where));
    it->second.pixels.push_back(p.pixel);
  }
  const TrackedFrame* before = nullptr;
  for (const auto& [frame, f] : frames) {
    if (before != nullptr && !(f.time > before->time))
      bad_data(track, "time", file, f.where, number_text(f.time, 17),
               fmt::format("a time after the frame before's ({} s, {})",
                           number_text(before->time, 17), before->where));
    before = &f;
  }
  return frames;
}

/// The simulation step of a frame at `time` after the first frame's `t0`: a whole number of dt.
int frame_step(const io::SceneNode& track, const fs::path& file, const TrackedFrame& f, double t0,
               double dt) {
  const double steps = (f.time - t0) / dt;
  if (std::abs(steps - std::round(steps)) > 1e-6 * std::max(1.0, steps) || steps > 1e9)
    bad_data(track, track.has("time") ? "time" : "frame_rate", file, f.where,
             fmt::format("a frame {} s after the first, {} steps of vine.dt = {} s",
                         number_text(f.time - t0, 9), number_text(steps, 9), number_text(dt, 9)),
             "frame times on whole steps of the scene's vine.dt (dt = 1 / (k x frame rate))");
  return static_cast<int>(std::lround(steps));
}

/// The walls' end points [m]: (x0, y0, x1, y1) rows in pixels, from a CSV (its `wall_columns`) or
/// a (W, 4) .npy array.
std::vector<std::pair<Vec2, Vec2>> read_walls(const io::SceneNode& track, const fs::path& file,
                                              const PixelFrame& pixels) {
  std::vector<std::pair<Vec2, Vec2>> walls;
  const auto add = [&](const double* r, const std::string& where) {
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(r[c]))
        bad_data(track, "walls", file, where, "NaN or inf", "finite x0, y0, x1, y1");
    const Vec2 a = pixels.metres(Vec2(r[0], r[1])), b = pixels.metres(Vec2(r[2], r[3]));
    walls.emplace_back(a, b);
  };
  if (file.extension() == ".npy") {
    const io::NpyArray a = read_limited_npy(track, "walls", file);
    if (a.shape.size() != 2 || a.shape[1] != 4)
      throw InputError(track.child_path("walls") + " (" + file.string() + ")",
                       fmt::format("an array of {} dimension(s)", a.shape.size()),
                       "shape (W, 4): rows of x0, y0, x1, y1 [pixels]");
    for (std::size_t i = 0; i < a.shape[0]; ++i) add(&a.data[4 * i], fmt::format("row {}", i));
    return walls;
  }
  const CsvTable t = read_csv_table(file, track.child_path("walls"));
  std::vector<std::size_t> columns;
  for (const std::string& name : track.texts("wall_columns"))
    columns.push_back(column_index(t, name, track, "wall_columns", file));
  if (columns.size() != 4)
    track.fail("wall_columns", fmt::format("{} columns", columns.size()),
               "4 columns: x0, y0, x1, y1 [pixels]");
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    double r[4];
    for (std::size_t c = 0; c < 4; ++c)
      if (!parse_real(t.rows[i][columns[c]], r[c]))
        bad_data(track, "walls", file, fmt::format("line {}", t.lines[i]), t.rows[i][columns[c]],
                 "a finite real number");
    add(r, fmt::format("line {}", t.lines[i]));
  }
  return walls;
}

io::Json json_reals(const std::vector<double>& v) {
  io::Json a = io::Json::array();
  for (double x : v) a.push_back(x);
  return a;
}

/// The walls as the override of vine.obstacles, and their obstacles in `model`.
std::string walls_setting(const std::vector<std::pair<Vec2, Vec2>>& walls, double radius,
                          vine::VineModel& model) {
  std::string list;
  model.obstacles.clear();
  for (const auto& [a, b] : walls) {
    list += fmt::format("{}{{type: segment, a: {}, b: {}, radius: {}}}", list.empty() ? "" : ", ",
                        reals_text(a), reals_text(b), number_text(radius, 17));
    model.obstacles.push_back(vine::make_segment(a, b, radius));
  }
  return "vine.obstacles=[" + list + "]";
}

/// Orders and resamples one frame [m] (the ordered points in `ordered`); records what was dropped
/// or added.
MeasuredFrame frame_centerline(const io::SceneNode& track, const fs::path& file,
                               const TrackedFrame& f, const PixelFrame& pixels, const Vec2& base,
                               int step, io::Json& record, std::vector<Vec2>& ordered) {
  std::vector<Vec2> metres;
  for (const Vec2& p : f.pixels) metres.push_back(pixels.metres(p));
  const double link = track.real("link_distance") * pixels.scale;
  const OrderedCenterline c =
      track.text("order") == "given"
          ? order_as_given(metres, base, link)
          : order_by_longest_path(
                metres, base, link,
                fmt::format("{} ({} {})", track.child_path("points"), file.string(), f.where));
  if (c.points.size() < 2)
    bad_data(track, "points", file, f.where, fmt::format("{} distinct point(s)", c.points.size()),
             "at least 2 distinct points per frame, or one away from the base");
  MatX vertices(static_cast<Eigen::Index>(c.points.size()), 2);
  for (std::size_t k = 0; k < c.points.size(); ++k)
    vertices.row(static_cast<Eigen::Index>(k)) = c.points[k].transpose();
  record["tracked_points"].push_back(f.pixels.size());
  record["dropped_points"].push_back(c.dropped);
  record["base_added"].push_back(c.base_added);
  ordered = c.points;
  return {step, resample_polyline<double>(vertices, track.integer("resample_points")).points};
}

/// Each body's axis refitted as the principal line of the `points` [m] within its span (3 or
/// more; a body with fewer keeps its chord): the tracking noise averaged over the points instead
/// of taken from two chord ends.
void refit_body_axes(const vine::VineModel& model, const std::vector<Vec2>& points,
                     vine::VineState& state) {
  for (int i = 0; i < model.num_bodies; ++i) {
    const Vec2 x = state.q.segment<2>(3 * i);
    const double d = model.half_length[static_cast<std::size_t>(i)], angle = state.q(3 * i + 2);
    const Vec2 e(std::cos(angle), std::sin(angle));
    std::vector<Vec2> span;
    for (const Vec2& p : points)
      if (std::abs((p - x).dot(e)) <= d && std::abs(e.x() * (p - x).y() - e.y() * (p - x).x()) <= d)
        span.push_back(p);
    if (span.size() < 3) continue;
    Vec2 c = Vec2::Zero();
    for (const Vec2& p : span) c += p / static_cast<double>(span.size());
    Eigen::Matrix2d scatter = Eigen::Matrix2d::Zero();
    for (const Vec2& p : span) scatter += (p - c) * (p - c).transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(scatter);
    Vec2 u = eig.eigenvectors().col(1);  // the largest eigenvalue's
    if (u.dot(e) < 0.0) u = -u;
    state.q.segment<2>(3 * i) = c + (x - c).dot(u) * u;
    state.q(3 * i + 2) = angle + std::atan2(e.x() * u.y() - e.y() * u.x(), e.dot(u));
  }
}

/// The start state from the first frame: every body a chord of its resampled centre-line (whose
/// length, unlike that of the noisy ordered points, is not lengthened by the noise's zigzag), its
/// axis refitted to the ordered `points`, projected onto the joints and walls with a tolerance of
/// at least one pixel; its override, and the projection in `record`.
std::string start_setting(const vine::VineModel& model, const MeasuredFrame& first,
                          const std::vector<Vec2>& points, const PixelFrame& pixels,
                          const io::SceneNode& track, io::Json& record) {
  const double tolerance = std::max(1e-3, pixels.scale);
  const std::string key = track.child_path("start") + " (the first frame)";
  std::vector<Vec2> resampled;
  for (Eigen::Index k = 0; k < first.points.rows(); ++k)
    resampled.emplace_back(first.points.row(k));
  vine::VineState start = vine::state_from_centerline(model, resampled, tolerance, key);
  const vine::VineState chords = start;
  refit_body_axes(model, points, start);
  const vine::ProjectionReport projection = vine::project_state(model, start, tolerance, key);
  record["start"] = io::Json::object();
  record["start"]["tolerance"] = tolerance;
  record["start"]["max_move"] = projection.max_move;
  record["start"]["moved_body"] = projection.moved_body;
  record["start"]["joint_error"] = projection.joint_error;
  record["start"]["max_angle_change_from_chords"] =
      (start.q - chords.q)(Eigen::seqN(2, model.num_bodies, 3)).cwiseAbs().maxCoeff();
  return "vine.initial_state={q: " + reals_text(start.q) + "}";
}

}  // namespace

std::string reals_text(const VecX& v) {
  std::string s;
  for (Eigen::Index k = 0; k < v.size(); ++k) s += (k ? ", " : "") + number_text(v[k], 17);
  return "[" + s + "]";
}

std::vector<io::KeySpec> track_import_keys() {
  const auto key = [](std::string path, KeyType type, std::string def, std::string unit,
                      std::string doc) {
    return io::KeySpec{.path = std::move(path),
                       .type = type,
                       .default_value = std::move(def),
                       .unit = std::move(unit),
                       .doc = std::move(doc)};
  };
  const auto column = [&key](std::string path, std::string def, std::string doc) {
    return key(std::move(path), KeyType::String, std::move(def), "", std::move(doc));
  };
  return {
      node("data.track", KeyType::Map,
           "vine_shooting, joint_estimation (instead of csv and frames): tracked video in pixels, "
           "converted to measured frames (docs/physics/fitting.md, \"Tracked video\")."),
      column("data.track.points", kReq,
             "CSV (header; columns frame, x, y [, time]) or .npy array ((N, 3) rows of frame, x, "
             "y, or (F, P, 2) with NaN where not tracked) of tracked points in pixels."),
      column("data.track.frame", "frame", "CSV column of the video frame number."),
      column("data.track.x", "x", "CSV column of x [pixels]."),
      column("data.track.y", "y", "CSV column of y [pixels]."),
      column("data.track.time", kOpt,
             "CSV column of the frame's time [s] (instead of frame_rate; frames may be missing)."),
      positive("data.track.frame_rate", kOpt, "1/s",
               "Frames per second: frame f is at f / frame_rate (missing frames are dropped "
               "frames). The first frame is the scene's start."),
      choice("data.track.order", "path", {"path", "given"},
             "path: each frame's points in any order (skeleton pixels), ordered along the longest "
             "path from the base, spurs dropped; given: in row order from the base."),
      positive("data.track.link_distance", "3", "pixels",
               "path: points closer than this are neighbours (bridges gaps of up to 2 pixels in a "
               "skeleton and sub-pixel noise; parts of the robot closer than this are cut short)."),
      positive("data.track.scale", kReq, "m/pixel", "Metres per pixel."),
      flag("data.track.flip_x", "false", "x = -scale (u - u0) (image axes to the scene's)."),
      flag("data.track.flip_y", "false",
           "y = -scale (v - v0) (image rows grow downwards: true for y up)."),
      key("data.track.origin", KeyType::RealList, "[0, 0]", "pixels",
          "The pixel (u0, v0) at the scene's origin."),
      integer("data.track.resample_points", "21", 2,
              "Points per frame, evenly spaced by arc length from the base to the tip (the fits "
              "compare points at equal arc-length fractions)."),
      column("data.track.walls", kOpt,
             "CSV (header; columns wall_columns) or .npy (W, 4) of wall segments in pixels: "
             "they replace the scene's vine.obstacles."),
      key("data.track.wall_columns", KeyType::StringList, "[x0, y0, x1, y1]", "",
          "The walls CSV's columns of the two end points [pixels]."),
      real("data.track.wall_half_thickness", "0", "m", "Half thickness of every wall segment.", 0),
      flag("data.track.start", "true",
           "Start from the first frame: every body a chord of its centre-line, projected onto "
           "the joints and walls with a tolerance of max(1 mm, one pixel)."),
  };
}

ImportedTrack import_track(const io::SceneNode& track, const fs::path& base_dir,
                           const fs::path& scene, const RunSettings& settings) {
  const fs::path file = base_dir / track.text("points");
  PixelFrame pixels;
  pixels.scale = track.real("scale");
  pixels.sign = Vec2(track.boolean("flip_x") ? -1.0 : 1.0, track.boolean("flip_y") ? -1.0 : 1.0);
  const std::vector<double> origin = track.reals("origin", 2);
  pixels.origin = Vec2(origin[0], origin[1]);
  const std::vector<TrackedPoint> points =
      file.extension() == ".npy" ? read_npy_points(track, file) : read_csv_points(track, file);
  if (points.empty()) track.fail("points", track.text("points"), "at least one tracked point");
  const std::map<long, TrackedFrame> frames = group_frames(track, file, points);
  vine::VineModel model = vine::load_vine_scene_file(scene, settings).model;

  ImportedTrack out;
  io::Json& r = out.record = io::Json::object();
  r["points"] = track.text("points");
  r["pixel_to_metre"] = pixels.scale;
  r["flip_x"] = track.boolean("flip_x");
  r["flip_y"] = track.boolean("flip_y");
  r["origin_pixels"] = json_reals(origin);
  r["order"] = track.text("order");
  r["time_base"] = track.has("frame_rate") ? "frame_rate" : "time column " + track.text("time");
  r["dt"] = model.dt;
  io::Json& per_frame = r["frames"] = io::Json::object();
  for (const char* k : {"frame", "time", "step", "tracked_points", "dropped_points", "base_added"})
    per_frame[k] = io::Json::array();
  const double t0 = frames.begin()->second.time;
  std::vector<Vec2> first, ordered;  // the first frame's ordered points [m]
  for (const auto& [number, f] : frames) {
    const int step = frame_step(track, file, f, t0, model.dt);
    out.frames.push_back(
        frame_centerline(track, file, f, pixels, model.base, step, per_frame, ordered));
    if (first.empty()) first = ordered;
    per_frame["frame"].push_back(static_cast<std::int64_t>(number));
    per_frame["time"].push_back(f.time);
    per_frame["step"].push_back(step);
  }
  r["dropped_frames"] = static_cast<std::int64_t>(frames.rbegin()->first - frames.begin()->first +
                                                  1 - static_cast<long>(frames.size()));
  if (track.has("walls")) {
    const auto walls = read_walls(track, base_dir / track.text("walls"), pixels);
    out.settings.push_back(walls_setting(walls, track.real("wall_half_thickness"), model));
    r["walls"] = static_cast<std::int64_t>(walls.size());
  }
  if (track.boolean("start"))
    out.settings.push_back(start_setting(model, out.frames.front(), first, pixels, track, r));
  return out;
}

}  // namespace tendril::fit
