#include "tendril/core/bounded_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tendril/core/error.hpp"

namespace tendril {

InputFileLimits& input_file_limits() {
  static InputFileLimits limits;
  return limits;
}

namespace {

struct Closer {
  int fd;
  ~Closer() { ::close(fd); }
};

/// "key (file)" or "file" when the file is not named at a key (a scene file on the command line).
std::string where(const std::filesystem::path& file, const std::string& key) {
  return key.empty() || key == file.string() ? file.string() : key + " (" + file.string() + ")";
}

std::string without_byte_order_mark(std::string text) {
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return text;
}

}  // namespace

std::string read_bounded_file(const std::filesystem::path& file, const std::string& key,
                              const std::string& allowed, std::size_t max_bytes,
                              const std::string& limit_text) {
  const std::string name = where(file, key);
  const int timeout = input_file_limits().read_timeout_seconds;
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw InputError(name, std::string("(cannot be opened: ") + std::strerror(errno) + ")",
                     allowed);
  const Closer closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode))
    throw InputError(name, "(a directory)", allowed);
  const auto too_large = [&] {
    return InputError(name, "(more than " + std::to_string(max_bytes) + " bytes)", limit_text);
  };
  const bool regular = S_ISREG(st.st_mode);
  if (regular && static_cast<std::size_t>(st.st_size) > max_bytes) throw too_large();
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    if (!regular) {  // a pipe, FIFO or device (/dev/stdin, /dev/zero): wait for data at most
                     // `timeout`
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, timeout * 1000);
      if (ready == 0)
        throw InputError(
            name,
            "(nothing to read for " + std::to_string(timeout) + " s: a FIFO without a writer?)",
            "a file, or a pipe that sends its content");
      if (ready < 0 && errno != EINTR) throw InputError(name, std::strerror(errno), allowed);
    }
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      text.append(buffer, static_cast<std::size_t>(got));
      if (text.size() > max_bytes) throw too_large();
    } else if (got == 0) {
      return without_byte_order_mark(std::move(text));
    } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
      throw InputError(name, std::string("(read failed: ") + std::strerror(errno) + ")", allowed);
    }
  }
}

std::string read_data_file(const std::filesystem::path& file, const std::string& key,
                           const std::string& allowed) {
  const std::size_t max_bytes = input_file_limits().max_data_file_bytes;
  return read_bounded_file(file, key, allowed, max_bytes,
                           allowed + " of at most " + std::to_string(max_bytes) +
                               " bytes (the limit on files a scene or fit file names)");
}

}  // namespace tendril
