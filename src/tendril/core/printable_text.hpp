#pragma once
/// Text from a scene shown to a person or written to JSON: valid UTF-8 passes through, anything
/// else (invalid bytes, control characters) is escaped, and long text is cut.

#include <cstddef>
#include <string>
#include <string_view>

namespace tendril {

/// Length in bytes of the valid UTF-8 sequence starting at s[i] (1..4), or 0 if the bytes there
/// are not valid UTF-8 (stray continuation byte, overlong form, surrogate, beyond U+10FFFF, cut
/// short).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

/// `s` for a terminal or an error message: control characters and invalid bytes written as \xNN
/// (\n, \t, \r as such), cut to at most `max_bytes` bytes of input followed by
/// "... (N bytes)" when longer.
std::string printable(std::string_view s, std::size_t max_bytes = 200);

}  // namespace tendril
