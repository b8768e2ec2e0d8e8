#pragma once
/// Scene schema tables (ARCHITECTURE principle 7): every scene key has a type, a default, a unit
/// and a doc string in exactly one table. Each area declares its own table (e.g. the rod scene in
/// sim/, the vine scene in vine/); SceneNode (scene.hpp) reads values through it, and
/// docs/scene_reference.md is generated from the tables (schema_markdown).
///
/// Key paths use dots for map members and `[]` for "any element of a list":
///   "rods[].material.E" describes the key E in the material map of every element of `rods`.

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tendril::io {

enum class KeyType {
  Bool,
  Int,
  Real,
  String,      ///< free text, or one of `choices`
  Vec3,        ///< [x, y, z] of reals
  RealList,    ///< [a, b, ...] of reals (length checked by the reader)
  IntList,     ///< [i, j, ...] of integers
  StringList,  ///< [a, b, ...] of strings (each one of `choices` if given)
  RealTable,   ///< [[...], [...]] rows of reals (e.g. nodes, piecewise-linear tables)
  IntTable,    ///< [[...], [...]] rows of integers (e.g. edges)
  Map,         ///< a map of documented keys
  List,        ///< a list of maps (elements described by "path[].key")
};

/// Default marker: the key must be given.
inline constexpr std::string_view kRequired = "required";
/// Default marker: the key may be absent and then has no value (the reader checks `has`).
inline constexpr std::string_view kOptional = "optional";

struct KeySpec {
  std::string path;  ///< "rods[].material.E"
  KeyType type = KeyType::Real;
  std::string default_value;  ///< YAML text of the default, kRequired or kOptional
  std::string unit;           ///< SI unit, "-" if dimensionless, "" for maps/lists/strings
  std::string doc;            ///< one or two sentences
  double min = -std::numeric_limits<double>::infinity();  ///< lower bound for Int/Real (and lists)
  double max = std::numeric_limits<double>::infinity();   ///< upper bound
  bool min_exclusive = false;             ///< value must be > min rather than >= min
  std::vector<std::string> choices = {};  ///< allowed values of a String key (empty: any text)
};

/// One area's keys. `title` heads its section of the reference page.
struct SchemaTable {
  std::string title;
  std::string intro;  ///< a paragraph shown under the title
  std::vector<KeySpec> keys;
  std::string example = {};  ///< a short complete scene using the section's keys (YAML), or ""
};

/// A set of tables consulted together (e.g. common keys + rod keys + vine keys).
class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<const SchemaTable*> tables) : tables_(std::move(tables)) {}
  void add(const SchemaTable& table) { tables_.push_back(&table); }
  /// The spec of a generic path ("rods[].material.E"), or nullptr.
  const KeySpec* find(std::string_view generic_path) const;
  /// Documented child key names of a generic map path ("" for the root).
  std::vector<std::string> children(std::string_view generic_path) const;
  const std::vector<const SchemaTable*>& tables() const { return tables_; }

 private:
  std::vector<const SchemaTable*> tables_;
};

/// "rods[3].material.E" -> "rods[].material.E".
std::string generic_path(std::string_view path);

/// Human-readable name of a type ("real", "list of 3 reals", ...).
std::string type_name(KeyType type);

/// Text of the allowed range / choices of a key, e.g. "a real > 0", "one of implicit_euler,
/// static".
std::string allowed_text(const KeySpec& spec);

/// The scene reference page (Markdown) for the given tables, one section per table.
std::string schema_markdown(const std::vector<const SchemaTable*>& tables);

/// The same reference as plain text: one line per key (path, type, default, unit, allowed) and its
/// description indented below (`tendril schema` without --markdown).
std::string schema_text(const std::vector<const SchemaTable*>& tables);

/// The closest name in `candidates` to `name` by edit distance, or "" if none is close.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tendril::io
