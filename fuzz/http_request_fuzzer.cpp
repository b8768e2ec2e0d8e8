// libFuzzer harness over the request parser of the viewer's HTTP server (issue 24,
// apps/cli/http_request.hpp): any bytes as a request head (cut at the first blank line, as the
// server does), their Range value and the bytes themselves as a Range header against file lengths
// from 0 to 2^64 - 1, and the bytes as a path to percent-decode. Nothing may throw or crash, and
// every answer must keep its promise: a well-formed request has a path that starts with '/' and
// holds no NUL; a range is 200 only without a header and 206 only inside the file; decoding turns
// each escape into one byte and never into a NUL. A broken
// promise aborts (a finding). How to build and run: fuzz/README.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

#include "http_request.hpp"

namespace {

using namespace tendril::cli;

void require(bool promise) {
  if (!promise) std::abort();
}

void check_range(std::string_view value, std::uint64_t length) {
  const ByteRange r = parse_range(value, length);
  require(r.status == 200 || r.status == 206 || r.status == 400 || r.status == 416);
  require((r.status == 200) == value.empty());
  if (r.status == 206) require(r.first <= r.last && r.last < length);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t blank = bytes.find("\r\n\r\n");
  const HttpRequest request =
      parse_request(blank == std::string_view::npos ? bytes : bytes.substr(0, blank + 4));
  require(request.status == 0 || request.status == 400);
  if (request.status == 0)
    require(!request.path.empty() && request.path[0] == '/' &&
            request.path.find('\0') == std::string::npos);
  for (const std::uint64_t length : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000},
                                     std::numeric_limits<std::uint64_t>::max()}) {
    check_range(request.range, length);
    check_range(bytes, length);
  }
  // each escape is three bytes in, one out; an encoded NUL is refused
  std::string path;
  if (percent_decode(bytes, path)) {
    require(path.size() ==
            size - 2 * static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '%')));
    require(path.find('\0') == std::string::npos || bytes.find('\0') != std::string_view::npos);
  }
  return 0;
}
