#include "tendril/io/run_directory.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "tendril/core/error.hpp"

namespace tendril::io {

const char* tendril_version() { return "0.1.0"; }

namespace {

void write_file(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw InputError(file.string(), "(cannot be written)", "a writable path");
}

/// True if `dir` may be replaced by a run: it does not exist, is an empty directory, or is a
/// directory holding an earlier run (its run.json names the "tendril-run" format).
bool replaceable(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return true;
  if (!std::filesystem::is_directory(dir, ec)) return false;
  if (std::filesystem::is_empty(dir, ec)) return true;
  std::ifstream meta(dir / "run.json");
  const std::string text((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
  return text.find("\"format\": \"tendril-run\"") != std::string::npos ||
         text.find("\"format\":\"tendril-run\"") != std::string::npos;
}

/// Checks that a run may end up at `dir` (an earlier run there is replaced only at the end).
void check_destination(const std::filesystem::path& dir) {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  // the current directory or one of its parents would contain the temporary directory itself
  const auto [end, unused] = std::mismatch(dir.begin(), dir.end(), cwd.begin(), cwd.end());
  if (end == dir.end())
    throw InputError("--out", dir.string(), "a directory that is not the current directory or one of its parents");
  if (!replaceable(dir))
    throw InputError("--out", dir.string(),
                     "a new path, an empty directory or an earlier tendril run directory (which is replaced); "
                     "this one holds other files");
}

/// Replaces `destination` by `source` (a directory): the old destination is moved aside, the new
/// one moved in, then the old one removed, so a failure leaves the old destination in place.
void replace_directory(const std::filesystem::path& source, const std::filesystem::path& destination) {
  std::error_code ec;
  std::filesystem::path backup = destination;
  backup += fmt::format(".old-{}", static_cast<long>(::getpid()));
  const bool had_old = std::filesystem::exists(destination, ec);
  if (had_old) {
    std::filesystem::rename(destination, backup, ec);
    if (ec) throw InputError(destination.string(), "(cannot be replaced: " + ec.message() + ")", "a writable path");
  }
  std::filesystem::rename(source, destination, ec);
  if (ec) {
    std::error_code ignored;
    if (had_old) std::filesystem::rename(backup, destination, ignored);
    throw InputError(destination.string(), "(cannot be created: " + ec.message() + ")", "a writable path");
  }
  if (had_old) std::filesystem::remove_all(backup, ec);
}

}  // namespace

RunDirectory::RunDirectory(std::filesystem::path out, std::string kind, Json scene)
    : out_(std::move(out)), kind_(std::move(kind)), scene_(std::move(scene)) {
  std::error_code ec;
  out_ = std::filesystem::absolute(out_, ec).lexically_normal();
  if (!out_.has_filename()) out_ = out_.parent_path();
  check_destination(out_);
  std::filesystem::path failed = out_;
  failed += ".failed";
  check_destination(failed);
  tmp_ = out_;
  tmp_ += fmt::format(".tmp-{}", static_cast<long>(::getpid()));
  std::filesystem::remove_all(tmp_, ec);
  if (out_.has_parent_path()) std::filesystem::create_directories(out_.parent_path(), ec);
  if (!std::filesystem::create_directory(tmp_, ec) || ec)
    throw InputError(out_.string(), "(cannot create " + tmp_.string() + ")", "a writable output directory");
}

RunDirectory::~RunDirectory() {
  if (!open_) return;
  try {
    fail("interrupted: the run ended before it was finished");
  } catch (...) {
    // a destructor must not throw; the temporary directory stays for inspection
  }
}

NpyAppender& RunDirectory::add_array(const std::string& name, NpyType type, std::vector<std::size_t> frame_shape,
                                     std::string unit, std::string meaning, std::string frames_axis) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  for (const auto& a : arrays_) TENDRIL_ASSERT(a.name != name, "array added twice: " + name);
  arrays_.push_back({name, std::move(unit), std::move(meaning), std::move(frames_axis),
                     std::make_unique<NpyAppender>(tmp_ / (name + ".npy"), type, std::move(frame_shape))});
  return *arrays_.back().file;
}

NpyAppender& RunDirectory::array(const std::string& name) {
  for (auto& a : arrays_)
    if (a.name == name) return *a.file;
  TENDRIL_ASSERT(false, "no such array: " + name);
  return *arrays_.front().file;
}

void RunDirectory::set_info(const std::string& key, Json value) { info_[key] = std::move(value); }

void RunDirectory::write_text_file(const std::string& name, const std::string& text) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  write_file(tmp_ / name, text);
}

std::filesystem::path RunDirectory::close(const std::string& status, const std::string& message,
                                          const std::filesystem::path& destination) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  open_ = false;
  Json meta = Json::object();
  meta["format"] = "tendril-run";
  meta["format_version"] = 2;
  meta["tendril_version"] = tendril_version();
  meta["kind"] = kind_;
  meta["status"] = status;
  meta["message"] = message;
  meta["units"] = "SI (m, kg, s, rad, N, J); each array gives its unit";
  Json arrays = Json::array();
  for (auto& a : arrays_) {
    a.file->close();
    Json entry = Json::object();
    entry["name"] = a.name;
    entry["file"] = a.name + ".npy";
    entry["dtype"] = a.file->type() == NpyType::Float64 ? "float64" : "int64";
    Json shape = Json::array();
    shape.push_back(a.file->frames());
    for (std::size_t d : a.file->frame_shape()) shape.push_back(d);
    entry["shape"] = std::move(shape);
    entry["first_axis"] = a.frames_axis;
    entry["unit"] = a.unit;
    entry["meaning"] = a.meaning;
    arrays.push_back(std::move(entry));
  }
  meta["arrays"] = std::move(arrays);
  meta["info"] = info_;
  meta["scene"] = scene_;
  write_file(tmp_ / "run.json", meta.dump() + "\n");
  replace_directory(tmp_, destination);
  return destination;
}

std::filesystem::path RunDirectory::finish() { return close("completed", "", out_); }

std::filesystem::path RunDirectory::fail(const std::string& message) {
  std::filesystem::path failed = out_;
  failed += ".failed";
  return close("failed", message, failed);
}

}  // namespace tendril::io
