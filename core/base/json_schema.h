// JSON Schemas of npcd's definition formats (config/schema/*.schema.json), compiled into
// the library and checked with valijson, with its findings turned into short plain
// messages a person can act on.
//
// The schema files are the one list of each format's keys, types and enums: loaders
// validate a document first and stop at a schema error, and keep only the checks a
// schema cannot express (names that refer to other definitions, ranges that depend on
// other values). Editors read the same files through each document's "$schema" key.
//
// One root cause gives one message: valijson's chain of "failed to validate item #3"
// contexts is dropped for the innermost failure, a required key that is missing next to
// an unknown key close to its name is reported once, as the unknown key with a "did you
// mean", and every unknown key of an object is named (valijson names only the first).
//
// Thread safety: schemas are compiled once on first use (static initialisation) and are
// read-only afterwards; validate() may run on any thread.
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace npc {

// One per format; the file is config/schema/<fileStem>.schema.json.
enum class SchemaId {
  kDaemonConfig,
  kWorld,
  kArchetype,
  kLongActions,
  kInfluences,
  kActionExamples,
  kGoapDomain,
  kBotsScenario,
};

// "goap_domain" for kGoapDomain: the schema file's name without ".schema.json".
std::string_view schemaFileStem(SchemaId id);
// The inverse: the format of "goap_domain", or nullopt for an unknown stem.
std::optional<SchemaId> schemaIdFromStem(std::string_view stem);

struct SchemaViolation {
  std::string pointer;  // RFC 6901, "" for the document's root
  bool at_key = false;  // true when the key itself is wrong (unknown key)
  std::string message;  // "unknown key (did you mean \"effects\"?)"
};

class JsonSchema {
 public:
  // The compiled schema of `id`. A schema that fails to compile is a build defect: the
  // test suite compiles every one (tests/core/base/json_schema_test.cpp).
  static const JsonSchema& get(SchemaId id);
  // The schema of one of its "definitions" (`definition` names it), for a part of a
  // document checked on its own, such as an action expanded from a template.
  static const JsonSchema& get(SchemaId id, std::string_view definition);
  // Compiles schema text (for tests); check error() afterwards.
  explicit JsonSchema(std::string_view schema_text);
  ~JsonSchema();
  JsonSchema(const JsonSchema&) = delete;
  JsonSchema& operator=(const JsonSchema&) = delete;

  // Empty when the schema compiled.
  const std::string& error() const { return error_; }
  // Every violation of `doc`, in the order valijson finds them (an object's keys sorted;
  // JsonReader::validate puts them in file order); empty when it conforms.
  std::vector<SchemaViolation> validate(const nlohmann::json& doc) const;

 private:
  struct Compiled;
  nlohmann::json schema_json_;
  std::unique_ptr<Compiled> compiled_;
  std::string error_;
};

// For the readers of a document that has passed its schema: sets each field whose key is
// in `obj` and leaves the others at their defaults. The schema has fixed each value's type
// and bounded it to what the field holds, so get<T> neither throws nor overflows.
template <class T>
void readConforming(const nlohmann::json& obj,
                    std::initializer_list<std::pair<const char*, T*>> fields) {
  for (const auto& [key, out] : fields) {
    if (auto it = obj.find(key); it != obj.end()) *out = it->template get<T>();
  }
}

}  // namespace npc
