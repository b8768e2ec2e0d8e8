#include "viewer_site.hpp"

#include <algorithm>

#include "share_files.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/json.hpp"
#include "tendril/io/run_reader.hpp"

namespace tendril::cli {

namespace fs = std::filesystem;

namespace {

std::string content_type(const fs::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

HttpResponse not_found() {
  return {404, "text/plain; charset=utf-8", "not found\n", {}};
}

/// The real path of `root / name` (links resolved), empty if there is none; `inside`: whether it
/// is a regular file inside `root` (itself a real path).
fs::path real_path(const fs::path& root, const std::string& name, bool& inside) {
  std::error_code ec;
  const fs::path real = fs::canonical(root / name, ec);
  inside = false;
  if (ec || root.empty()) return {};
  const auto [r, unused] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
  inside = r == root.end() && fs::is_regular_file(real, ec);
  return real;
}

/// The response for file `name` of `root` served as `type`: 403 unless it is a regular file inside.
HttpResponse file_inside(const fs::path& root, const std::string& name, const std::string& type) {
  bool inside = false;
  const fs::path real = real_path(root, name, inside);
  if (real.empty()) return not_found();
  if (!inside) return {403, "text/plain; charset=utf-8", "not a file inside the run folder\n", {}};
  return {200, type, "", real};
}

}  // namespace

ViewerSite::ViewerSite(const std::vector<std::string>& run_dirs) {
  bundle_ = fs::canonical(share_file("viewer/index.html").parent_path());
  for (const fs::directory_entry& e : fs::directory_iterator(bundle_))
    if (e.is_regular_file()) bundle_files_[e.path().filename().string()] = content_type(e.path());

  for (const std::string& dir : run_dirs) {
    Run run;
    run.directory = fs::path(dir);
    std::error_code ec;
    run.root = fs::canonical(run.directory, ec);
    run.name = fs::path(dir).lexically_normal().filename().string();
    if (run.name.empty() || run.name == ".")
      run.name = fs::absolute(dir).lexically_normal().parent_path().filename().string();
    try {
      const io::RunData data =
          io::read_run(run.directory);  // reads every array: truncation shows here
      run.files["run.json"] = content_type("run.json");
      for (const io::RunArrayEntry& a : data.entries)
        run.files[a.file] = "application/octet-stream";
    } catch (const InputError& e) {
      run.error = e.what();
      // a readable run.json is still served, so the page can show what the run is
      if (fs::is_regular_file(run.directory / "run.json"))
        run.files["run.json"] = "application/json";
    }
    check_links(run);
    runs_.push_back(std::move(run));
  }
}

void ViewerSite::check_links(Run& run) {
  for (const auto& [name, type] : run.files) {
    bool inside = false;
    const fs::path real = real_path(run.root, name, inside);
    if (!real.empty() && !inside) {
      run.error = (run.directory / name).string() + ": resolves to " + real.string() +
                  ", not a file inside the run folder; not served";
      return;
    }
  }
}

std::vector<std::string> ViewerSite::problems() const {
  std::vector<std::string> out;
  for (const Run& r : runs_)
    if (!r.error.empty()) out.push_back(r.directory.string() + ": " + r.error);
  return out;
}

HttpResponse ViewerSite::handle(const std::string& path) const {
  if (path == "/") return file_inside(bundle_, "index.html", bundle_files_.at("index.html"));
  if (path == "/api/runs") {
    io::Json list = io::Json::array();
    for (const Run& r : runs_) {
      io::Json entry = io::Json::object();
      entry["name"] = r.name;
      entry["error"] = r.error.empty() ? io::Json() : io::Json(r.error);
      list.push_back(std::move(entry));
    }
    io::Json body = io::Json::object();
    body["runs"] = std::move(list);
    return {200, "application/json", body.dump(-1), {}};
  }
  // /<bundle file>: a name of the bundle listing, nothing else
  if (const auto it = bundle_files_.find(path.substr(1));
      it != bundle_files_.end() && path.rfind('/') == 0)
    return file_inside(bundle_, it->first, it->second);
  // /run/<i>/<file>: a file of run i's list
  const std::string prefix = "/run/";
  if (path.compare(0, prefix.size(), prefix) != 0) return not_found();
  const std::size_t slash = path.find('/', prefix.size());
  if (slash == std::string::npos) return not_found();
  const std::string index = path.substr(prefix.size(), slash - prefix.size());
  if (index.empty() || index.size() > 6 ||
      index.find_first_not_of("0123456789") != std::string::npos)
    return not_found();
  const std::size_t i = std::stoul(index);
  if (i >= runs_.size()) return not_found();
  const auto file = runs_[i].files.find(path.substr(slash + 1));
  if (file == runs_[i].files.end()) return not_found();
  return file_inside(runs_[i].root, file->first, file->second);
}

}  // namespace tendril::cli
