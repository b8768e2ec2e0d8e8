#include "http_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::cli {

namespace {

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 206: return "Partial Content";
    case 416: return "Range Not Satisfiable";
    default: return "Internal Server Error";
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

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool percent_decode(const std::string& in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size() || !std::isxdigit(static_cast<unsigned char>(in[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(in[i + 2])))
      return false;
    const char c = static_cast<char>(std::stoi(in.substr(i + 1, 2), nullptr, 16));
    if (c == '\0') return false;
    out += c;
    i += 2;
  }
  return true;
}

HttpServer::HttpServer(const std::string& host, int port) : host_(host) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (port < 0 || port > 65535) throw InputError("--port", std::to_string(port), "0 (any free port) .. 65535");
  if (inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1)
    throw InputError("--host", host, "an IPv4 address (127.0.0.1 for this machine only, 0.0.0.0 for every interface)");
  loopback_ = (ntohl(address.sin_addr.s_addr) >> 24) == 127;
  socket_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int yes = 1;
  ::setsockopt(socket_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  if (socket_ < 0 || ::bind(socket_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(socket_, 64) != 0) {
    const std::string why = std::strerror(errno);
    if (socket_ >= 0) ::close(socket_);
    throw InputError("--port", fmt::format("{}:{} ({})", host, port, why), "a free port on that address");
  }
  socklen_t length = sizeof(address);
  ::getsockname(socket_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
}

HttpServer::~HttpServer() {
  if (socket_ >= 0) ::close(socket_);
}

std::string HttpServer::url() const { return fmt::format("http://{}:{}/", host_, port_); }

void HttpServer::serve(const std::function<HttpResponse(const std::string&)>& handler, const std::atomic<bool>& stop) {
  while (!stop) {
    pollfd p{socket_, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) continue;
    const int fd = ::accept4(socket_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    timeval timeout{10, 0};  // a client that stops sending or reading is dropped
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    handle_connection(fd, handler);
    ::close(fd);
  }
}

void HttpServer::handle_connection(int fd, const std::function<HttpResponse(const std::string&)>& handler) {
  // the request head (up to 16 KiB)
  std::string head;
  char buffer[4096];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < 16384) {
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    head.append(buffer, static_cast<std::size_t>(n));
  }
  HttpResponse response;
  const std::size_t line_end = head.find("\r\n");
  const std::string line = head.substr(0, line_end);
  const std::size_t s1 = line.find(' '), s2 = line.rfind(' ');
  const std::string method = line.substr(0, s1);
  std::string target = s1 != std::string::npos && s2 > s1 ? line.substr(s1 + 1, s2 - s1 - 1) : "";
  std::string host, range;
  for (std::size_t at = line_end; at != std::string::npos && at + 2 < head.size();) {
    const std::size_t next = head.find("\r\n", at + 2);
    const std::string header = head.substr(at + 2, next - at - 2);
    if (lower(header.substr(0, 5)) == "host:") host = lower(header.substr(5));
    if (lower(header.substr(0, 6)) == "range:") range = lower(header.substr(6));
    at = next;
  }
  host.erase(0, host.find_first_not_of(' '));
  if (!host.empty() && host.back() != ']' && host.rfind(':') != std::string::npos) host.erase(host.rfind(':'));  // port
  std::string path;
  if (method != "GET" && method != "HEAD") {
    response = {405, "text/plain; charset=utf-8", "only GET and HEAD\n", {}};
  } else if (target.empty() || target[0] != '/' || !percent_decode(target.substr(0, target.find('?')), path)) {
    response = {400, "text/plain; charset=utf-8", "bad request target\n", {}};
  } else if (loopback_ && host != "localhost" && host != "127.0.0.1" && host != "[::1]") {
    response = {403, "text/plain; charset=utf-8", "this server only answers to localhost / 127.0.0.1\n", {}};
  } else {
    response = handler(path);
  }

  int file = -1;
  std::uint64_t length = response.body.size();
  if (!response.file.empty()) {
    file = ::open(response.file.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (file < 0 || ::fstat(file, &st) != 0) {
      if (file >= 0) ::close(file);
      file = -1;
      response = {404, "text/plain; charset=utf-8", "not found\n", {}};
      length = response.body.size();
    } else {
      length = static_cast<std::uint64_t>(st.st_size);
    }
  }
  // one byte range of a file ("Range: bytes=first-last", last clamped to the end): 206
  std::uint64_t first = 0;
  std::string extra = file >= 0 ? "Accept-Ranges: bytes\r\n" : "";
  if (file >= 0 && range.find("bytes=") != std::string::npos) {
    const std::string spec = range.substr(range.find("bytes=") + 6);
    const std::size_t dash = spec.find('-');
    std::uint64_t last = length - 1;
    bool valid = dash != std::string::npos && dash > 0 &&
                 spec.find_first_not_of("0123456789- ") == std::string::npos && spec.find(',') == std::string::npos;
    if (valid) {
      first = std::stoull(spec.substr(0, dash));
      const std::string tail = spec.substr(dash + 1);
      if (tail.find_first_of("0123456789") != std::string::npos) last = std::min<std::uint64_t>(last, std::stoull(tail));
      valid = first <= last && first < length;
    }
    if (valid) {
      extra += fmt::format("Content-Range: bytes {}-{}/{}\r\n", first, last, length);
      response.status = 206;
      length = last - first + 1;
    } else {
      ::close(file);
      file = -1;
      extra = fmt::format("Content-Range: bytes */{}\r\n", length);
      response.status = 416;
      response.body.clear();
      length = 0;
    }
  }
  const std::string header = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
      "X-Content-Type-Options: nosniff\r\n{}Connection: close\r\n\r\n",
      response.status, reason(response.status), response.content_type, length, extra);
  bool ok = send_all(fd, header.data(), header.size());
  if (method != "HEAD") {
    if (file >= 0) {
      off_t offset = static_cast<off_t>(first);
      const std::uint64_t end = first + length;
      while (ok && static_cast<std::uint64_t>(offset) < end) {
        const ssize_t n = ::sendfile(fd, file, &offset, end - static_cast<std::uint64_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
      }
    } else if (ok) {
      send_all(fd, response.body.data(), response.body.size());
    }
  }
  if (file >= 0) ::close(file);
}

}  // namespace tendril::cli
