#include "tendril/io/scene.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "tendril/core/bounded_file.hpp"
#include "tendril/core/error.hpp"

namespace tendril::io {

/// The section's example on the reference page (a test validates and runs it: tests/docs).
constexpr const char* kCommonExample =
    R"yaml(description: "A soft rod clamped at one end, sagging under gravity"
duration: 0.5
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 0.2, num_nodes: 21}
    clamp: start
    material: {E: 1.0e7, nu: 0.5, density: 1000, radius: 0.002}
forces:
  gravity: [0, 0, -9.81]
integrator: {type: implicit_euler, dt: 1.0e-3}
output: {interval: 0.01}
)yaml";

const SchemaTable& common_schema() {
  static const SchemaTable table{
      "Common keys",
      "Keys every scene may have, whatever it simulates.",
      {
          {.path = "description",
           .type = KeyType::String,
           .default_value = "\"\"",
           .unit = "",
           .doc = "Free text describing the scene (copied to run.json)."},
      },
      kCommonExample};
  return table;
}

SceneLimits& scene_limits() {
  static SceneLimits limits;
  return limits;
}

namespace {

constexpr std::size_t kNodeTextLength = 120;

/// What is allowed, followed by where the value is in the file ("... (at scene.yaml:12:7)").
std::string with_location(std::string_view allowed, const std::string& location) {
  return std::string(allowed) + (location.empty() ? "" : " (at " + location + ")");
}

/// Appends the flow-style text of `node` to `out`, stopping once `out` passes kNodeTextLength.
void append_flow(const YAML::Node& node, std::string& out) {
  if (out.size() > kNodeTextLength) return;
  if (node.IsScalar()) {
    out += node.Scalar().substr(0, kNodeTextLength + 1);
  } else if (node.IsSequence() || node.IsMap()) {
    out += node.IsMap() ? "{" : "[";
    bool first = true;
    for (auto it = node.begin(); it != node.end() && out.size() <= kNodeTextLength; ++it) {
      out += first ? "" : ", ";
      first = false;
      if (node.IsMap()) {
        append_flow(it->first, out);
        out += ": ";
        append_flow(it->second, out);
      } else {
        append_flow(*it, out);
      }
    }
    out += node.IsMap() ? "}" : "]";
  } else {
    out += "~";
  }
}

}  // namespace

std::string node_text(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "(absent)";
  if (node.IsScalar()) return node.Scalar();
  std::string text;
  append_flow(node, text);
  if (text.size() > kNodeTextLength) text = text.substr(0, kNodeTextLength - 3) + "...";
  return text;
}

std::string read_scene_file(const std::filesystem::path& file) {
  const std::size_t max_bytes = scene_limits().max_file_bytes;
  return read_bounded_file(
      file, "", "an existing, readable YAML or JSON file", max_bytes,
      fmt::format("a scene file of at most {} bytes (--max-scene-bytes)", max_bytes));
}

namespace {

/// Walks the document as the readers will see it (every alias expanded): refuses it past the node
/// count or depth limits, a non-text map key, and a key given twice in one map.
class DocumentCheck {
 public:
  /// `scene` gives file:line:column locations; without it (a --set value) messages have none.
  DocumentCheck(const Scene* scene, std::string source)
      : scene_(scene), source_(std::move(source)) {}
  void walk(const YAML::Node& node, int depth) {
    const SceneLimits& limits = scene_limits();
    if (++count_ > limits.max_nodes)
      throw InputError(
          source_,
          fmt::format("(more than {} YAML nodes once aliases are expanded)", limits.max_nodes),
          with_location(
              fmt::format("a scene of at most {} nodes (--max-scene-nodes)", limits.max_nodes),
              location(node)));
    if (depth > limits.max_depth)
      throw InputError(source_,
                       fmt::format("(maps and lists nested more than {} deep)", limits.max_depth),
                       with_location(fmt::format("at most {} levels of nesting", limits.max_depth),
                                     location(node)));
    if (node.IsSequence()) {
      for (const YAML::Node& child : node) walk(child, depth + 1);
    } else if (node.IsMap()) {
      std::unordered_map<std::string, std::string> seen;  // key -> where it was first given
      for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar())
          throw InputError(source_, "a map key " + node_text(it->first),
                           with_location("map keys that are plain text", location(it->first)));
        const std::string& key = it->first.Scalar();
        const auto [first, inserted] = seen.emplace(key, location(it->first));
        if (!inserted)
          throw InputError(
              source_,
              first->second.empty()
                  ? fmt::format("the key '{}' twice in one map", key)
                  : fmt::format("the key '{}' twice in one map (first at {})", key, first->second),
              with_location("each key once per map", location(it->first)));
        ++count_;
        walk(it->second, depth + 1);
      }
    }
  }

 private:
  std::string location(const YAML::Node& node) const {
    return scene_ ? scene_->location(node) : "";
  }

  const Scene* scene_;
  std::string source_;
  std::size_t count_ = 0;
};

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

/// Parses a real from a YAML scalar; nullopt-like: returns false if it is not a number.
bool parse_real(const YAML::Node& node, double& value) {
  if (!node.IsScalar()) return false;
  const std::string& s = node.Scalar();
  // YAML spellings of non-finite numbers are numbers (then rejected as non-finite)
  static const char* nonfinite[] = {".nan", ".NaN",  ".NAN", "nan",      "NaN",      ".inf",
                                    ".Inf", ".INF",  "inf",  "-.inf",    "-.Inf",    "-.INF",
                                    "-inf", "+.inf", "+inf", "Infinity", "-Infinity"};
  for (const char* n : nonfinite)
    if (s == n) {
      value = std::nan("");
      return true;
    }
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  if (errno == ERANGE && std::isinf(value)) value = std::nan("");
  return true;
}

/// Parses an integer that fits an int (larger values would wrap when stored).
bool parse_int(const YAML::Node& node, long long& value) {
  if (!node.IsScalar() || node.Scalar().empty()) return false;
  const std::string& s = node.Scalar();
  char* end = nullptr;
  errno = 0;
  value = std::strtoll(s.c_str(), &end, 10);
  return end == s.c_str() + s.size() && errno != ERANGE &&
         value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max();
}

/// What an integer key allows, with the int limit when the value is an integer too large for it.
std::string int_allowed(const KeySpec& s, const YAML::Node& node) {
  long long value = 0;
  const bool too_large = node.IsScalar() && !node.Scalar().empty() &&
                         node.Scalar().find_first_not_of("+-0123456789") == std::string::npos &&
                         !parse_int(node, value);
  return too_large ? allowed_text(s) +
                         fmt::format(" (at most {} in magnitude)", std::numeric_limits<int>::max())
                   : allowed_text(s);
}

bool in_range(const KeySpec& spec, double x) {
  if (!std::isfinite(x)) return false;
  if (spec.min_exclusive ? !(x > spec.min) : !(x >= spec.min)) return false;
  return x <= spec.max;
}

}  // namespace

// ---------------------------------------------------------------- SceneNode

std::string SceneNode::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool SceneNode::has(std::string_view key) const {
  scene_->used_->insert(child_path(key));
  if (!node_.IsDefined() || !node_.IsMap()) return false;
  const YAML::Node child = node_[std::string(key)];
  return child.IsDefined() && !child.IsNull();
}

void SceneNode::fail(std::string_view key, std::string_view allowed) const {
  const bool present = node_.IsDefined() && node_.IsMap() && node_[std::string(key)].IsDefined();
  fail(key, present ? node_text(node_[std::string(key)]) : "(absent)", allowed);
}

void SceneNode::fail(std::string_view key, std::string_view value, std::string_view allowed) const {
  const bool present = node_.IsDefined() && node_.IsMap() && node_[std::string(key)].IsDefined();
  fail_at(key, present ? node_[std::string(key)] : node_, value, allowed);
}

void SceneNode::fail_at(std::string_view key, const YAML::Node& at, std::string_view value,
                        std::string_view allowed) const {
  throw InputError(child_path(key), std::string(value),
                   with_location(allowed, scene_->location(at)));
}

const KeySpec& SceneNode::spec(std::string_view key, std::initializer_list<KeyType> types) const {
  const std::string g = generic_path(child_path(key));
  const KeySpec* s = scene_->schema_.find(g);
  TENDRIL_ASSERT(s != nullptr, "scene key read without a schema entry: " + g);
  bool type_ok = false;
  for (KeyType t : types) type_ok = type_ok || s->type == t;
  TENDRIL_ASSERT(type_ok, "scene key read with a type other than its schema entry: " + g);
  return *s;
}

YAML::Node SceneNode::value_node(std::string_view key, const KeySpec& s) const {
  if (has(key)) return node_[std::string(key)];
  if (s.default_value == kRequired || s.default_value == kOptional)
    throw InputError(child_path(key), "(absent)",
                     fmt::format("{} (required{}){}", allowed_text(s),
                                 s.default_value == kOptional ? " here" : "", unknown_keys_note()));
  return YAML::Load(s.default_value);
}

std::string SceneNode::unknown_keys_note() const {
  if (!node_.IsDefined() || !node_.IsMap()) return "";
  const std::string g = generic_path(path_);
  const std::vector<std::string> known = scene_->schema_.children(g);
  std::string note;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (scene_->schema_.find(g.empty() ? key : g + "." + key) != nullptr) continue;
    const std::string near = closest_name(key, known);
    note += fmt::format("; unknown key '{}' in {}{}", key, path_.empty() ? "the scene" : path_,
                        near.empty() ? "" : " (did you mean '" + near + "'?)");
  }
  return note;
}

void SceneNode::resolve(std::string_view key, Json value) const {
  Json* j = scene_->resolved_.get();
  for (const Segment& seg : segments_) j = seg.index < 0 ? &(*j)[seg.key] : &j->at_index(seg.index);
  Json& slot = (*j)[std::string(key)];
  // a map or list read a second time keeps what was recorded inside it
  if (slot.is_null() || !(value.is_object() || value.is_array())) slot = std::move(value);
}

bool SceneNode::boolean(std::string_view key) const {
  const KeySpec& s = spec(key, {KeyType::Bool});
  const YAML::Node n = value_node(key, s);
  bool b = false;
  if (!n.IsScalar() || !YAML::convert<bool>::decode(n, b)) fail(key, node_text(n), allowed_text(s));
  resolve(key, b);
  return b;
}

int SceneNode::integer(std::string_view key) const {
  const KeySpec& s = spec(key, {KeyType::Int});
  const YAML::Node n = value_node(key, s);
  long long v = 0;
  if (!parse_int(n, v) || !in_range(s, static_cast<double>(v)))
    fail(key, node_text(n), int_allowed(s, n));
  resolve(key, static_cast<int>(v));
  return static_cast<int>(v);
}

double SceneNode::real(std::string_view key) const {
  const KeySpec& s = spec(key, {KeyType::Real});
  const YAML::Node n = value_node(key, s);
  double v = 0;
  if (!parse_real(n, v) || !in_range(s, v)) fail(key, node_text(n), allowed_text(s));
  resolve(key, v);
  return v;
}

std::string SceneNode::text(std::string_view key) const {
  const KeySpec& s = spec(key, {KeyType::String});
  const YAML::Node n = value_node(key, s);
  if (!n.IsScalar()) fail(key, node_text(n), allowed_text(s));
  const std::string v = n.Scalar();
  if (!s.choices.empty()) {
    bool ok = false;
    for (const auto& c : s.choices) ok = ok || c == v;
    if (!ok) {
      const std::string near = closest_name(v, s.choices);
      fail(key, v, allowed_text(s) + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }
  resolve(key, v);
  return v;
}

Vec3 SceneNode::vec3(std::string_view key) const {
  const KeySpec& s = spec(key, {KeyType::Vec3});
  const YAML::Node n = value_node(key, s);
  if (!n.IsSequence() || n.size() != 3) fail(key, node_text(n), allowed_text(s));
  Vec3 v;
  for (int i = 0; i < 3; ++i)
    if (!parse_real(n[i], v[i]) || !in_range(s, v[i])) fail(key, node_text(n), allowed_text(s));
  resolve(key, Json(std::vector<double>{v[0], v[1], v[2]}));
  return v;
}

std::vector<double> SceneNode::reals(std::string_view key, int expected_size) const {
  const KeySpec& s = spec(key, {KeyType::RealList});
  const YAML::Node n = value_node(key, s);
  const std::string allowed =
      allowed_text(s) + (expected_size >= 0 ? fmt::format(" (exactly {} of them)", expected_size)
                                            : " (at least one)");
  if (!n.IsSequence() || n.size() == 0 ||
      (expected_size >= 0 && static_cast<int>(n.size()) != expected_size))
    fail(key, node_text(n), allowed);
  std::vector<double> v(n.size());
  for (std::size_t i = 0; i < n.size(); ++i)
    if (!parse_real(n[i], v[i]) || !in_range(s, v[i]))
      fail_at(fmt::format("{}[{}]", key, i), n[i], node_text(n[i]), allowed_text(s));
  resolve(key, Json(v));
  return v;
}

std::vector<int> SceneNode::integers(std::string_view key, int expected_size) const {
  const KeySpec& s = spec(key, {KeyType::IntList});
  const YAML::Node n = value_node(key, s);
  const std::string allowed =
      allowed_text(s) +
      (expected_size >= 0 ? fmt::format(" (exactly {} of them)", expected_size) : "");
  if (!n.IsSequence() || (expected_size >= 0 && static_cast<int>(n.size()) != expected_size))
    fail(key, node_text(n), allowed);
  std::vector<int> v(n.size());
  Json j = Json::array();
  for (std::size_t i = 0; i < n.size(); ++i) {
    long long x = 0;
    if (!parse_int(n[i], x) || !in_range(s, static_cast<double>(x)))
      fail_at(fmt::format("{}[{}]", key, i), n[i], node_text(n[i]), int_allowed(s, n[i]));
    v[i] = static_cast<int>(x);
    j.push_back(v[i]);
  }
  resolve(key, std::move(j));
  return v;
}

std::vector<std::string> SceneNode::texts(std::string_view key) const {
  const KeySpec& s = spec(key, {KeyType::StringList});
  const YAML::Node n = value_node(key, s);
  if (!n.IsSequence() || n.size() == 0)
    fail(key, node_text(n), allowed_text(s) + " (at least one)");
  std::vector<std::string> v;
  Json j = Json::array();
  for (std::size_t i = 0; i < n.size(); ++i) {
    bool ok = n[i].IsScalar();
    if (ok && !s.choices.empty()) {
      ok = false;
      for (const auto& c : s.choices) ok = ok || c == n[i].Scalar();
    }
    if (!ok) fail_at(fmt::format("{}[{}]", key, i), n[i], node_text(n[i]), allowed_text(s));
    v.push_back(n[i].Scalar());
    j.push_back(v.back());
  }
  resolve(key, std::move(j));
  return v;
}

std::vector<std::vector<double>> SceneNode::real_table(std::string_view key, int columns) const {
  const KeySpec& s = spec(key, {KeyType::RealTable});
  const YAML::Node n = value_node(key, s);
  if (!n.IsSequence() || n.size() == 0)
    fail(key, node_text(n), allowed_text(s) + " (at least one row)");
  std::vector<std::vector<double>> rows(n.size(), std::vector<double>(columns));
  Json j = Json::array();
  for (std::size_t r = 0; r < n.size(); ++r) {
    const std::string row_key = fmt::format("{}[{}]", key, r);
    if (!n[r].IsSequence() || static_cast<int>(n[r].size()) != columns)
      fail_at(row_key, n[r], node_text(n[r]), fmt::format("a row of {} finite reals", columns));
    for (int c = 0; c < columns; ++c)
      if (!parse_real(n[r][c], rows[r][c]) || !in_range(s, rows[r][c]))
        fail_at(fmt::format("{}[{}]", row_key, c), n[r][c], node_text(n[r][c]), allowed_text(s));
    j.push_back(Json(rows[r]));
  }
  resolve(key, std::move(j));
  return rows;
}

std::vector<std::vector<int>> SceneNode::int_table(std::string_view key, int columns) const {
  const KeySpec& s = spec(key, {KeyType::IntTable});
  const YAML::Node n = value_node(key, s);
  if (!n.IsSequence() || n.size() == 0)
    fail(key, node_text(n), allowed_text(s) + " (at least one row)");
  std::vector<std::vector<int>> rows(n.size(), std::vector<int>(columns));
  Json j = Json::array();
  for (std::size_t r = 0; r < n.size(); ++r) {
    const std::string row_key = fmt::format("{}[{}]", key, r);
    if (!n[r].IsSequence() || static_cast<int>(n[r].size()) != columns)
      fail_at(row_key, n[r], node_text(n[r]), fmt::format("a row of {} integers", columns));
    Json row = Json::array();
    for (int c = 0; c < columns; ++c) {
      long long x = 0;
      if (!parse_int(n[r][c], x) || !in_range(s, static_cast<double>(x)))
        fail_at(fmt::format("{}[{}]", row_key, c), n[r][c], node_text(n[r][c]),
                int_allowed(s, n[r][c]));
      rows[r][c] = static_cast<int>(x);
      row.push_back(rows[r][c]);
    }
    j.push_back(std::move(row));
  }
  resolve(key, std::move(j));
  return rows;
}

SceneNode SceneNode::map(std::string_view key) const {
  spec(key, {KeyType::Map});
  YAML::Node child;
  if (has(key)) {
    child.reset(node_[std::string(key)]);
    if (!child.IsMap()) fail(key, "a map of keys");
  } else {
    child.reset(YAML::Node(YAML::NodeType::Map));
  }
  resolve(key, Json::object());
  auto segments = segments_;
  segments.push_back({std::string(key), -1});
  return SceneNode(scene_, child, child_path(key), std::move(segments));
}

std::vector<SceneNode> SceneNode::list(std::string_view key) const {
  spec(key, {KeyType::List});
  std::vector<SceneNode> out;
  resolve(key, Json::array());
  if (!has(key)) return out;
  const YAML::Node seq = node_[std::string(key)];
  if (!seq.IsSequence()) fail(key, "a list of maps");
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const std::string element_path = fmt::format("{}[{}]", child_path(key), i);
    if (!seq[i].IsMap())
      throw InputError(element_path, node_text(seq[i]),
                       with_location("a map of keys", scene_->location(seq[i])));
    auto segments = segments_;
    segments.push_back({std::string(key), -1});
    segments.push_back({"", static_cast<int>(i)});
    out.push_back(SceneNode(scene_, seq[i], element_path, std::move(segments)));
  }
  return out;
}

// ---------------------------------------------------------------- Scene

Scene Scene::from_text(const std::string& text, Schema schema,
                       const std::vector<std::string>& overrides, const std::string& source) {
  Scene scene;
  scene.schema_ = std::move(schema);
  scene.source_ = source;
  if (text.size() > scene_limits().max_file_bytes)
    throw InputError(source, fmt::format("({} bytes)", text.size()),
                     fmt::format("a scene of at most {} bytes (--max-scene-bytes)",
                                 scene_limits().max_file_bytes));
  try {
    scene.tree_ = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}:{}:{}", source, e.mark.line + 1, e.mark.column + 1), e.msg,
                     "valid YAML or JSON");
  }
  if (scene.tree_.IsNull()) scene.tree_ = YAML::Node(YAML::NodeType::Map);
  if (!scene.tree_.IsMap())
    throw InputError(source, node_text(scene.tree_), "a map of scene keys at the top level");
  DocumentCheck(&scene, source).walk(scene.tree_, 0);
  std::unordered_map<std::string, std::string> assigned;  // key path -> the --set that gave it
  for (const std::string& o : overrides) {
    const std::string path = apply_override(scene.tree_, o);
    const auto [first, inserted] = assigned.emplace(path, o);
    if (!inserted)
      throw InputError("--set " + path, fmt::format("given twice: '{}' and '{}'", first->second, o),
                       "each key path once");
  }
  return scene;
}

Scene Scene::from_file(const std::filesystem::path& file, Schema schema,
                       const std::vector<std::string>& overrides) {
  Scene scene = from_text(read_scene_file(file), std::move(schema), overrides, file.string());
  scene.base_directory_ = file.parent_path();
  return scene;
}

std::string Scene::location(const YAML::Node& node) const {
  if (!node.IsDefined() || node.Mark().is_null()) return "";
  return fmt::format("{}:{}:{}", source_, node.Mark().line + 1, node.Mark().column + 1);
}

SceneNode Scene::root() {
  return SceneNode(this, tree_, "", {});
}

bool Scene::has_top_level(std::string_view key) const {
  const YAML::Node n = tree_[std::string(key)];
  return n.IsDefined() && !n.IsNull();
}

void Scene::add_generated(const std::string& key, const YAML::Node& value,
                          const std::string& generator) {
  if (has_top_level(key))
    throw InputError(key, node_text(tree_[key]),
                     "absent when " + generator + " is given (it generates " + key + ")");
  tree_[key] = value;
}

void Scene::check_unused() const {
  check_unused_in(tree_, "");
}

void Scene::check_unused_in(const YAML::Node& node, const std::string& path) const {
  const std::string g = generic_path(path);
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string child = path.empty() ? key : path + "." + key;
    const std::string child_generic = g.empty() ? key : g + "." + key;
    const KeySpec* s = schema_.find(child_generic);
    if (s == nullptr) {
      const std::vector<std::string> known = schema_.children(g);
      const std::string near = closest_name(key, known);
      throw InputError(
          child, "unknown key '" + key + "'",
          (known.empty() ? std::string("no keys here") : "one of the keys " + join(known)) +
              (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    if (used_->count(child) == 0 && !it->second.IsNull())
      throw InputError(
          child, node_text(it->second),
          "nothing here: the key is valid but not used with the other settings of this map "
          "(e.g. a helix key on a straight rod)");
    if (s->type == KeyType::Map && it->second.IsMap()) check_unused_in(it->second, child);
    if (s->type == KeyType::List && it->second.IsSequence())
      for (std::size_t i = 0; i < it->second.size(); ++i)
        if (it->second[i].IsMap()) check_unused_in(it->second[i], fmt::format("{}[{}]", child, i));
  }
}

// ---------------------------------------------------------------- overrides

namespace {

/// A copy of `node` without positions: a value from --set has no line and column in the scene file.
YAML::Node without_marks(const YAML::Node& node) {
  if (node.IsScalar()) return YAML::Node(node.Scalar());
  if (node.IsSequence()) {
    YAML::Node out(YAML::NodeType::Sequence);
    for (const YAML::Node& child : node) out.push_back(without_marks(child));
    return out;
  }
  if (node.IsMap()) {
    YAML::Node out(YAML::NodeType::Map);
    for (auto it = node.begin(); it != node.end(); ++it)
      out[without_marks(it->first)] = without_marks(it->second);
    return out;
  }
  return YAML::Node(node.Type());
}

}  // namespace

std::string apply_override(YAML::Node& root, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set", assignment, "key.path=value, e.g. rods.0.material.E=2e7");
  const std::string path = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);

  // split "rods[0].material.E" / "rods.0.material.E" into segments
  std::vector<std::string> segments;
  std::string current;
  for (char c : path) {
    if (c == '.' || c == '[' || c == ']') {
      if (!current.empty()) segments.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) segments.push_back(current);
  if (segments.empty())
    throw InputError("--set", assignment, "key.path=value with a non-empty key path");

  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    throw InputError("--set " + path, value_text, "a YAML value (" + e.msg + ")");
  }
  // the limits and duplicate-key rule of scene files, before aliases are expanded by the copy
  DocumentCheck(nullptr, "--set " + path).walk(value, 0);
  value = without_marks(value);
  // nothing after '=' would silently put the key back to its default (an explicit null removes the
  // key on purpose)
  if (value_text.find_first_not_of(" \t") == std::string::npos)
    throw InputError(
        "--set " + path, "(nothing after '=')",
        "a value after '=' (null removes the key; to keep the scene's value, leave the --set out)");

  YAML::Node node;
  node.reset(root);
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    const bool last = i + 1 == segments.size();
    if (node.IsSequence()) {
      long long index = -1;
      YAML::Node probe(seg);
      if (!parse_int(probe, index) || index < 0 || index >= static_cast<long long>(node.size()))
        throw InputError("--set " + path, seg,
                         fmt::format("an index 0..{} into the list {}", node.size() - 1, walked));
      walked += fmt::format("[{}]", index);
      if (last) {
        node[static_cast<std::size_t>(index)] = value;
        return walked;
      }
      YAML::Node next = node[static_cast<std::size_t>(index)];
      node.reset(next);
    } else {
      if (!node.IsMap() && !node.IsNull())
        throw InputError("--set " + path, node_text(node), walked + " to be a map or a list");
      walked += (walked.empty() ? "" : ".") + seg;
      if (last) {
        node[seg] = value;
        return walked;
      }
      YAML::Node next = node[seg];
      if (!next.IsDefined() || next.IsNull()) {
        node[seg] = YAML::Node(YAML::NodeType::Map);
        next.reset(node[seg]);
      }
      node.reset(next);
    }
  }
  return walked;  // not reached: the last segment returns above
}

}  // namespace tendril::io
