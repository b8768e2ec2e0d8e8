#include "http_request.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

namespace tendril::cli {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trim(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool is_digits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A decimal number of digits only; past 2^64 - 1 it is 2^64 - 1.
std::uint64_t saturated_number(std::string_view digits) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc::result_out_of_range ? std::numeric_limits<std::uint64_t>::max()
                                                 : value;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The request line "METHOD SP /target SP HTTP/1.x" into `r`; false if malformed.
bool parse_request_line(std::string_view line, HttpRequest& r, bool& http11) {
  const std::size_t s1 = line.find(' ');
  const std::size_t s2 = s1 == std::string_view::npos ? s1 : line.find(' ', s1 + 1);
  if (s1 == 0 || s2 == std::string_view::npos || s2 == s1 + 1) return false;
  const std::string_view target = line.substr(s1 + 1, s2 - s1 - 1);
  const std::string_view version = line.substr(s2 + 1);
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return false;
  if (target[0] != '/' || !percent_decode(target.substr(0, target.find('?')), r.path)) return false;
  r.method = std::string(line.substr(0, s1));
  http11 = version == "HTTP/1.1";
  return true;
}

/// One "Name: value" header line into `r`; false if malformed or a repeated Host or Range.
bool parse_header(std::string_view line, HttpRequest& r, bool& close, bool& keep, bool& body) {
  const std::size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  const std::string name = lower(line.substr(0, colon));
  if (name.find_first_of(" \t") != std::string::npos) return false;  // also a folded line
  const std::string_view value = trim(line.substr(colon + 1));
  if (name == "host") {
    if (!r.host.empty() || value.empty()) return false;
    r.host = lower(value);
    if (r.host.back() != ']' && r.host.rfind(':') != std::string::npos)
      r.host.erase(r.host.rfind(':'));
  } else if (name == "range") {
    if (!r.range.empty() || value.empty()) return false;
    r.range = std::string(value);
  } else if (name == "connection") {
    const std::string tokens = lower(value);
    close = close || tokens.find("close") != std::string::npos;
    keep = keep || tokens.find("keep-alive") != std::string::npos;
  } else if (name == "transfer-encoding" || (name == "content-length" && value != "0")) {
    body = true;  // not read: the connection closes after the answer
  }
  return true;
}

}  // namespace

HttpRequest parse_request(std::string_view head) {
  HttpRequest r;
  r.status = 400;
  if (head.size() < 4 || head.find("\r\n\r\n") != head.size() - 4) return r;
  if (head.find('\0') != std::string_view::npos) return r;
  bool http11 = false, close = false, keep = false, body = false;
  std::size_t at = head.find("\r\n");
  const std::string_view request_line = head.substr(0, at);
  if (request_line.find_first_of("\r\n") != std::string_view::npos ||
      !parse_request_line(request_line, r, http11))
    return r;
  for (at += 2; at < head.size() - 2;) {
    const std::size_t next = head.find("\r\n", at);
    const std::string_view line = head.substr(at, next - at);
    if (line.find_first_of("\r\n") != std::string_view::npos ||
        !parse_header(line, r, close, keep, body))
      return r;
    at = next + 2;
  }
  r.keep_alive = (http11 ? !close : keep) && !body;
  r.status = 0;
  return r;
}

ByteRange parse_range(std::string_view value, std::uint64_t length) {
  if (value.empty()) return {200, 0, 0};
  const ByteRange bad{400, 0, 0}, unsatisfiable{416, 0, 0};
  if (value.size() < 6 || lower(value.substr(0, 6)) != "bytes=") return bad;
  const std::string_view spec = value.substr(6);
  if (spec.find(',') != std::string_view::npos) return unsatisfiable;  // one range only
  const std::size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return bad;
  const std::string_view a = spec.substr(0, dash), b = spec.substr(dash + 1);
  if ((a.empty() && b.empty()) || !is_digits(a) || !is_digits(b)) return bad;
  if (a.empty()) {  // the last n bytes
    const std::uint64_t n = saturated_number(b);
    if (n == 0 || length == 0) return unsatisfiable;
    return {206, length - std::min(n, length), length - 1};
  }
  const std::uint64_t first = saturated_number(a);
  const std::uint64_t last =
      b.empty() ? std::numeric_limits<std::uint64_t>::max() : saturated_number(b);
  if (last < first || first >= length) return unsatisfiable;
  return {206, first, std::min(last, length - 1)};
}

bool percent_decode(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    const int high = i + 2 < in.size() ? hex_digit(in[i + 1]) : -1;
    const int low = i + 2 < in.size() ? hex_digit(in[i + 2]) : -1;
    if (high < 0 || low < 0 || (high == 0 && low == 0)) return false;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return true;
}

}  // namespace tendril::cli
