#pragma once
/// What `tendril view` and `tendril render` serve: the bundled viewer (share/tendril/viewer) and,
/// for each run given, only run.json and the .npy files run.json lists. Every other path is 404:
/// a request can only name a file of these fixed lists, so "..", encoded "%2e%2e" or absolute
/// paths never reach the file system. A listed file is served only if it is a regular file whose
/// real path (links resolved, at each request) lies inside its run folder (or the bundle): a link
/// out of the run is 403, and reported as the run's error.
///
///   GET /                 viewer index.html          GET /api/runs   [{name, error}] as JSON
///   GET /<bundle file>    viewer.js, viewer.css      GET /run/<i>/<file>   a file of run i

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "http_server.hpp"

namespace tendril::cli {

class ViewerSite {
 public:
  /// Checks every run with the run reader (a damaged run keeps its error message, served to the
  /// page) and lists the bundle. Throws InputError if the bundle is missing.
  explicit ViewerSite(const std::vector<std::string>& run_dirs);

  HttpResponse handle(const std::string& path) const;

  /// The runs that could not be read, as "dir: message" lines (empty if all are fine).
  std::vector<std::string> problems() const;

 private:
  struct Run {
    std::string name;
    std::filesystem::path directory;           ///< as given
    std::filesystem::path root;                ///< its real path (empty if it has none)
    std::string error;                         ///< why it cannot be shown; empty if fine
    std::map<std::string, std::string> files;  ///< servable file name -> content type
  };
  /// Sets the run's error if one of its files resolves outside its folder.
  static void check_links(Run& run);
  std::vector<Run> runs_;
  std::filesystem::path bundle_;
  std::map<std::string, std::string> bundle_files_;  ///< file name -> content type
};

}  // namespace tendril::cli
