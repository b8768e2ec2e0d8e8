#include "tendril/io/npy.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tendril/core/error.hpp"

namespace tendril::io {

static_assert(std::endian::native == std::endian::little,
              "npy writer assumes a little-endian machine");

namespace {

constexpr char kMagic[] = "\x93NUMPY";

std::string header_dict(NpyType type, std::size_t frames,
                        const std::vector<std::size_t>& frame_shape) {
  std::string shape = fmt::format("({}", frames);
  for (std::size_t d : frame_shape) shape += fmt::format(", {}", d);
  shape += frame_shape.empty() ? ",)" : ")";
  return fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                     type == NpyType::Float64 ? "<f8" : "<i8", shape);
}

/// Total header length (magic + version + length field + dict + padding + newline), a multiple
/// of 64.
std::size_t padded_size(std::size_t dict_length) {
  return (10 + dict_length + 1 + 63) / 64 * 64;
}

}  // namespace

NpyAppender::NpyAppender(const std::filesystem::path& file, NpyType type,
                         std::vector<std::size_t> frame_shape)
    : file_(file),
      out_(file, std::ios::binary | std::ios::trunc),
      type_(type),
      frame_shape_(std::move(frame_shape)) {
  if (!out_) throw InputError(file.string(), "(cannot be created)", "a writable path");
  for (std::size_t d : frame_shape_) frame_size_ *= d;
  // room for a frame count of 20 digits, so the header never has to move
  header_size_ = padded_size(
      header_dict(type_, std::numeric_limits<std::size_t>::max(), frame_shape_).size() + 1);
  write_header();
}

NpyAppender::~NpyAppender() {
  try {
    close();
  } catch (...) {
    // a destructor must not throw; an explicit close() reports the failure
  }
}

void NpyAppender::check_written() const {
  if (!out_)
    throw InputError(file_.string(), "(write failed)", "a writable file system with free space");
}

void NpyAppender::write_header() {
  std::string dict = header_dict(type_, frames_, frame_shape_);
  const std::size_t dict_room = header_size_ - 10;
  dict.append(dict_room - 1 - dict.size(), ' ');
  dict += '\n';
  const auto length = static_cast<std::uint16_t>(dict.size());
  out_.seekp(0);
  out_.write(kMagic, 6);
  const char version[2] = {1, 0};
  out_.write(version, 2);
  const char length_bytes[2] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out_.write(length_bytes, 2);
  out_.write(dict.data(), static_cast<std::streamsize>(dict.size()));
}

void NpyAppender::append(std::span<const double> frame) {
  append_frame(NpyType::Float64, reinterpret_cast<const char*>(frame.data()), frame.size(),
               frame.size_bytes());
}

void NpyAppender::append(std::span<const std::int64_t> frame) {
  append_frame(NpyType::Int64, reinterpret_cast<const char*>(frame.data()), frame.size(),
               frame.size_bytes());
}

void NpyAppender::append_frame(NpyType type, const char* bytes, std::size_t values,
                               std::size_t size) {
  TENDRIL_ASSERT(type_ == type, type == NpyType::Float64
                                    ? "npy: appending float64 to an int64 array"
                                    : "npy: appending int64 to a float64 array");
  TENDRIL_ASSERT(values == frame_size_, "npy: frame size does not match the array's frame shape");
  out_.write(bytes, static_cast<std::streamsize>(size));
  check_written();
  ++frames_;
}

void NpyAppender::close() {
  if (!out_.is_open()) return;
  write_header();
  out_.close();
  check_written();
}

namespace {

/// The dimensions in the header's 'shape' tuple: each a whole number >= 0, their product (the
/// number of values) at most `max_values`. InputError naming `file` otherwise.
std::vector<std::size_t> npy_shape(const std::filesystem::path& file, const std::string& dict,
                                   std::size_t max_values) {
  const auto key = dict.find("'shape'");
  const auto open = dict.find('(', key);
  const auto close = dict.find(')', open);
  if (key == std::string::npos || open == std::string::npos || close == std::string::npos)
    throw InputError(file.string(), dict, "a header with a 'shape' tuple");
  std::stringstream items(dict.substr(open + 1, close - open - 1));
  std::vector<std::size_t> shape;
  for (std::string item; std::getline(items, item, ',');) {
    const auto first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    if (first == std::string::npos) continue;
    const std::string digits = item.substr(first, last - first + 1);
    const bool whole =
        digits.size() <= 18 && digits.find_first_not_of("0123456789") == std::string::npos;
    if (!whole)
      throw InputError(file.string(), fmt::format("shape dimension '{}'", digits),
                       "a whole number >= 0");
    shape.push_back(std::stoull(digits));
  }
  // the number of values (0 when any dimension is: frames of an empty array, e.g. a shell's twists)
  if (std::find(shape.begin(), shape.end(), std::size_t{0}) != shape.end()) return shape;
  std::size_t count = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (count > max_values / shape[k])
      throw InputError(
          file.string(),
          fmt::format("shape ({}...)", fmt::join(shape.begin(), shape.begin() + k + 1, ", ")),
          fmt::format("at most {} values (the size of the file: truncated, or a wrong header)",
                      max_values));
    count *= shape[k];
  }
  return shape;
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError(file.string(), "(missing or not a regular file)", "an existing .npy file");
  const std::uintmax_t file_bytes = std::filesystem::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (!in || ec) throw InputError(file.string(), "(cannot be opened)", "an existing .npy file");
  char head[10];
  in.read(head, 10);
  if (!in || std::memcmp(head, kMagic, 6) != 0 || head[6] != 1)
    throw InputError(file.string(), "(not a version 1 .npy file)",
                     "a .npy file of format version 1.0");
  const std::size_t length =
      static_cast<unsigned char>(head[8]) | (static_cast<unsigned char>(head[9]) << 8);
  std::string dict(length, '\0');
  in.read(dict.data(), static_cast<std::streamsize>(length));
  if (!in)
    throw InputError(file.string(), "(truncated header)", "a .npy file of format version 1.0");

  NpyArray a;
  if (dict.find("'<f8'") != std::string::npos)
    a.type = NpyType::Float64;
  else if (dict.find("'<i8'") != std::string::npos)
    a.type = NpyType::Int64;
  else
    throw InputError(file.string(), dict, "descr '<f8' or '<i8'");
  if (dict.find("'fortran_order': False") == std::string::npos)
    throw InputError(file.string(), dict, "C order (fortran_order False)");
  a.shape = npy_shape(file, dict, (file_bytes - 10 - length) / 8);
  std::size_t count = 1;
  for (std::size_t d : a.shape) count *= d;
  a.data.resize(count);
  if (a.type == NpyType::Float64) {
    in.read(reinterpret_cast<char*>(a.data.data()), static_cast<std::streamsize>(count * 8));
  } else {
    std::vector<std::int64_t> raw(count);
    in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(count * 8));
    for (std::size_t i = 0; i < count; ++i) a.data[i] = static_cast<double>(raw[i]);
  }
  if (!in)
    throw InputError(file.string(), "(truncated data)",
                     "as many values as the header's shape says");
  return a;
}

}  // namespace tendril::io
