#pragma once
/// A small JSON value (null, bool, number, string, array, object with insertion order) used for
/// run metadata (run.json) and for the resolved scene. Writing only; reading JSON goes through
/// the YAML parser (JSON is valid YAML).

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tendril::io {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;  ///< keys in insertion order

  Json() = default;  ///< null
  Json(std::nullptr_t) {}
  Json(bool b) : value_(b) {}
  Json(int v) : value_(static_cast<double>(v)) {}
  Json(std::int64_t v) : value_(static_cast<double>(v)) {}
  Json(std::size_t v) : value_(static_cast<double>(v)) {}
  Json(double v) : value_(v) {}
  Json(const char* s) : value_(std::string(s)) {}
  Json(std::string s) : value_(std::move(s)) {}
  Json(Array a) : value_(std::move(a)) {}
  Json(const std::vector<double>& v);

  static Json array() { return Json(Array{}); }
  static Json object() {
    Json j;
    j.value_ = Object{};
    return j;
  }

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }

  /// Object member access; a null value becomes an object; a missing key is appended.
  Json& operator[](const std::string& key);
  /// Array element access; a null value becomes an array; the array grows to index + 1.
  Json& at_index(std::size_t index);
  /// Appends to an array (a null value becomes an array).
  void push_back(Json v);
  /// The member `key` of an object, or nullptr.
  const Json* find(const std::string& key) const;
  /// The elements of an array, or nullptr.
  const Array* elements() const { return std::get_if<Array>(&value_); }
  /// The value of a number, or nullptr.
  const double* number() const { return std::get_if<double>(&value_); }
  /// The value of a string, or nullptr.
  const std::string* text() const { return std::get_if<std::string>(&value_); }

  /// JSON text; indent < 0 writes one line. Non-finite numbers are written as null.
  std::string dump(int indent = 2) const;

 private:
  void dump_to(std::string& out, int indent, int depth) const;
  std::variant<std::monostate, bool, double, std::string, Array, Object> value_;
};

}  // namespace tendril::io
