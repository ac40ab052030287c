#include "base/json_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/json_schema.h"

namespace npc {

using nlohmann::json;

std::string joinPath(std::string_view path, std::string_view key) {
  std::string out(path);
  out += '/';
  out += key;
  return out;
}

std::string joinPath(std::string_view path, size_t index) {
  return joinPath(path, std::to_string(index));
}

namespace {

// nlohmann reports a byte offset one past the offending character; turn it into line:col.
std::pair<size_t, size_t> lineColumn(std::string_view text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

std::string_view typeName(const json& j) { return j.type_name(); }

// Definition numbers end up in floats; converting a double beyond a float's range is
// undefined behaviour, and no quantity in a definition file means that much.
constexpr const char* kTooLarge = "is too large (beyond +-3.4e38)";
bool fitsFloat(double v) {
  return std::isfinite(v) && std::fabs(v) <= static_cast<double>(std::numeric_limits<float>::max());
}

// nlohmann's DOM builder, told not to throw, remembering where the parser gave up. Every
// failure passes through parse_error with the byte offset, syntax errors and also numbers
// that overflow a double ("1e400"), which json::parse would throw as out_of_range with no
// position at all.
class LocatingDomParser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit LocatingDomParser(json& out) : json_sax_dom_parser(out, false) {}
  bool parse_error(std::size_t byte, const std::string& /*token*/,
                   const nlohmann::detail::exception& e) {
    failed_ = true;
    byte_ = byte;
    message_ = e.what();
    return false;
  }
  bool failed() const { return failed_; }
  size_t byte() const { return byte_; }
  // Without nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " or
  // "[json.exception.out_of_range.406] " prefix.
  std::string message() const {
    std::string what = message_;
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    if (what.rfind("parse error", 0) == 0) {
      if (auto pos = what.find(": "); pos != std::string::npos) what = what.substr(pos + 2);
    }
    return what;
  }

 private:
  bool failed_ = false;
  size_t byte_ = 0;
  std::string message_;
};

}  // namespace

bool JsonReader::parse(std::string_view text, json& out) {
  json parsed;
  LocatingDomParser sax(parsed);
  json::sax_parse(text.begin(), text.end(), &sax);
  if (sax.failed()) {
    auto [line, col] = lineColumn(text, sax.byte());
    errors_.push_back(file_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
                      sax.message());
    return false;
  }
  out = std::move(parsed);
  positions_ = JsonPositions(text);
  return true;
}

bool JsonReader::parseFile(json& out) {
  std::ifstream in(file_, std::ios::binary);
  if (!in) {
    errors_.push_back(file_ + ": cannot open file");
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse(buffer.str(), out);
}

void JsonReader::error(std::string_view path, std::string_view message) {
  record(positions_.value(path), path, message);
}

void JsonReader::keyError(std::string_view path, std::string_view message) {
  record(positions_.key(path), path, message);
}

bool JsonReader::validate(const json& doc, SchemaId schema) {
  return reportViolations(JsonSchema::get(schema).validate(doc), "", "");
}

bool JsonReader::validatePart(const json& part, SchemaId schema, std::string_view definition,
                              std::string_view path, std::string_view note) {
  return reportViolations(JsonSchema::get(schema, definition).validate(part), path, note);
}

bool JsonReader::reportViolations(const std::vector<SchemaViolation>& violations,
                                  std::string_view path, std::string_view note) {
  // In the order they appear in the file (valijson visits an object's keys sorted).
  std::vector<const SchemaViolation*> ordered;
  for (const auto& v : violations) ordered.push_back(&v);
  auto where = [&](const SchemaViolation* v) {
    const std::string at = std::string(path) + v->pointer;
    const auto p = v->at_key ? positions_.key(at) : positions_.value(at);
    return p ? std::make_pair(p->line, p->column) : std::make_pair(size_t{0}, size_t{0});
  };
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](const SchemaViolation* a, const SchemaViolation* b) {
                     return where(a) < where(b);
                   });
  for (const SchemaViolation* p : ordered) {
    const SchemaViolation& v = *p;
    const std::string at = std::string(path) + v.pointer;
    const std::string message = v.message + std::string(note);
    if (v.at_key) {
      keyError(at, message);
    } else {
      error(at, message);
    }
  }
  return violations.empty();
}

void JsonReader::record(std::optional<TextPosition> at, std::string_view path,
                        std::string_view message) {
  std::string line = file_;
  if (at) line += ":" + std::to_string(at->line) + ":" + std::to_string(at->column);
  line += ": ";
  line += path.empty() ? std::string_view("/") : path;
  line += ": ";
  line += message;
  errors_.push_back(std::move(line));
}

bool JsonReader::isObject(const json& j, std::string_view path) {
  if (j.is_object()) return true;
  error(path, std::string("expected an object, got ") + std::string(typeName(j)));
  return false;
}

bool JsonReader::isArray(const json& j, std::string_view path) {
  if (j.is_array()) return true;
  error(path, std::string("expected an array, got ") + std::string(typeName(j)));
  return false;
}

const json* JsonReader::member(const json& obj, std::string_view path, std::string_view key,
                               bool required) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(std::string(key));
  if (it == obj.end()) {
    if (required) error(joinPath(path, key), "missing required key");
    return nullptr;
  }
  return &*it;
}

std::optional<std::string> JsonReader::string(const json& obj, std::string_view path,
                                              std::string_view key, bool required) {
  const json* v = member(obj, path, key, required);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    error(joinPath(path, key), std::string("expected a string, got ") + std::string(typeName(*v)));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<double> JsonReader::number(const json& obj, std::string_view path,
                                         std::string_view key, bool required) {
  const json* v = member(obj, path, key, required);
  if (!v) return std::nullopt;
  if (!v->is_number()) {
    error(joinPath(path, key), std::string("expected a number, got ") + std::string(typeName(*v)));
    return std::nullopt;
  }
  const double value = v->get<double>();
  if (!fitsFloat(value)) {
    error(joinPath(path, key), kTooLarge);
    return std::nullopt;
  }
  return value;
}

std::optional<int64_t> JsonReader::integer(const json& obj, std::string_view path,
                                           std::string_view key, bool required) {
  const json* v = member(obj, path, key, required);
  if (!v) return std::nullopt;
  if (!v->is_number_integer()) {
    error(joinPath(path, key),
          std::string("expected an integer, got ") + std::string(typeName(*v)));
    return std::nullopt;
  }
  return v->get<int64_t>();
}

std::optional<bool> JsonReader::boolean(const json& obj, std::string_view path,
                                        std::string_view key, bool required) {
  const json* v = member(obj, path, key, required);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) {
    error(joinPath(path, key), std::string("expected true or false, got ") +
                                   std::string(typeName(*v)));
    return std::nullopt;
  }
  return v->get<bool>();
}

std::optional<Vec3> JsonReader::vec3(const json& obj, std::string_view path, std::string_view key,
                                     bool required) {
  const json* v = member(obj, path, key, required);
  if (!v) return std::nullopt;
  return vec3Value(*v, joinPath(path, key));
}

std::optional<Vec3> JsonReader::vec3Value(const json& v, std::string_view path) {
  if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() ||
      !v[2].is_number()) {
    error(path, "expected [x, y, z] of numbers");
    return std::nullopt;
  }
  for (size_t i = 0; i < 3; ++i) {
    const double c = v[i].get<double>();
    if (!fitsFloat(c)) {
      error(path, std::isfinite(c) ? "coordinates are too large (beyond +-3.4e38)"
                                   : "coordinates must be finite");
      return std::nullopt;
    }
  }
  return Vec3{v[0].get<float>(), v[1].get<float>(), v[2].get<float>()};
}

std::string JsonReader::report() const {
  std::string out;
  for (const auto& e : errors_) {
    if (!out.empty()) out += '\n';
    out += e;
  }
  return out;
}

}  // namespace npc
