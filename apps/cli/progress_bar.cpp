#include "progress_bar.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

namespace tendril::cli {

ProgressBar::ProgressBar(std::string iterations_name)
    : enabled_(::isatty(STDERR_FILENO) == 1), iterations_name_(std::move(iterations_name)) {}

namespace {

/// "1h02m", "3m05s", "12s": the time left at the mean rate so far ("?" before the first step).
std::string eta_text(double fraction, double elapsed) {
  if (!(fraction > 0.0) || fraction > 1.0) return "?";
  const long s = static_cast<long>(elapsed * (1.0 - fraction) / fraction + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s % 3600 / 60);
  else if (s >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", s);
  return buf;
}

/// Columns of the terminal on stderr (80 if it does not say).
std::size_t terminal_columns() {
  winsize size{};
  return ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
}

}  // namespace

void ProgressBar::update(double fraction, double time, double duration, int iterations) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && fraction < 1.0 && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  char status[160];
  std::snprintf(status, sizeof status, " %3.0f%%  t = %.4g / %.4g s  %d %s  ETA %s",
                100.0 * fraction, time, duration, iterations, iterations_name_.c_str(),
                eta_text(fraction, elapsed).c_str());
  // one line narrower than the terminal (a wrapped line cannot be redrawn by \r): the bar gives way
  // first (40 to 10 characters), then the end of the status; ESC [ K erases what remains of the
  // previous line
  const std::size_t columns = terminal_columns(), rest = std::string_view(status).size() + 2;
  const std::size_t width =
      std::clamp<std::size_t>(columns > rest + 1 ? columns - rest - 1 : 0, 10, 40);
  const auto filled = static_cast<std::size_t>(fraction * static_cast<double>(width) + 0.5);
  std::string line(1, '[');
  line.append(filled, '#').append(width - filled, '.').append(1, ']').append(status);
  line.resize(std::min(line.size(), columns - 1));
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\n");
  drawn_ = false;
}

}  // namespace tendril::cli
