#pragma once
/// Short constructors of KeySpec rows for schema tables (schema.hpp), so each area's table lists
/// its keys without repeating the designated-initializer boilerplate.

#include <limits>
#include <string>
#include <vector>

#include "tendril/io/schema.hpp"

namespace tendril::io::keys {

inline const std::string kReq(kRequired);
inline const std::string kOpt(kOptional);

/// A map or list key (optional, no unit).
inline KeySpec node(std::string path, KeyType type, std::string doc) {
  return {.path = std::move(path),
          .type = type,
          .default_value = kOpt,
          .unit = "",
          .doc = std::move(doc)};
}

/// A real > 0.
inline KeySpec positive(std::string path, std::string def, std::string unit, std::string doc) {
  return {.path = std::move(path),
          .type = KeyType::Real,
          .default_value = std::move(def),
          .unit = std::move(unit),
          .doc = std::move(doc),
          .min = 0.0,
          .max = std::numeric_limits<double>::infinity(),
          .min_exclusive = true};
}

/// A key of any `type` with its default (or kOpt / kReq), unit and documentation; numbers in
/// [min, max] ((min, max] if `min_exclusive`).
inline KeySpec key(std::string path, KeyType type, std::string def, std::string unit,
                   std::string doc, double min = -std::numeric_limits<double>::infinity(),
                   bool min_exclusive = false,
                   double max = std::numeric_limits<double>::infinity()) {
  return {.path = std::move(path),
          .type = type,
          .default_value = std::move(def),
          .unit = std::move(unit),
          .doc = std::move(doc),
          .min = min,
          .max = max,
          .min_exclusive = min_exclusive};
}

/// A real in [min, max] ((min, max] if `min_exclusive`).
inline KeySpec real(std::string path, std::string def, std::string unit, std::string doc,
                    double min = -std::numeric_limits<double>::infinity(),
                    double max = std::numeric_limits<double>::infinity(),
                    bool min_exclusive = false) {
  return key(std::move(path), KeyType::Real, std::move(def), std::move(unit), std::move(doc), min,
             min_exclusive, max);
}

/// An integer in [min, max].
inline KeySpec integer(std::string path, std::string def, double min, std::string doc,
                       double max = std::numeric_limits<double>::infinity()) {
  return {.path = std::move(path),
          .type = KeyType::Int,
          .default_value = std::move(def),
          .unit = "-",
          .doc = std::move(doc),
          .min = min,
          .max = max};
}

/// true or false.
inline KeySpec flag(std::string path, std::string def, std::string doc) {
  return {.path = std::move(path),
          .type = KeyType::Bool,
          .default_value = std::move(def),
          .unit = "",
          .doc = std::move(doc)};
}

/// A list of indices (optional).
inline KeySpec indices(std::string path, std::string doc) {
  return {.path = std::move(path),
          .type = KeyType::IntList,
          .default_value = kOpt,
          .unit = "-",
          .doc = std::move(doc)};
}

/// A [x, y, z] vector.
inline KeySpec vec3(std::string path, std::string def, std::string unit, std::string doc) {
  return {.path = std::move(path),
          .type = KeyType::Vec3,
          .default_value = std::move(def),
          .unit = std::move(unit),
          .doc = std::move(doc)};
}

/// One of `choices`.
inline KeySpec choice(std::string path, std::string def, std::vector<std::string> choices,
                      std::string doc) {
  return {.path = std::move(path),
          .type = KeyType::String,
          .default_value = std::move(def),
          .unit = "",
          .doc = std::move(doc),
          .choices = std::move(choices)};
}

}  // namespace tendril::io::keys
