// The fit file's data.track (fit/track_import.hpp), read by read_fit_file, against references
// computed in the test:
// - a straight robot (4 bodies, heading 0.5 rad) drawn as pixels every pixel of its length
//   (1 mm per pixel, origin at pixel (100, 200), rows growing downwards: flip_y), shuffled, with
//   a time column at 0, 0.02 and 0.05 s (frames 0, 2, 5: three frames dropped, dt = 0.01 s): the
//   frames at steps 0, 2 and 5, each resampled to the exact points k L / (P - 1) along the line
//   (from the base at the origin), the record's conversions and dropped frames, the walls
//   (segments in pixels) as the scene's obstacles, and the start on the line;
// - the same track as an (F, P, 2) .npy array with a frame rate gives the same frames;
// - a start one 0.9 pixel off the base (2 mm pixels: it moves 1.8 mm, more than the scene's 1 mm
//   default tolerance, which refuses it) is not refused;
// - bad data names the key, the file and its line and why: a cell that is not a number, a frame
//   time between steps, two times in one frame, an .npy array of another shape or beyond the
//   data-file limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

#include <fmt/format.h>

#include "support/input_error.hpp"
#include "support/scratch_dir.hpp"
#include "tendril/core/bounded_file.hpp"
#include "tendril/fit/fit_file.hpp"
#include "tendril/io/npy.hpp"
#include "tendril/vine/initial_state.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::fit {
namespace {

namespace fs = std::filesystem;
using testing::expect_input_error;

constexpr double kHeading = 0.5, kLength = 0.2;  // [rad], [m]: the tracked robot's line

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = testing::scratch_dir("track_import") / name;
  std::ofstream(p) << text;
  return p;
}

/// The scene: 4 bodies of 40 mm from the origin along kHeading.
void write_scene() {
  write("vine.yaml",
        "vine:\n  bodies: 4\n  half_length: 0.02\n  stiffness: [0.05]\n  damping: [1.0e-4]\n"
        "  heading: 0.5\n  dt: 0.01\n  steps: 5\n  growth: {rate: 0.01}\n");
}

/// Pixel of the point s [m] along the line, offset `side` [m] to its left.
Vec2 pixel(double s, double side = 0.0) {
  const Vec2 e(std::cos(kHeading), std::sin(kHeading)), n(-e.y(), e.x());
  const Vec2 x = s * e + side * n;
  return Vec2(100.0 + x.x() / 1e-3, 200.0 - x.y() / 1e-3);
}

/// A fit file (vine_shooting) with `track` as the lines of data.track.
fs::path fit_file(const std::string& track) {
  write_scene();
  return write("fit.yaml",
               "scene: vine.yaml\nmethod: vine_shooting"
               "\nparameters:\n  - {key: vine.stiffness, initial: 0.05}\n"
               "  - {key: vine.damping, initial: 1.0e-4}\ndata:\n  track:\n" +
                   track);
}

/// The line's pixels every pixel (and its end), shuffled, for frames 0, 2 and 5 with times.
std::string track_csv() {
  std::vector<std::string> rows;
  for (const auto& [frame, time] : {std::pair{0, "0"}, {2, "0.02"}, {5, "0.05"}})
    for (int k = 0; k <= 200; ++k) {
      const Vec2 p = pixel(k * 1e-3);
      rows.push_back(fmt::format("{},{},{:.17g},{:.17g}", frame, time, p.x(), p.y()));
    }
  std::mt19937 rng(3);
  std::shuffle(rows.begin(), rows.end(), rng);
  std::string csv = "frame,t,x,y\n";
  for (const std::string& r : rows) csv += r + "\n";
  return csv;
}

constexpr const char* kTrack =
    "    points: track.csv\n    time: t\n    scale: 1.0e-3\n    flip_y: true\n"
    "    origin: [100, 200]\n    resample_points: 11\n    walls: walls.csv\n";

void expect_frames_on_the_line(const FitFile& f, const std::vector<int>& steps) {
  ASSERT_EQ(f.frames.size(), steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(f.frames[i].step, steps[i]);
    ASSERT_EQ(f.frames[i].points.rows(), 11);
    for (int k = 0; k <= 10; ++k) {
      const double s = k * kLength / 10;
      EXPECT_NEAR(f.frames[i].points(k, 0), s * std::cos(kHeading), 1e-12) << k;
      EXPECT_NEAR(f.frames[i].points(k, 1), s * std::sin(kHeading), 1e-12) << k;
    }
  }
}

TEST(TrackImport, PixelsBecomeResampledFramesAtTheirStepsWithWallsAndStart) {
  write("track.csv", track_csv());
  const Vec2 a = pixel(0.05, 0.05), b = pixel(0.15, 0.05);
  write("walls.csv", fmt::format("x0,y0,x1,y1\n{},{},{},{}\n", a.x(), a.y(), b.x(), b.y()));
  const FitFile f = read_fit_file(fit_file(kTrack));
  expect_frames_on_the_line(f, {0, 2, 5});
  const std::string record = f.track.dump(-1);
  for (const char* part :
       {"\"dropped_frames\": 3", "\"step\": [0, 2, 5]", "\"pixel_to_metre\": 0.001", "\"walls\": 1",
        "\"tracked_points\": [201, 201, 201]", "\"base_added\": [false, false, false]"})
    EXPECT_NE(record.find(part), std::string::npos) << part << " in " << record;
  // the run's scene: the wall 50 mm to the left of the line, the start on the line
  const vine::VineScene scene = vine::load_vine_scene_file(f.scene, f.data.experiments.front());
  ASSERT_EQ(scene.model.obstacles.size(), 1u);
  const Vec2 e(std::cos(kHeading), std::sin(kHeading));
  for (int i = 0; i < 4; ++i) {
    const Vec2 x = scene.initial.q.segment<2>(3 * i);
    EXPECT_NEAR(e.x() * x.y() - e.y() * x.x(), 0.0, 1e-9) << "body " << i;
    EXPECT_NEAR(scene.initial.q(3 * i + 2), kHeading, 1e-9) << "body " << i;
  }
}

TEST(TrackImport, AnNpyArrayWithAFrameRateGivesTheSameFrames) {
  // frames 0 .. 5 at 100 per second; 1, 3 and 4 not tracked (NaN)
  std::vector<double> data;
  for (int frame = 0; frame <= 5; ++frame)
    for (int k = 0; k <= 200; ++k) {
      const bool tracked = frame == 0 || frame == 2 || frame == 5;
      const Vec2 p = pixel(k * 1e-3);
      data.push_back(tracked ? p.x() : std::nan(""));
      data.push_back(tracked ? p.y() : std::nan(""));
    }
  const fs::path npy = testing::scratch_dir("track_import") / "track.npy";
  {
    io::NpyAppender out(npy, io::NpyType::Float64, {201, 2});
    for (int frame = 0; frame <= 5; ++frame)
      out.append(std::span<const double>(data.data() + frame * 402, 402));
  }
  const FitFile f = read_fit_file(
      fit_file("    points: track.npy\n    frame_rate: 100\n    scale: 1.0e-3\n    flip_y: true\n"
               "    origin: [100, 200]\n    resample_points: 11\n"));
  expect_frames_on_the_line(f, {0, 2, 5});
}

TEST(TrackImport, AStartThatMovesLessThanOnePixelIsNotRefused) {
  // pixels of 2 mm; the line 0.9 pixel (1.8 mm) to the side of the base
  std::string csv = "frame,x,y\n";
  std::vector<Vec2> metres;
  for (int k = 0; k <= 100; ++k) {
    const Vec2 p = pixel(2e-3 * k, 1.8e-3);
    const Vec2 q((p.x() - 100.0) / 2.0 + 100.0, (p.y() - 200.0) / 2.0 + 200.0);  // 2 mm pixels
    csv += fmt::format("0,{:.17g},{:.17g}\n1,{:.17g},{:.17g}\n", q.x(), q.y(), q.x(), q.y());
    metres.push_back(2e-3 * Vec2(q.x() - 100.0, 200.0 - q.y()));
  }
  write("offset.csv", csv);
  const FitFile f = read_fit_file(
      fit_file("    points: offset.csv\n    frame_rate: 100\n    scale: 2.0e-3\n    flip_y: true\n"
               "    origin: [100, 200]\n"));
  const io::Json* start = f.track.find("start");
  ASSERT_NE(start, nullptr);
  const std::string text = start->dump(-1);
  EXPECT_NE(text.find("\"tolerance\": 0.002"), std::string::npos) << text;
  // the scene's own default tolerance (1 mm) refuses this start
  const vine::VineScene scene = vine::load_vine_scene_file(f.scene);
  EXPECT_THROW(vine::state_from_centerline(scene.model, metres, 1e-3, "start"), InputError);
}

TEST(TrackImport, BadDataNamesTheFileTheLineAndWhy) {
  write("walls.csv", "x0,y0,x1,y1\n0,0,1,1\n");
  write("track.csv", track_csv() + "5,0.05,12,oops\n");
  expect_input_error([&] { read_fit_file(fit_file(kTrack)); },
                     {"data.track.y", "track.csv line 605", "oops", "a finite real number"});
  write("track.csv", "frame,t,x,y\n0,0,100,200\n0,0,101,199\n1,0.015,100,200\n1,0.015,101,199\n");
  expect_input_error(
      [&] { read_fit_file(fit_file(kTrack)); },
      {"data.track.time", "track.csv line 4", "1.5 steps", "whole steps of the scene's vine.dt"});
  write("track.csv", "frame,t,x,y\n0,0,100,200\n0,0.01,150,170\n");
  expect_input_error([&] { read_fit_file(fit_file(kTrack)); },
                     {"data.track.time", "track.csv line 3", "the time of frame 0", "line 2"});
  {
    io::NpyAppender out(testing::scratch_dir("track_import") / "bad.npy", io::NpyType::Float64,
                        {4});
    const double row[4] = {0, 1, 2, 3};
    out.append(std::span<const double>(row, 4));
  }
  expect_input_error(
      [&] {
        read_fit_file(fit_file("    points: bad.npy\n    frame_rate: 30\n    scale: 1.0e-3\n"));
      },
      {"data.track.points", "bad.npy", "shape (1, 4)", "(N, 3)"});
  // an .npy file beyond the data-file limit (lowered here to 100 bytes) is refused by its size
  const std::size_t limit = input_file_limits().max_data_file_bytes;
  input_file_limits().max_data_file_bytes = 100;
  expect_input_error(
      [&] {
        read_fit_file(fit_file("    points: bad.npy\n    frame_rate: 30\n    scale: 1.0e-3\n"));
      },
      {"data.track.points", "bad.npy", "160 bytes", "at most 100 bytes"});
  input_file_limits().max_data_file_bytes = limit;
}

}  // namespace
}  // namespace tendril::fit
