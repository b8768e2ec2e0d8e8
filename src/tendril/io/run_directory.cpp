#include "tendril/io/run_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <system_error>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "tendril/core/error.hpp"

namespace tendril::io {

const char* tendril_version() {
  return "0.1.0";
}

namespace {

namespace fs = std::filesystem;

volatile std::sig_atomic_t g_stop_signal = 0;

void record_stop_signal(int signal) {
  g_stop_signal = signal;
}

void write_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    throw InputError(file.string(), "(cannot be written)",
                     "a writable file system with free space");
}

/// The files the run.json text `text` lists (run.json itself included), or nullopt if it is not
/// of the tendril-run format. Older runs without "files" list their arrays only.
std::optional<std::set<std::string>> parse_listed_files(const std::string& text) {
  try {
    const YAML::Node j = YAML::Load(text);
    if (!j.IsMap() || !j["format"] || !j["format"].IsScalar() ||
        j["format"].Scalar() != "tendril-run")
      return std::nullopt;
    std::set<std::string> files{"run.json"};
    if (j["files"] && j["files"].IsSequence()) {
      for (const auto& f : j["files"])
        if (f.IsScalar()) files.insert(f.Scalar());
    } else if (j["arrays"] && j["arrays"].IsSequence()) {
      for (const auto& a : j["arrays"])
        if (a.IsMap() && a["file"] && a["file"].IsScalar()) files.insert(a["file"].Scalar());
    }
    return files;
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
}

/// The files a run folder's run.json lists (parse_listed_files), or nullopt if `dir` holds no
/// run.json of the tendril-run format. A run checks its destination before it starts and again
/// before it renames into it; the answer for the same text is kept, since parsing run.json (the
/// resolved scene, some kB) with the YAML parser costs about 1,200 instructions per byte.
std::optional<std::set<std::string>> listed_files(const fs::path& dir) {
  std::error_code ec;
  const fs::path meta = dir / "run.json";
  if (!fs::is_regular_file(fs::symlink_status(meta, ec)) ||
      fs::file_size(meta, ec) > (std::size_t{64} << 20))
    return std::nullopt;
  std::ifstream in(meta, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return std::nullopt;
  thread_local std::string last_text;
  thread_local std::optional<std::set<std::string>> last_files;
  if (text != last_text || text.empty()) {
    last_files = parse_listed_files(text);
    last_text = std::move(text);
  }
  return last_files;
}

/// True if `dir` is a folder of `tendril plot` output: it holds exactly the plain files its
/// plots.json ({"format": "tendril-plots", "files": [...]}) lists.
bool is_plots_folder(const fs::path& dir) {
  std::error_code ec;
  const fs::path marker = dir / "plots.json";
  if (!fs::is_regular_file(fs::symlink_status(marker, ec)) ||
      fs::file_size(marker, ec) > (std::size_t{1} << 20))
    return false;
  std::set<std::string> files;
  try {
    const YAML::Node j = YAML::LoadFile(marker.string());
    if (!j.IsMap() || !j["format"] || !j["format"].IsScalar() ||
        j["format"].Scalar() != "tendril-plots" || !j["files"] || !j["files"].IsSequence())
      return false;
    for (const auto& f : j["files"])
      if (f.IsScalar()) files.insert(f.Scalar());
  } catch (const YAML::Exception&) {
    return false;
  }
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    if (!fs::is_regular_file(entry.symlink_status(ec)) ||
        files.count(entry.path().filename().string()) == 0)
      return false;
  return !ec;
}

/// Why `dir` may not be replaced by a run ("" if it may): a symbolic link, a file, or a folder that
/// is neither empty nor a run folder holding exactly the files its run.json lists (and, optionally,
/// folders of `tendril plot` output, which are replaced with it).
std::string in_the_way(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(dir, ec);
  if (!fs::exists(status)) return "";
  if (fs::is_symlink(status))
    return "(a symbolic link to " + fs::read_symlink(dir, ec).string() +
           ", which is neither followed nor replaced)";
  if (!fs::is_directory(status)) return "(an existing file that is not a folder)";
  if (fs::is_empty(dir, ec)) return "";
  const auto files = listed_files(dir);
  std::vector<std::string> foreign;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const fs::file_status entry_status = entry.symlink_status(ec);
    const bool regular = fs::is_regular_file(entry_status);
    if (files && fs::is_directory(entry_status) && is_plots_folder(entry.path())) continue;
    if (!files || !regular || files->count(name) == 0)
      foreign.push_back(name + (regular ? "" : " (not a plain file)"));
  }
  // the first few names, then how many more
  std::string names;
  for (std::size_t i = 0; i < foreign.size() && i < 5; ++i) names += (i ? ", " : "") + foreign[i];
  if (foreign.size() > 5) names += fmt::format(" and {} more", foreign.size() - 5);
  if (!files)
    return "(a folder that is not a tendril run: no run.json of the tendril-run format; it holds " +
           names + ")";
  if (!foreign.empty())
    return "(a run folder that also holds files the run did not write: " + names +
           "; this one holds other files)";
  return "";
}

/// Checks that a run may end up at `dir` (an earlier run there is replaced only at the end).
void check_destination(const fs::path& dir) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  // the current directory or one of its parents would contain the temporary directory itself
  const auto [end, unused] = std::mismatch(dir.begin(), dir.end(), cwd.begin(), cwd.end());
  if (end == dir.end())
    throw InputError("--out", dir.string(),
                     "a directory that is not the current directory or one of its parents");
  const std::string problem = in_the_way(dir);
  if (!problem.empty())
    throw InputError(
        "--out " + dir.string(), problem,
        "a new path, an empty folder, or an earlier tendril run folder holding only the files its "
        "run.json lists (it is replaced); move the files in the way or choose another --out");
}

/// Creates "<out>.tmp-<pid>-<n>" for the first n whose name is free (mkdir is atomic and fails on
/// an existing name, so a folder that is there already is never reused or removed).
fs::path make_temporary(const fs::path& out) {
  for (int n = 0; n < 1000; ++n) {
    fs::path tmp = out;
    tmp += fmt::format(".tmp-{}-{}", static_cast<long>(::getpid()), n);
    if (::mkdir(tmp.c_str(), 0777) == 0) return tmp;
    if (errno != EEXIST)
      throw InputError(out.string(),
                       fmt::format("(cannot create {}: {})", tmp.string(), std::strerror(errno)),
                       "a writable output directory");
  }
  throw InputError(out.string(), "(1000 temporary folders next to it)",
                   "a writable output directory");
}

/// True if `dir` holds only plain files a run writes (*.npy, *.json) and no subfolder.
bool holds_only_run_files(const fs::path& dir) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string ext = entry.path().extension().string();
    if (!fs::is_regular_file(entry.symlink_status(ec)) || (ext != ".npy" && ext != ".json"))
      return false;
  }
  return !ec;
}

/// Removes "<out>.tmp-<pid>-<n>" folders left by runs that were killed (SIGKILL, a power cut): the
/// process <pid> no longer exists and the folder holds only a run's files. Returns their names.
/// Anything else with such a name (a live run's folder, a folder with other files) is left alone.
std::vector<std::string> remove_killed_temporaries(const fs::path& out) {
  std::vector<std::string> removed;
  std::error_code ec;
  const std::string prefix = out.filename().string() + ".tmp-";
  for (const fs::directory_entry& entry : fs::directory_iterator(out.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !fs::is_directory(entry.symlink_status(ec))) continue;
    long pid = 0;
    int n = 0;
    char tail = 0;
    if (std::sscanf(name.c_str() + prefix.size(), "%ld-%d%c", &pid, &n, &tail) != 2 || pid <= 0)
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH)
      continue;  // alive, or not ours to ask
    if (!holds_only_run_files(entry.path())) continue;
    if (fs::remove_all(entry.path(), ec) != static_cast<std::uintmax_t>(-1) && !ec)
      removed.push_back(name);
  }
  return removed;
}

/// Moves the finished `source` folder to `destination`: atomically swapped with an earlier run
/// there (checked again now, as files may have been added during the run), which is then removed.
void replace_directory(const fs::path& source, const fs::path& destination) {
  check_destination(destination);
  if (::renameat2(AT_FDCWD, source.c_str(), AT_FDCWD, destination.c_str(), RENAME_NOREPLACE) == 0)
    return;
  if (errno == EEXIST || errno == ENOTEMPTY) {
    if (::renameat2(AT_FDCWD, source.c_str(), AT_FDCWD, destination.c_str(), RENAME_EXCHANGE) ==
        0) {
      std::error_code ec;
      fs::remove_all(source, ec);  // the earlier run, now under the temporary name
      return;
    }
  }
  throw InputError(destination.string(),
                   fmt::format("(cannot be created: {})", std::strerror(errno)), "a writable path");
}

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  // SIGHUP: the terminal closed; SIGPIPE: whoever read our output went away (`tendril run ... |
  // head`)
  for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) ::sigaction(signal, &action, nullptr);
  // past a file size limit a write fails (and the run is reported failed) instead of killing us
  std::signal(SIGXFSZ, SIG_IGN);
}

int stop_signal() {
  return static_cast<int>(g_stop_signal);
}

double RunDirectory::estimated_bytes(long steps, long frames) const {
  double bytes = 0.0;
  for (const ArrayInfo& a : arrays_)
    bytes += 8.0 * static_cast<double>(a.file->frame_size()) *
             static_cast<double>(a.frames_axis == "step" ? steps : frames);
  return bytes;
}

RunDirectory::RunDirectory(fs::path out, std::string kind, Json scene)
    : out_(std::move(out)), kind_(std::move(kind)), scene_(std::move(scene)) {
  std::error_code ec;
  out_ = fs::absolute(out_, ec).lexically_normal();
  if (!out_.has_filename()) out_ = out_.parent_path();
  check_destination(out_);
  fs::path failed = out_;
  failed += ".failed";
  check_destination(failed);
  if (out_.has_parent_path()) fs::create_directories(out_.parent_path(), ec);
  const std::vector<std::string> removed = remove_killed_temporaries(out_);
  for (const std::string& name : removed)
    info_["removed_temporaries_of_killed_runs"].push_back(name);
  tmp_ = make_temporary(out_);
}

RunDirectory::~RunDirectory() {
  if (open_) stop("failed", "the run ended before it was finished (an error was raised)", -1, 0.0);
}

NpyAppender& RunDirectory::add_array(const std::string& name, NpyType type,
                                     std::vector<std::size_t> frame_shape, std::string unit,
                                     std::string meaning, std::string frames_axis) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  for (const auto& a : arrays_) TENDRIL_ASSERT(a.name != name, "array added twice: " + name);
  arrays_.push_back(
      {name, std::move(unit), std::move(meaning), std::move(frames_axis),
       std::make_unique<NpyAppender>(tmp_ / (name + ".npy"), type, std::move(frame_shape))});
  return *arrays_.back().file;
}

NpyAppender& RunDirectory::array(const std::string& name) {
  for (auto& a : arrays_)
    if (a.name == name) return *a.file;
  TENDRIL_ASSERT(false, "no such array: " + name);
  return *arrays_.front().file;
}

void RunDirectory::set_info(const std::string& key, Json value) {
  info_[key] = std::move(value);
}

void RunDirectory::write_text_file(const std::string& name, const std::string& text) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  write_file(tmp_ / name, text);
  adopt_file(name);
}

void RunDirectory::adopt_file(const std::string& name) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  if (std::find(text_files_.begin(), text_files_.end(), name) == text_files_.end())
    text_files_.push_back(name);
}

std::filesystem::path RunDirectory::close(const std::string& status, const std::string& message,
                                          const std::filesystem::path& destination, Json progress) {
  TENDRIL_ASSERT(open_, "run directory already closed");
  open_ = false;
  Json meta = Json::object();
  meta["format"] = "tendril-run";
  meta["format_version"] = 2;
  meta["tendril_version"] = tendril_version();
  meta["kind"] = kind_;
  meta["status"] = status;
  meta["message"] = message;
  if (!progress.is_null()) meta["reached"] = std::move(progress);
  meta["units"] = "SI (m, kg, s, rad, N, J); each array gives its unit";
  try {
    write_metadata(std::move(meta));
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);  // a full disk: no half-written run is left
    throw;
  }
  try {
    replace_directory(tmp_, destination);
  } catch (const InputError& e) {
    throw InputError(e.key_path(), e.value() + "; the run is kept in " + tmp_.string(),
                     e.allowed());
  }
  return destination;
}

void RunDirectory::write_metadata(Json meta) {
  Json arrays = Json::array(), files = Json::array(), lost = Json::array();
  bool all_written = true;
  for (auto& a : arrays_) {
    try {
      a.file->close();
    } catch (const InputError&) {
      // a write that failed (a full disk): the file is not trustworthy, so it is not kept
      std::error_code ec;
      fs::remove(tmp_ / (a.name + ".npy"), ec);
      lost.push_back(a.name);
      all_written = false;
      continue;
    }
    files.push_back(a.name + ".npy");
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
  if (!all_written) meta["arrays_not_written"] = std::move(lost);
  for (const auto& f : text_files_) files.push_back(f);
  files.push_back("run.json");
  meta["files"] = std::move(files);
  meta["info"] = info_;
  meta["scene"] = scene_;
  // run.json is written last: it marks the folder as a run's and lists every file in it
  write_file(tmp_ / "run.json", meta.dump() + "\n");
}

std::filesystem::path RunDirectory::finish() {
  return close("completed", "", out_);
}

std::filesystem::path RunDirectory::fail(const std::string& message) {
  std::filesystem::path failed = out_;
  failed += ".failed";
  return close("failed", message, failed);
}

std::filesystem::path RunDirectory::stop(const std::string& status, const std::string& message,
                                         long steps_done, double time_reached) noexcept {
  try {
    std::filesystem::path failed = out_;
    failed += ".failed";
    Json reached = Json();
    if (steps_done >= 0) {
      reached = Json::object();
      reached["steps"] = static_cast<std::int64_t>(steps_done);
      reached["time"] = time_reached;
    }
    return close(status, message, failed, std::move(reached));
  } catch (...) {
    // nothing readable can be kept (a full disk, a vanished folder): leave no half-written folder
    open_ = false;
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);
    return {};
  }
}

}  // namespace tendril::io
