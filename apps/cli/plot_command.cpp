// `tendril plot RUN_DIR [--out DIR] [--node I]`: PNG plots of what the run records, drawn by the
// shipped plot_run.py (share directory, see share_files.hpp) with Debian's python3-matplotlib.
// The run is read by the C++ reader first, so a damaged run fails with the same message as
// `tendril view` and `tendril export`.

#include <memory>
#include <string>

#include "command.hpp"
#include "share_files.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::cli {

namespace {

struct PlotOptions {
  std::string run, out, python;
  long node = -1;
};

int plot(const PlotOptions& o) {
  const io::RunData run =
      io::read_run(o.run);  // clear errors for a damaged run before Python starts
  if (run.has("positions")) {
    const long nodes = static_cast<long>(run.array("positions").shape.at(1));
    if (o.node < -1 || o.node >= nodes)
      throw InputError("--node", std::to_string(o.node),
                       "a node index in [0, " + std::to_string(nodes) + ")");
  }
  const std::string out = o.out.empty() ? (std::filesystem::path(o.run) / "plots").string() : o.out;
  const int code = run_process(
      {o.python, share_file("plot_run.py").string(), o.run, out, std::to_string(o.node)});
  return helper_exit_code(
      "plotting", "plot_run.py (" + o.python + ")", code,
      "numpy and matplotlib: apt-get install python3-matplotlib, or name another --python");
}

}  // namespace

Command add_plot_command(CLI::App& app) {
  auto o = std::make_shared<PlotOptions>();
  CLI::App* cmd =
      app.add_subcommand("plot",
                         "PNG plots of a run: energies, Newton iterations and residuals, "
                         "step wall time, a node's trajectory, the vine tip path");
  cmd->add_option("run", o->run, "Run directory (docs/output_format.md)")->required();
  cmd->add_option("--out", o->out, "Directory for the PNG files (default: RUN_DIR/plots)")
      ->check(kNonEmptyPath);
  cmd->add_option("--node", o->node, "Node whose trajectory is plotted (default: the last node)");
  add_python_option(*cmd, o->python);
  return {cmd, [o] { return plot(*o); }};
}

}  // namespace tendril::cli
