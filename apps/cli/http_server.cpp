#include "http_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "http_request.hpp"
#include "tendril/core/error.hpp"

namespace tendril::cli {

namespace {

using Clock = std::chrono::steady_clock;

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 206:
      return "Partial Content";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 416:
      return "Range Not Satisfiable";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Internal Server Error";
  }
}

bool send_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

HttpResponse text(int status, const char* body) {
  return {status, "text/plain; charset=utf-8", body, {}};
}

/// `path` opened if it is a regular file (not a FIFO or device), and its size; else -1.
int open_regular_file(const std::filesystem::path& path, std::uint64_t& size) {
  const int file = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st {};
  if (file >= 0 && ::fstat(file, &st) == 0 && S_ISREG(st.st_mode)) {
    size = static_cast<std::uint64_t>(st.st_size);
    return file;
  }
  if (file >= 0) ::close(file);
  return -1;
}

/// Sends `response` (no body for HEAD); a file in the byte range the request's Range header asks
/// for. False if the client is gone.
bool send_response(int fd, const HttpRequest& request, HttpResponse response, bool keep_alive) {
  std::uint64_t length = response.body.size(), first = 0;
  const int file = response.file.empty() ? -1 : open_regular_file(response.file, length);
  if (!response.file.empty() && file < 0) response = text(404, "not found\n");
  std::string extra;
  if (file >= 0) {
    const ByteRange range = parse_range(request.range, length);
    if (range.status == 400)
      response =
          text(400, "bad Range header (one range: bytes=first-last, bytes=first-, bytes=-count)\n");
    if (range.status == 416) response = text(416, "");
    extra = range.status == 416 ? fmt::format("Content-Range: bytes */{}\r\n", length)
                                : "Accept-Ranges: bytes\r\n";
    if (range.status == 206) {
      response.status = 206;
      extra += fmt::format("Content-Range: bytes {}-{}/{}\r\n", range.first, range.last, length);
      first = range.first;
      length = range.last - range.first + 1;
    }
  }
  if (response.file.empty()) length = response.body.size();
  const std::string header = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
      "X-Content-Type-Options: nosniff\r\n{}{}\r\n\r\n",
      response.status, reason(response.status), response.content_type, length, extra,
      keep_alive
          ? fmt::format("Connection: keep-alive\r\nKeep-Alive: timeout={}", kIdleTimeout.count())
          : std::string("Connection: close"));
  bool ok = send_all(fd, header.data(), header.size());
  if (request.method != "HEAD" && !response.file.empty()) {
    off_t offset = static_cast<off_t>(first);
    const std::uint64_t end = first + length;
    while (ok && static_cast<std::uint64_t>(offset) < end) {
      const ssize_t n = ::sendfile(fd, file, &offset, end - static_cast<std::uint64_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      ok = n > 0;
    }
  } else if (request.method != "HEAD" && ok) {
    ok = send_all(fd, response.body.data(), response.body.size());
  }
  if (file >= 0) ::close(file);
  return ok;
}

/// A connection between requests: the bytes received of its next request(s), when it is dropped.
struct Connection {
  int fd = -1;
  std::string buffer;
  Clock::time_point deadline;
  bool started = false;  ///< a byte of the next request has arrived
  bool gone = false;     ///< the client closed it or it failed
};

/// Starts the wait for the connection's next request (kIdleTimeout, or kHeadTimeout once begun).
void wait_for_request(Connection& c) {
  c.started = !c.buffer.empty();
  c.deadline = Clock::now() + (c.started ? kHeadTimeout : kIdleTimeout);
}

/// Reads what has arrived on the connection, without blocking.
void receive(Connection& c) {
  char buffer[4096];
  while (c.buffer.size() <= kMaxHead) {
    const ssize_t n = ::recv(c.fd, buffer, sizeof(buffer), MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) {
      c.gone = true;
      return;
    }
    c.buffer.append(buffer, static_cast<std::size_t>(n));
    if (!c.started) wait_for_request(c);
  }
}

/// Connections handed between the polling thread and the workers.
struct Handover {
  std::mutex mutex;
  std::condition_variable work;
  std::deque<Connection> requests;   ///< a complete (or too long) head waits for a worker
  std::vector<Connection> returned;  ///< kept open by a worker: back to waiting for a request
  bool stopping = false;
  int open = 0;            ///< connections open
  int wake[2] = {-1, -1};  ///< pipe: a returned connection wakes the polling thread

  void close(int fd) {
    ::close(fd);
    const std::lock_guard<std::mutex> lock(mutex);
    --open;
  }
};

/// Hands every connection with a complete (or too long) head to the workers; closes those that
/// are gone or past their deadline.
void dispatch(Handover& hand, std::vector<Connection>& waiting) {
  std::vector<Connection> still;
  for (Connection& c : waiting) {
    if (c.buffer.find("\r\n\r\n") != std::string::npos || c.buffer.size() > kMaxHead) {
      const std::lock_guard<std::mutex> lock(hand.mutex);
      hand.requests.push_back(std::move(c));
      hand.work.notify_one();
    } else if (c.gone || Clock::now() >= c.deadline) {
      hand.close(c.fd);
    } else {
      still.push_back(std::move(c));
    }
  }
  waiting.swap(still);
}

/// Milliseconds until the first deadline, at most 200.
int poll_timeout(const std::vector<Connection>& waiting) {
  auto wait = std::chrono::milliseconds(200);
  for (const Connection& c : waiting)
    wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(c.deadline - Clock::now()));
  return static_cast<int>(std::max<std::chrono::milliseconds::rep>(wait.count(), 0));
}

/// Accepts every pending connection; past kMaxConnections open ones, answers 503 and closes.
void accept_connections(int listener, Handover& hand, std::vector<Connection>& waiting) {
  for (;;) {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;  // none left (the listening socket does not block)
    bool full = false;
    {
      const std::lock_guard<std::mutex> lock(hand.mutex);
      full = hand.open >= kMaxConnections;
      if (!full) ++hand.open;
    }
    if (full) {
      const std::string body = "too many connections\n";
      const std::string busy = fmt::format(
          "HTTP/1.1 503 {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n"
          "Retry-After: 1\r\nConnection: close\r\n\r\n{}",
          reason(503), body.size(), body);
      ::send(fd, busy.data(), busy.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      ::close(fd);
      continue;
    }
    const timeval timeout{static_cast<time_t>(kSendTimeout.count()), 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    Connection c;
    c.fd = fd;
    wait_for_request(c);
    waiting.push_back(std::move(c));
  }
}

}  // namespace

HttpServer::HttpServer(const std::string& host, int port) : host_(host) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (port < 0 || port > 65535)
    throw InputError("--port", std::to_string(port), "0 (any free port) .. 65535");
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1)
    throw InputError(
        "--host", host,
        "an IPv4 address (127.0.0.1 for this machine only, 0.0.0.0 for every interface)");
  loopback_ = (ntohl(address.sin_addr.s_addr) >> 24) == 127;
  socket_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  const int yes = 1;
  ::setsockopt(socket_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  if (socket_ < 0 || ::bind(socket_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(socket_, 64) != 0) {
    const std::string why = std::strerror(errno);
    if (socket_ >= 0) ::close(socket_);
    throw InputError("--port", fmt::format("{}:{} ({})", host, port, why),
                     "a free port on that address");
  }
  socklen_t length = sizeof(address);
  ::getsockname(socket_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
}

HttpServer::~HttpServer() {
  if (socket_ >= 0) ::close(socket_);
}

std::string HttpServer::url() const {
  return fmt::format("http://{}:{}/", host_, port_);
}

void HttpServer::serve(const Handler& handler, const std::atomic<bool>& stop) {
  Handover hand;
  if (::pipe2(hand.wake, O_CLOEXEC | O_NONBLOCK) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe2");
  std::vector<std::thread> workers;
  for (int i = 0; i < kWorkers; ++i)
    workers.emplace_back([&] {
      // sendfile has no MSG_NOSIGNAL: a client gone mid-file is EPIPE here, not a SIGPIPE
      sigset_t pipe;
      sigemptyset(&pipe);
      sigaddset(&pipe, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
      for (;;) {
        Connection c;
        {
          std::unique_lock<std::mutex> lock(hand.mutex);
          hand.work.wait(lock, [&] { return hand.stopping || !hand.requests.empty(); });
          if (hand.stopping) return;
          c = std::move(hand.requests.front());
          hand.requests.pop_front();
        }
        if (!answer(c.fd, c.buffer, handler)) {
          hand.close(c.fd);
          continue;
        }
        wait_for_request(c);
        const std::lock_guard<std::mutex> lock(hand.mutex);
        hand.returned.push_back(std::move(c));
        const ssize_t written = ::write(hand.wake[1], "", 1);  // a full pipe is already a wake-up
        (void)written;
      }
    });
  std::vector<Connection> waiting;
  while (!stop) {
    {
      const std::lock_guard<std::mutex> lock(hand.mutex);
      for (Connection& c : hand.returned) waiting.push_back(std::move(c));
      hand.returned.clear();
    }
    std::vector<pollfd> fds = {{socket_, POLLIN, 0}, {hand.wake[0], POLLIN, 0}};
    for (const Connection& c : waiting) fds.push_back({c.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), poll_timeout(waiting));  // on EINTR (a signal) nothing is ready
    char drain[64];
    while (::read(hand.wake[0], drain, sizeof(drain)) > 0) continue;
    for (std::size_t i = 0; i < waiting.size(); ++i)
      if (fds[i + 2].revents != 0) receive(waiting[i]);
    if (fds[0].revents & POLLIN) accept_connections(socket_, hand, waiting);
    dispatch(hand, waiting);
  }
  {
    const std::lock_guard<std::mutex> lock(hand.mutex);
    hand.stopping = true;
  }
  hand.work.notify_all();
  for (std::thread& t : workers) t.join();
  for (const auto* list : {&waiting, &hand.returned})
    for (const Connection& c : *list) ::close(c.fd);
  for (const Connection& c : hand.requests) ::close(c.fd);
  ::close(hand.wake[0]);
  ::close(hand.wake[1]);
}

bool HttpServer::answer(int fd, std::string& buffer, const Handler& handler) const {
  const std::size_t end = buffer.find("\r\n\r\n");
  if (end == std::string::npos || end + 4 > kMaxHead) {
    send_response(fd, {}, text(431, "request head too large\n"), false);
    return false;
  }
  const HttpRequest request = parse_request(std::string_view(buffer).substr(0, end + 4));
  buffer.erase(0, end + 4);
  HttpResponse response;
  if (request.status != 0) {
    response = text(request.status, "bad request\n");
  } else if (request.method != "GET" && request.method != "HEAD") {
    response = text(405, "only GET and HEAD\n");
  } else if (loopback_ && request.host != "localhost" && request.host != "127.0.0.1" &&
             request.host != "[::1]") {
    response = text(403, "this server only answers to localhost / 127.0.0.1\n");
  } else {
    try {
      response = handler(request.path);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: internal error answering a request: %s\n", e.what());
      response = text(500, "internal error\n");
    }
  }
  const bool keep_alive = request.status == 0 && request.keep_alive;
  return send_response(fd, request, response, keep_alive) && keep_alive;
}

}  // namespace tendril::cli
