#pragma once
/// NumPy .npy files (format version 1.0, little-endian, C order) written frame by frame:
/// the leading dimension grows with every append and the header's shape is rewritten at close.
/// The header is padded to a fixed size chosen at open time, large enough for any frame count.
/// Readable with numpy alone: numpy.load("positions.npy").

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace tendril::io {

enum class NpyType { Float64, Int64 };

/// An array of shape (frames, frame_shape...) appended one frame at a time.
class NpyAppender {
 public:
  NpyAppender() = default;
  /// Creates the file with zero frames. frame_shape may be empty (one scalar per frame).
  NpyAppender(const std::filesystem::path& file, NpyType type,
              std::vector<std::size_t> frame_shape);
  NpyAppender(NpyAppender&&) noexcept = default;
  NpyAppender& operator=(NpyAppender&&) noexcept = default;
  ~NpyAppender();

  /// Appends one frame (size = product of frame_shape). Type must match.
  void append(std::span<const double> frame);
  void append(std::span<const std::int64_t> frame);
  /// Writes the final shape into the header and closes the file (idempotent).
  void close();

  std::size_t frames() const { return frames_; }
  std::size_t frame_size() const { return frame_size_; }
  const std::vector<std::size_t>& frame_shape() const { return frame_shape_; }
  NpyType type() const { return type_; }

 private:
  void write_header();
  /// Appends one frame of `type`: `values` values, `size` bytes from `bytes`.
  void append_frame(NpyType type, const char* bytes, std::size_t values, std::size_t size);
  /// Throws InputError if the stream failed (a full disk, a vanished directory).
  void check_written() const;
  std::filesystem::path file_;
  std::ofstream out_;
  NpyType type_ = NpyType::Float64;
  std::vector<std::size_t> frame_shape_;
  std::size_t frame_size_ = 1;
  std::size_t frames_ = 0;
  std::size_t header_size_ = 0;
};

/// Appends one frame of a scalar array (frame_shape empty): a double or a std::int64_t.
template <class T>
void append_scalar(NpyAppender& array, T value) {
  array.append(std::span<const T>(&value, 1));
}

/// A whole .npy file read back (float64 or int64 arrays, any shape; int64 data converted to
/// double).
struct NpyArray {
  std::vector<std::size_t> shape;
  std::vector<double> data;  ///< C order
  NpyType type = NpyType::Float64;
  std::size_t size() const { return data.size(); }
};

/// Reads a .npy file written by NpyAppender (or numpy with '<f8' / '<i8', C order).
/// Throws InputError if the file is missing or not in that format.
NpyArray read_npy(const std::filesystem::path& file);

}  // namespace tendril::io
