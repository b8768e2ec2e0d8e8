#pragma once
/// The request side of the viewer's HTTP server (http_server.hpp), free of sockets so the fuzzer
/// (fuzz/http_request_fuzzer.cpp) drives it with bytes: the request head (request line, Host,
/// Range, Connection), percent-decoding of the path and one byte range of a file. Nothing here
/// throws: bad input is the status code to answer.

#include <cstdint>
#include <string>
#include <string_view>

namespace tendril::cli {

/// A parsed request head.
struct HttpRequest {
  int status = 0;           ///< 0: well formed; else the status to answer (400)
  std::string method;       ///< "GET", "HEAD", ... (as sent)
  std::string path;         ///< the target's path, %XX decoded, without the query string
  std::string host;         ///< the Host header, lower case, without its port
  std::string range;        ///< the Range header's value, trimmed ("" if none)
  bool keep_alive = false;  ///< HTTP/1.1 without "Connection: close" and without a body
};

/// Parses a request head: the bytes up to and including the blank line ("\r\n\r\n"). A missing
/// blank line, a malformed request line, target or header, a repeated Host or Range, folded
/// headers or another protocol than HTTP/1.x are status 400.
HttpRequest parse_request(std::string_view head);

/// The part of a file a Range header asks for.
struct ByteRange {
  int status = 200;         ///< 200: the whole file (no Range); 206: [first, last]; 416; 400
  std::uint64_t first = 0;  ///< first byte [B]
  std::uint64_t last = 0;   ///< last byte, inclusive [B]
};

/// One range of a file of `length` bytes from a Range header value ("" for none): "bytes=a-b"
/// (b clamped to the end), "bytes=a-", "bytes=-n" (the last n bytes). Malformed (not "bytes=",
/// no '-', anything but digits, spaces inside): 400. Well formed but not satisfiable (a past
/// the end, b < a, an empty suffix or file, several ranges): 416. Numbers of any length are read
/// without overflow (a number past 2^64 - 1 counts as 2^64 - 1).
ByteRange parse_range(std::string_view value, std::uint64_t length);

/// Decodes %XX escapes of a request path (the query string already removed). Returns false for a
/// malformed escape or an encoded NUL.
bool percent_decode(std::string_view in, std::string& out);

}  // namespace tendril::cli
