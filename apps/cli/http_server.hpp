#pragma once
/// A small HTTP/1.1 server for `tendril view` and `tendril render`: GET and HEAD only, persistent
/// connections; files also in one byte range ("Range: bytes=a-b", 206), so the viewer can show the
/// first frame of a large run before the rest has arrived. Bound to loopback unless another host is
/// given; on loopback it also refuses requests whose Host header is not a loopback name (DNS
/// rebinding). What a path maps to is the caller's handler: the server only parses
/// (http_request.hpp) and sends.
///
/// Connections are served concurrently: the thread that calls serve() waits on every open
/// connection for its next request head (poll), kWorkers threads answer complete requests. A slow
/// or idle client holds no thread: a connection is closed when no byte of its next request arrives
/// within kIdleTimeout, or when a request head is not complete kHeadTimeout after its first byte or
/// exceeds kMaxHead bytes (431). Past kMaxConnections open connections a new one gets 503 and is
/// closed. A response that makes no progress for kSendTimeout (a client not reading) is dropped.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace tendril::cli {

/// A response: a file streamed from disk when `file` is set, else `body`.
struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::filesystem::path file;
};

/// threads answering requests
inline constexpr int kWorkers = 4;
/// open connections at most; one more is answered 503 and closed
inline constexpr int kMaxConnections = 64;
/// a connection waiting for its next request is closed after this long without a byte
inline constexpr std::chrono::seconds kIdleTimeout{5};
/// a request head must be complete this long after its first byte
inline constexpr std::chrono::seconds kHeadTimeout{5};
/// a response is dropped when the client takes no byte of it for this long
inline constexpr std::chrono::seconds kSendTimeout{10};
/// request head size at most [B]
inline constexpr std::size_t kMaxHead = 16384;

/// The site: the response to a decoded request path.
using Handler = std::function<HttpResponse(const std::string& path)>;

class HttpServer {
 public:
  /// Binds and listens on host:port (port 0: any free port). Throws InputError ("--host"/"--port")
  /// if the address is not an IPv4 address or cannot be bound.
  HttpServer(const std::string& host, int port);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }
  /// "http://host:port/"
  std::string url() const;

  /// Serves requests until `stop` becomes true (checked at least every 200 ms), then finishes the
  /// responses under way and closes every connection. `handler` gets the decoded path (e.g.
  /// "/run/0/run.json") and is called from several threads at once.
  void serve(const Handler& handler, const std::atomic<bool>& stop);

 private:
  /// Answers the request head at the start of `buffer` (removed from it) on `fd`; true if the
  /// connection stays open for the next request.
  bool answer(int fd, std::string& buffer, const Handler& handler) const;
  int socket_ = -1;
  int port_ = 0;
  std::string host_;
  bool loopback_ = true;
};

}  // namespace tendril::cli
