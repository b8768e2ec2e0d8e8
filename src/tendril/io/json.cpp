#include "tendril/io/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "tendril/core/printable_text.hpp"

namespace tendril::io {

Json::Json(const std::vector<double>& v) {
  Array a;
  a.reserve(v.size());
  for (double x : v) a.emplace_back(x);
  value_ = std::move(a);
}

Json& Json::operator[](const std::string& key) {
  if (is_null()) value_ = Object{};
  auto& obj = std::get<Object>(value_);
  for (auto& [k, v] : obj)
    if (k == key) return v;
  obj.emplace_back(key, Json());
  return obj.back().second;
}

Json& Json::at_index(std::size_t index) {
  if (is_null()) value_ = Array{};
  auto& arr = std::get<Array>(value_);
  if (arr.size() <= index) arr.resize(index + 1);
  return arr[index];
}

void Json::push_back(Json v) {
  if (is_null()) value_ = Array{};
  std::get<Array>(value_).push_back(std::move(v));
}

const Json* Json::find(const std::string& key) const {
  if (!is_object()) return nullptr;
  for (const auto& [k, v] : std::get<Object>(value_))
    if (k == key) return &v;
  return nullptr;
}

namespace {

/// A JSON string: valid UTF-8 as is, control characters as \uXXXX, and each byte that is not valid
/// UTF-8 (a Latin-1 scene file) as U+FFFD, so strict readers accept run.json.
void write_string(std::string& out, const std::string& s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(s, i, n);
      i += n;
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x",
                        static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void write_number(std::string& out, double x) {
  if (!std::isfinite(x)) {
    out += "null";
    return;
  }
  char buf[32];
  // integers exactly, everything else with round-trip precision
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
  } else {
    // the shortest of 15..17 significant digits that reads back exactly
    for (int digits = 15; digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, x);
      if (std::strtod(buf, nullptr) == x) break;
    }
  }
  out += buf;
}

void newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

}  // namespace

void Json::dump_to(std::string& out, int indent, int depth) const {
  if (std::holds_alternative<std::monostate>(value_)) {
    out += "null";
  } else if (const bool* b = std::get_if<bool>(&value_)) {
    out += *b ? "true" : "false";
  } else if (const double* d = std::get_if<double>(&value_)) {
    write_number(out, *d);
  } else if (const std::string* s = std::get_if<std::string>(&value_)) {
    write_string(out, *s);
  } else if (const Array* a = std::get_if<Array>(&value_)) {
    // arrays of scalars stay on one line
    bool flat = true;
    for (const auto& e : *a) flat = flat && !e.is_array() && !e.is_object();
    out += '[';
    for (std::size_t i = 0; i < a->size(); ++i) {
      if (i) out += flat || indent < 0 ? ", " : ",";
      if (!flat) newline(out, indent, depth + 1);
      (*a)[i].dump_to(out, indent, depth + 1);
    }
    if (!flat && !a->empty()) newline(out, indent, depth);
    out += ']';
  } else {
    const auto& obj = std::get<Object>(value_);
    out += '{';
    for (std::size_t i = 0; i < obj.size(); ++i) {
      if (i) out += indent < 0 ? ", " : ",";
      newline(out, indent, depth + 1);
      write_string(out, obj[i].first);
      out += ": ";
      obj[i].second.dump_to(out, indent, depth + 1);
    }
    if (!obj.empty()) newline(out, indent, depth);
    out += '}';
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

}  // namespace tendril::io
