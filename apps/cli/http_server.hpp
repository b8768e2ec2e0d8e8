#pragma once
/// A small HTTP/1.1 server for `tendril view` and `tendril render`: GET and HEAD only, one
/// connection at a time, "Connection: close"; files also in one byte range ("Range: bytes=a-b",
/// 206), so the viewer can show the first frame of a large run before the rest has arrived. Bound to loopback unless another host is given; on
/// loopback it also refuses requests whose Host header is not a loopback name (DNS rebinding).
/// What a path maps to is the caller's handler: the server only parses and sends.

#include <atomic>
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

/// Decodes %XX escapes of a request path (the query string already removed). Returns false for a
/// malformed escape or an encoded NUL.
bool percent_decode(const std::string& in, std::string& out);

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

  /// Serves requests until `stop` becomes true (checked at least every 200 ms). `handler` gets the
  /// decoded path (e.g. "/run/0/run.json").
  void serve(const std::function<HttpResponse(const std::string& path)>& handler, const std::atomic<bool>& stop);

 private:
  void handle_connection(int fd, const std::function<HttpResponse(const std::string&)>& handler);
  int socket_ = -1;
  int port_ = 0;
  std::string host_;
  bool loopback_ = true;
};

}  // namespace tendril::cli
