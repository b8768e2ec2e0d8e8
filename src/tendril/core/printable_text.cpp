#include "tendril/core/printable_text.hpp"

#include <cstdio>

namespace tendril {

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  unsigned cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF)
    n = 2, cp = b0 & 0x1Fu;
  else if (b0 >= 0xE0 && b0 <= 0xEF)
    n = 3, cp = b0 & 0x0Fu;
  else if (b0 >= 0xF0 && b0 <= 0xF4)
    n = 4, cp = b0 & 0x07u;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  // overlong forms, UTF-16 surrogates and code points past U+10FFFF are invalid
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xD800 && cp <= 0xDFFF) ||
      cp > 0x10FFFF)
    return 0;
  return n;
}

std::string printable(std::string_view s, std::size_t max_bytes) {
  std::string out;
  const std::size_t end = s.size() < max_bytes ? s.size() : max_bytes;
  std::size_t i = 0;
  while (i < end) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence_length(s, i);
    if (n > 1 && i + n <= end) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (n == 1 && c >= 0x20 && c != 0x7F)
      out += static_cast<char>(c);
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
    ++i;
  }
  if (s.size() > end) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace tendril
