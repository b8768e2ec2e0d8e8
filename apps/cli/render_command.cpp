// `tendril render RUN_DIR... --out movie.mp4 [--speed S]` or `--png frame.png [--frame K | --time
// T]`: the viewer page rendered offscreen in headless Chromium (driven by render.mjs with
// playwright-core, from the viewer bundle) with a time stamp and the run names in the frame and,
// for a video, the images piped to ffmpeg (H.264, yuv420p): one per saved frame of the longest run,
// or with --speed one per 1/fps of video time, each showing the saved frames at or before its
// simulated time. The page is served by the same site as `tendril view`, on a free loopback port,
// for the duration of the command.

#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

#include "command.hpp"
#include "http_server.hpp"
#include "share_files.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"
#include "viewer_site.hpp"

namespace tendril::cli {

namespace {

struct RenderOptions {
  std::vector<std::string> runs;
  std::string out, png, colour;
  long frame = -1;
  double time = std::nan("");  ///< simulated time of the --png image [s]; NaN: use --frame
  double speed =
      std::nan("");  ///< simulated seconds per video second; NaN: one video frame per saved frame
  int width = 1280, height = 720, fps = 30;
  double azimuth = -60, elevation = 25, zoom = 1;
  double deformation_scale =
      1;  ///< displacement from the first frame drawn magnified by this factor
  std::string node = "node", chromium = "/usr/bin/chromium", ffmpeg = "ffmpeg";  ///< programs used
};

/// --speed (> 0, for a video) and --time (for a PNG, inside the clock's span [0, duration] [s]).
void check_time_options(const RenderOptions& o, double duration) {
  if (!std::isnan(o.speed) && (o.out.empty() || !(o.speed > 0)))
    throw InputError("--speed", std::to_string(o.speed),
                     "a number > 0 (simulated seconds per video second), only with --out");
  if (std::isnan(o.time)) return;
  if (o.png.empty() || o.frame >= 0)
    throw InputError("--time", std::to_string(o.time), "only with --png, and not with --frame");
  if (!(o.time >= 0 && o.time <= duration))
    throw InputError("--time", std::to_string(o.time),
                     "0 .. " + std::to_string(duration) + " s (the longest run's end)");
}

int render(const RenderOptions& o) {
  if (o.out.empty() == o.png.empty())
    throw InputError("--out/--png", "(both or neither)",
                     "exactly one of --out movie.mp4 and --png frame.png");
  if (o.width < 16 || o.height < 16 || o.width > 7680 || o.height > 4320)
    throw InputError("--width/--height", std::to_string(o.width) + "x" + std::to_string(o.height),
                     "16x16 .. 7680x4320");
  if (o.fps < 1 || o.fps > 240) throw InputError("--fps", std::to_string(o.fps), "1 .. 240");
  if (!(o.zoom > 0)) throw InputError("--zoom", std::to_string(o.zoom), "a number > 0");
  if (!(o.deformation_scale >= 0 && std::isfinite(o.deformation_scale)))
    throw InputError("--deformation-scale", std::to_string(o.deformation_scale), "a number >= 0");
  const ViewerSite site(o.runs);
  for (const std::string& problem : site.problems()) {
    std::fprintf(stderr, "error: cannot render run %s\n", problem.c_str());
    return kExitBadInput;
  }
  // the clock runs to the end of the longest run, whose frames --frame counts
  long frames = 0;
  double duration = -1;
  for (const std::string& dir : o.runs) {
    const std::vector<double> t = io::read_run(dir).array("frame_time").data;
    if (!t.empty() && t.back() > duration) {
      duration = t.back();
      frames = static_cast<long>(t.size());
    }
  }
  if (o.frame < -1 || o.frame >= frames)
    throw InputError("--frame", std::to_string(o.frame),
                     "0 .. " + std::to_string(frames - 1) + " (default: the last)");
  check_time_options(o, duration);
  HttpServer server("127.0.0.1", 0);
  std::atomic<bool> stop{false};
  std::thread serving(
      [&] { server.serve([&](const std::string& path) { return site.handle(path); }, stop); });

  std::string url = server.url() + "?render=1&azimuth=" + std::to_string(o.azimuth) +
                    "&elevation=" + std::to_string(o.elevation) + "&zoom=" + std::to_string(o.zoom);
  if (!o.colour.empty()) url += "&colour=" + o.colour;
  if (o.deformation_scale != 1) url += "&deform=" + std::to_string(o.deformation_scale);
  const std::vector<std::string> argv = {o.node,
                                         share_file("viewer/render.mjs").string(),
                                         url,
                                         o.png.empty() ? "video" : "png",
                                         o.png.empty() ? o.out : o.png,
                                         std::to_string(o.width),
                                         std::to_string(o.height),
                                         std::to_string(o.fps),
                                         std::to_string(o.frame),
                                         std::to_string(o.time),
                                         std::to_string(o.speed),
                                         o.chromium,
                                         o.ffmpeg};
  const int code = run_process(argv);
  stop = true;
  serving.join();
  if (code == 2) return kExitBadInput;  // render.mjs reported bad input (e.g. an unknown --colour)
  return helper_exit_code("rendering", "render.mjs", code,
                          "node, /usr/bin/chromium and ffmpeg: scripts/setup.sh installs them");
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* cmd =
      app.add_subcommand("render",
                         "Render runs offscreen with the viewer, with a time stamp and the run "
                         "names: a video or one PNG");
  cmd->add_option("runs", o->runs, "Run directories (several: side by side)")->required();
  cmd->add_option("--out", o->out, "Video file to write (.mp4, H.264)");
  cmd->add_option("--png", o->png, "Write one frame as PNG instead of a video");
  cmd->add_option("--frame", o->frame, "Frame of the longest run for --png (default: the last)");
  cmd->add_option("--time", o->time, "Simulated time [s] for --png (instead of --frame)");
  cmd->add_option("--speed", o->speed,
                  "Simulated seconds per video second (1 real time, 0.1 slow motion); "
                  "default: one video frame per saved frame");
  cmd->add_option("--width", o->width, "Image width [px]")->capture_default_str();
  cmd->add_option("--height", o->height, "Image height [px]")->capture_default_str();
  cmd->add_option("--fps", o->fps, "Video frame rate [1/s]")->capture_default_str();
  cmd->add_option("--azimuth", o->azimuth, "Camera azimuth about +z [deg] (3D runs)")
      ->capture_default_str();
  cmd->add_option("--elevation", o->elevation,
                  "Camera elevation above the xy plane [deg] (3D runs)")
      ->capture_default_str();
  cmd->add_option("--zoom", o->zoom, "Camera zoom (> 1 closer)")->capture_default_str();
  cmd->add_option("--deformation-scale", o->deformation_scale,
                  "Draw the displacement from the first frame magnified by this factor (0: the "
                  "first frame's shape)")
      ->capture_default_str();
  cmd->add_option("--chromium", o->chromium, "Chromium program to render with")
      ->capture_default_str();
  cmd->add_option("--ffmpeg", o->ffmpeg, "ffmpeg program to encode the video with")
      ->capture_default_str();
  cmd->add_option("--node", o->node, "Node.js program that drives Chromium")->capture_default_str();
  cmd->add_option("--colour", o->colour,
                  "Colour by a field: speed, displacement, curvature, strain, twist, "
                  "body_angle, body_speed");
  return {cmd, [o] { return render(*o); }};
}

}  // namespace tendril::cli
