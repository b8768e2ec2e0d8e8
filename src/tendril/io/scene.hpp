#pragma once
/// Scene files: YAML (JSON is valid YAML) read through schema tables (schema.hpp).
///
///   io::Schema schema{{&io::common_schema(), &my_area_schema()}};
///   io::Scene scene = io::Scene::from_file("examples/x.yaml", schema, {"rods.0.material.E=2e7"});
///   io::SceneNode root = scene.root();
///   double dt = root.map("integrator").real("dt");   // typed, range-checked, default from the
///   table scene.check_unused();                             // unknown or unused keys are errors
///
/// Every read checks the value against the key's spec (type, finite, range, choices) and throws
/// tendril::InputError("rods[1].material.E", "-3", "a real > 0") on a bad value. Keys absent from
/// the file take the table's default; every value read (given or default) is recorded in
/// `resolved()`, the scene as actually used, which run writers store in run.json.
///
/// Overrides (`--set`): "key.path=value", applied to the parsed tree before any read. The path
/// uses dots between map keys; a list element is written `rods.0.material.E` or
/// `rods[0].material.E` (0-based). The value is YAML text: `gravity=[0,0,-9.81]`,
/// `integrator.type=static`. Missing map keys are created (an unknown one is then reported like any
/// unknown key); list indices must exist. A value obeys the file's limits and duplicate-key rule;
/// the same key path set twice is refused.

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "tendril/core/types.hpp"
#include "tendril/io/json.hpp"
#include "tendril/io/schema.hpp"

namespace tendril::io {

/// Keys every scene may have (`description`).
const SchemaTable& common_schema();

/// Size limits of a scene (docs/limits.md). The `tendril` command's --max-scene-bytes and
/// --max-scene-nodes change them for one invocation; anything past them is refused with InputError.
struct SceneLimits {
  std::size_t max_file_bytes = std::size_t{16} << 20;  ///< bytes of a scene file (16 MiB)
  std::size_t max_nodes = 1'000'000;  ///< YAML nodes of the document with every alias expanded
  int max_depth = 64;                 ///< nesting of maps and lists
};
/// The limits in force (process-wide; set once by the command line before any scene is read).
SceneLimits& scene_limits();

/// The bytes of a scene file, read once: a regular file, a pipe or /dev/stdin. InputError if it
/// cannot be opened, is a directory, exceeds max_file_bytes (/dev/zero), or a pipe or FIFO sends
/// nothing for input_file_limits().read_timeout_seconds (a FIFO without a writer):
/// read_bounded_file.
std::string read_scene_file(const std::filesystem::path& file);

class Scene;

/// A view of one map in the scene at a concrete key path ("rods[1].material").
class SceneNode {
 public:
  /// Concrete path of this map ("" for the root).
  const std::string& path() const { return path_; }
  /// Concrete path of a child key ("rods[1].material.E").
  std::string child_path(std::string_view key) const;
  /// True if the key is present in the file (and not null).
  bool has(std::string_view key) const;

  bool boolean(std::string_view key) const;
  int integer(std::string_view key) const;
  double real(std::string_view key) const;
  std::string text(std::string_view key) const;
  Vec3 vec3(std::string_view key) const;
  /// A list of reals; `expected_size` < 0 accepts any non-empty length.
  std::vector<double> reals(std::string_view key, int expected_size = -1) const;
  std::vector<int> integers(std::string_view key, int expected_size = -1) const;
  /// A non-empty list of strings, each one of the key's choices if it has any.
  std::vector<std::string> texts(std::string_view key) const;
  /// Rows of reals, each with `columns` entries (any number of rows >= 1).
  std::vector<std::vector<double>> real_table(std::string_view key, int columns) const;
  std::vector<std::vector<int>> int_table(std::string_view key, int columns) const;

  /// The child map `key` (an empty map view if absent).
  SceneNode map(std::string_view key) const;
  /// The elements (maps) of the list `key` (empty if absent).
  std::vector<SceneNode> list(std::string_view key) const;

  /// Throws InputError for the child `key` (value as written in the file, or "(absent)").
  [[noreturn]] void fail(std::string_view key, std::string_view allowed) const;
  /// Throws InputError with an explicit value text.
  [[noreturn]] void fail(std::string_view key, std::string_view value,
                         std::string_view allowed) const;
  /// Throws InputError for the child `key` (e.g. "points[3]") located at node `at` of the file.
  [[noreturn]] void fail_at(std::string_view key, const YAML::Node& at, std::string_view value,
                            std::string_view allowed) const;

 private:
  friend class Scene;
  struct Segment {
    std::string key;  ///< map key, or empty for a list element
    int index = -1;   ///< list index, or -1 for a map key
  };
  SceneNode(Scene* scene, YAML::Node node, std::string path, std::vector<Segment> segments)
      : scene_(scene),
        node_(std::move(node)),
        path_(std::move(path)),
        segments_(std::move(segments)) {}
  /// The spec of child `key`, which must exist and have one of the listed types (programming error
  /// otherwise).
  const KeySpec& spec(std::string_view key, std::initializer_list<KeyType> types) const;
  /// The node of child `key` from the file, or its default parsed from the table (null if
  /// optional).
  YAML::Node value_node(std::string_view key, const KeySpec& spec) const;
  /// "; unknown key 'densty' in rods[0].material (did you mean 'density'?)" for each key of this
  /// map that the schema does not know (a typo that leaves a required key absent), else "".
  std::string unknown_keys_note() const;
  /// Records `value` as the resolved value of child `key`.
  void resolve(std::string_view key, Json value) const;

  Scene* scene_;
  YAML::Node node_;
  std::string path_;
  std::vector<Segment> segments_;
};

class Scene {
 public:
  /// Parses a YAML/JSON file (read_scene_file) and applies overrides ("key.path=value"). Beyond
  /// YAML syntax, refuses (InputError with line and column) a document past scene_limits() once
  /// aliases are expanded, a key given twice in one map (both lines named), and a non-text key.
  static Scene from_file(const std::filesystem::path& file, Schema schema,
                         const std::vector<std::string>& overrides = {});
  /// Parses YAML/JSON text; `source` names it in messages.
  static Scene from_text(const std::string& text, Schema schema,
                         const std::vector<std::string>& overrides = {},
                         const std::string& source = "<text>");

  Scene(Scene&&) noexcept = default;
  Scene& operator=(Scene&&) noexcept = default;

  /// Reads the same parsed file with another schema (the command line parses a file once, then
  /// picks the rod or vine schema from its top-level keys). Only before any read.
  void use_schema(Schema schema) { schema_ = std::move(schema); }
  /// "file:line:column" of a node from the file ("" for a default or an override).
  std::string location(const YAML::Node& node) const;

  SceneNode root();
  /// True if the file has the top-level key (used to tell rod scenes from vine scenes).
  bool has_top_level(std::string_view key) const;
  /// Adds a top-level key written by a scene generator (e.g. `flagellated_robot` writes `rods`); it
  /// is then read, checked and resolved like a key from the file. InputError naming `key` if the
  /// file already has it.
  void add_generated(const std::string& key, const YAML::Node& value, const std::string& generator);
  /// Throws InputError for the first key in the file that is not in the schema ("did you mean")
  /// or that no reader used (e.g. `pitch` on a straight rod).
  void check_unused() const;
  /// The scene as used: every value read, defaults filled in.
  const Json& resolved() const { return *resolved_; }
  /// The parsed tree after overrides.
  const YAML::Node& tree() const { return tree_; }
  const Schema& schema() const { return schema_; }
  /// Directory of the scene file (relative geometry files are resolved against it).
  const std::filesystem::path& base_directory() const { return base_directory_; }

 private:
  friend class SceneNode;
  Scene() = default;
  void check_unused_in(const YAML::Node& node, const std::string& path) const;

  YAML::Node tree_;
  Schema schema_;
  std::string source_;  ///< the file name (or "<text>") for locations
  std::filesystem::path base_directory_;
  std::unique_ptr<Json> resolved_ = std::make_unique<Json>(Json::object());
  std::unique_ptr<std::set<std::string>> used_ = std::make_unique<std::set<std::string>>();
};

/// Applies one "key.path=value" override to a parsed tree (see the header comment) and returns the
/// key path it set, spelled "rods[0].material.E" whichever spelling the assignment used. The value
/// obeys the scene file's limits (node count, depth, each key once per map).
std::string apply_override(YAML::Node& root, const std::string& assignment);

/// The YAML text of a node on one line, cut after about 120 characters (for messages; it never
/// expands a whole aliased document).
std::string node_text(const YAML::Node& node);

}  // namespace tendril::io
