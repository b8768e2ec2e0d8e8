// `tendril view RUN_DIR [RUN_DIR...] [--port P] [--host H]`: serves the bundled browser viewer
// and the given runs (viewer_site.hpp) until Ctrl-C. Loopback only unless --host says otherwise.
// A run that cannot be read is reported here (stderr) and in the page; the exit code is then 2.

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "http_server.hpp"
#include "viewer_site.hpp"

namespace tendril::cli {

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void request_stop(int) {
  stop_requested = true;
}

struct ViewOptions {
  std::vector<std::string> runs;
  int port = 8765;
  std::string host = "127.0.0.1";
};

int view(const ViewOptions& o) {
  const ViewerSite site(o.runs);
  HttpServer server(o.host, o.port);
  for (const std::string& problem : site.problems())
    std::fprintf(stderr, "error: cannot show run %s\n", problem.c_str());
  std::printf("tendril view: %zu run(s) at %s  (Ctrl-C to stop)\n", o.runs.size(),
              server.url().c_str());
  if (o.host != "127.0.0.1" && o.host.rfind("127.", 0) != 0)
    std::printf("warning: serving on %s: anyone who can reach this address can read these runs\n",
                o.host.c_str());
  std::fflush(stdout);
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  server.serve([&](const std::string& path) { return site.handle(path); }, stop_requested);
  return site.problems().empty() ? 0 : kExitBadInput;
}

}  // namespace

Command add_view_command(CLI::App& app) {
  auto o = std::make_shared<ViewOptions>();
  CLI::App* cmd = app.add_subcommand(
      "view", "Show runs in the browser (3D rods and shells, 2D vines), side by side");
  cmd->add_option("runs", o->runs, "Run directories (docs/output_format.md)")->required();
  cmd->add_option("--port", o->port, "TCP port (0: any free port)")->capture_default_str();
  cmd->add_option("--host", o->host, "Address to listen on; 0.0.0.0 opens it to the network")
      ->capture_default_str();
  return {cmd, [o] { return view(*o); }};
}

}  // namespace tendril::cli
