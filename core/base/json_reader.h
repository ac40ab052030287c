// Strict reading of JSON definitions (config, world files, archetypes) that collects every
// problem as "file:line:col: /json/path: message" before the caller refuses the whole load.
// line:col is where the value at the path starts (for an unknown key, where the key
// starts; for a missing key, where the object holding it starts); it is known for
// documents read by parse() or parseFile() and left out for documents built in code.
//
// nlohmann throws on type mismatches; the reader checks types first, so nothing here
// throws past the loader boundary.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/json_positions.h"
#include "world/vec3.h"

namespace npc {

enum class SchemaId;  // base/json_schema.h
struct SchemaViolation;

class JsonReader {
 public:
  explicit JsonReader(std::string file) : file_(std::move(file)) {}

  // Parses `text`; on a syntax error records "file:line:col: message" and returns false.
  bool parse(std::string_view text, nlohmann::json& out);
  // Reads and parses a file; a missing file is an error.
  bool parseFile(nlohmann::json& out);

  // Records an error at a JSON path ("/agents/2/position").
  void error(std::string_view path, std::string_view message);
  // Records an error about the key at `path` itself (an unknown or misspelt key).
  void keyError(std::string_view path, std::string_view message);

  // Checks `doc` against the format's schema (config/schema/), recording one error per
  // root cause; false when it does not conform. Loaders stop at a false: the semantic
  // checks that follow assume the document's shape.
  bool validate(const nlohmann::json& doc, SchemaId schema);
  // Checks `part`, found at `path` of the document, against the schema's definition
  // `definition`; `note` is appended to each message ("(in template ...)").
  bool validatePart(const nlohmann::json& part, SchemaId schema, std::string_view definition,
                    std::string_view path, std::string_view note);

  // Each getter records an error and returns nullopt when `key` is missing (if required)
  // or has the wrong type. Paths are built as path + "/" + key.
  bool isObject(const nlohmann::json& j, std::string_view path);
  bool isArray(const nlohmann::json& j, std::string_view path);
  std::optional<std::string> string(const nlohmann::json& obj, std::string_view path,
                                    std::string_view key, bool required);
  std::optional<double> number(const nlohmann::json& obj, std::string_view path,
                               std::string_view key, bool required);
  std::optional<int64_t> integer(const nlohmann::json& obj, std::string_view path,
                                 std::string_view key, bool required);
  std::optional<bool> boolean(const nlohmann::json& obj, std::string_view path,
                              std::string_view key, bool required);
  // [x, y, z] of finite numbers.
  std::optional<Vec3> vec3(const nlohmann::json& obj, std::string_view path,
                           std::string_view key, bool required);
  std::optional<Vec3> vec3Value(const nlohmann::json& value, std::string_view path);

  bool ok() const { return errors_.empty(); }
  const std::vector<std::string>& errors() const { return errors_; }
  const std::string& file() const { return file_; }
  // All errors joined by newlines.
  std::string report() const;

 private:
  const nlohmann::json* member(const nlohmann::json& obj, std::string_view path,
                               std::string_view key, bool required);
  bool reportViolations(const std::vector<SchemaViolation>& violations, std::string_view path,
                        std::string_view note);
  void record(std::optional<TextPosition> at, std::string_view path, std::string_view message);
  std::string file_;
  JsonPositions positions_;  // of the last document parsed
  std::vector<std::string> errors_;
};

std::string joinPath(std::string_view path, std::string_view key);
std::string joinPath(std::string_view path, size_t index);

}  // namespace npc
