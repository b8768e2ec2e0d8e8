// `tendril render RUN_DIR... --out movie.mp4` or `--png frame.png [--frame K]`: the viewer page
// rendered offscreen in headless Chromium (driven by render.mjs with playwright-core, from the
// viewer bundle) and, for a video, one image per saved frame piped to ffmpeg (H.264, yuv420p).
// The page is served by the same site as `tendril view`, on a free loopback port, for the
// duration of the command.

#include <atomic>
#include <cstdio>
#include <cstdlib>
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
  int width = 1280, height = 720, fps = 30;
  double azimuth = -60, elevation = 25, zoom = 1;
};

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

int render(const RenderOptions& o) {
  if (o.out.empty() == o.png.empty()) throw InputError("--out/--png", "(both or neither)", "exactly one of --out movie.mp4 and --png frame.png");
  if (o.width < 16 || o.height < 16 || o.width > 7680 || o.height > 4320)
    throw InputError("--width/--height", std::to_string(o.width) + "x" + std::to_string(o.height), "16x16 .. 7680x4320");
  if (o.fps < 1 || o.fps > 240) throw InputError("--fps", std::to_string(o.fps), "1 .. 240");
  if (!(o.zoom > 0)) throw InputError("--zoom", std::to_string(o.zoom), "a number > 0");
  const ViewerSite site(o.runs);
  for (const std::string& problem : site.problems()) {
    std::fprintf(stderr, "error: cannot render run %s\n", problem.c_str());
    return kExitBadInput;
  }
  // the frames of the first run (the one that leads the clock) for --frame
  const io::RunData lead = io::read_run(o.runs.front());
  const long frames = static_cast<long>(lead.array("frame_time").shape.at(0));
  if (o.frame < -1 || o.frame >= frames)
    throw InputError("--frame", std::to_string(o.frame), "0 .. " + std::to_string(frames - 1) + " (default: the last)");
  HttpServer server("127.0.0.1", 0);
  std::atomic<bool> stop{false};
  std::thread serving([&] { server.serve([&](const std::string& path) { return site.handle(path); }, stop); });

  std::string url = server.url() + "?render=1&azimuth=" + std::to_string(o.azimuth) +
                    "&elevation=" + std::to_string(o.elevation) + "&zoom=" + std::to_string(o.zoom);
  if (!o.colour.empty()) url += "&colour=" + o.colour;
  const std::vector<std::string> argv = {
      env_or("TENDRIL_NODE", "node"), share_file("viewer/render.mjs").string(), url,
      o.png.empty() ? "video" : "png", o.png.empty() ? o.out : o.png, std::to_string(o.width),
      std::to_string(o.height), std::to_string(o.fps), std::to_string(o.frame),
      env_or("TENDRIL_CHROMIUM", "/usr/bin/chromium"), env_or("TENDRIL_FFMPEG", "ffmpeg")};
  const int code = run_process(argv);
  stop = true;
  serving.join();
  if (code == 2) return kExitBadInput;  // render.mjs reported bad input (e.g. an unknown --colour)
  if (code != 0) {
    const std::string why =
        helper_failure("render.mjs", code, "node, /usr/bin/chromium and ffmpeg: scripts/setup.sh installs them");
    std::fprintf(stderr, "error: rendering failed: %s\n", why.c_str());
    return kExitFailedRun;
  }
  return 0;
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* cmd = app.add_subcommand("render", "Render runs offscreen with the viewer: a video (one image per saved "
                                               "frame) or one PNG");
  cmd->add_option("runs", o->runs, "Run directories (several: side by side)")->required();
  cmd->add_option("--out", o->out, "Video file to write (.mp4, H.264)");
  cmd->add_option("--png", o->png, "Write one frame as PNG instead of a video");
  cmd->add_option("--frame", o->frame, "Frame for --png (default: the last)");
  cmd->add_option("--width", o->width, "Image width [px]")->capture_default_str();
  cmd->add_option("--height", o->height, "Image height [px]")->capture_default_str();
  cmd->add_option("--fps", o->fps, "Video frame rate [1/s]; one video frame per saved frame")->capture_default_str();
  cmd->add_option("--azimuth", o->azimuth, "Camera azimuth about +z [deg] (3D runs)")->capture_default_str();
  cmd->add_option("--elevation", o->elevation, "Camera elevation above the xy plane [deg] (3D runs)")->capture_default_str();
  cmd->add_option("--zoom", o->zoom, "Camera zoom (> 1 closer)")->capture_default_str();
  cmd->add_option("--colour", o->colour, "Colour by a field: speed, displacement, curvature, strain, twist, "
                                         "body_angle, body_speed");
  return {cmd, [o] { return render(*o); }};
}

}  // namespace tendril::cli
