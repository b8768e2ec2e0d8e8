#include "tendril/io/run_directory.hpp"

#include <unistd.h>

#include <fstream>
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

/// Replaces `destination` by `source` (a directory); the old destination is removed first.
void replace_directory(const std::filesystem::path& source, const std::filesystem::path& destination) {
  std::error_code ec;
  std::filesystem::remove_all(destination, ec);
  std::filesystem::rename(source, destination, ec);
  if (ec) throw InputError(destination.string(), "(cannot be created: " + ec.message() + ")", "a writable path");
}

}  // namespace

RunDirectory::RunDirectory(std::filesystem::path out, std::string kind, Json scene)
    : out_(std::move(out)), kind_(std::move(kind)), scene_(std::move(scene)) {
  if (out_.has_filename() == false) out_ = out_.parent_path();
  tmp_ = out_;
  tmp_ += fmt::format(".tmp-{}", static_cast<long>(::getpid()));
  std::error_code ec;
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
  meta["format_version"] = 1;
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
