#include "base/json_schema.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <regex>
#include <set>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "base/did_you_mean.h"
#include "base/json_positions.h"

namespace npc {

// Generated at build time from config/schema/*.schema.json (core/CMakeLists.txt); empty
// for a stem with no schema file.
std::string_view embeddedSchemaText(std::string_view stem);

using nlohmann::json;

std::string_view schemaFileStem(SchemaId id) {
  switch (id) {
    case SchemaId::kDaemonConfig: return "daemon_config";
    case SchemaId::kWorld: return "world";
    case SchemaId::kArchetype: return "archetype";
    case SchemaId::kLongActions: return "long_actions";
    case SchemaId::kInfluences: return "influences";
    case SchemaId::kActionExamples: return "action_examples";
    case SchemaId::kGoapDomain: return "goap_domain";
    case SchemaId::kBotsScenario: return "bots_scenario";
  }
  return "";
}

std::optional<SchemaId> schemaIdFromStem(std::string_view stem) {
  for (int i = 0; i <= static_cast<int>(SchemaId::kBotsScenario); ++i) {
    if (schemaFileStem(static_cast<SchemaId>(i)) == stem) return static_cast<SchemaId>(i);
  }
  return std::nullopt;
}

struct JsonSchema::Compiled {
  valijson::Schema schema;
};

JsonSchema::JsonSchema(std::string_view schema_text) : compiled_(std::make_unique<Compiled>()) {
  schema_json_ = json::parse(schema_text, nullptr, false);
  if (schema_json_.is_discarded()) {
    error_ = "schema is not valid JSON";
    return;
  }
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(schema_json_);
    parser.populateSchema(adapter, compiled_->schema);
  } catch (const std::exception& e) {
    error_ = std::string("schema does not compile: ") + e.what();
  }
}

JsonSchema::~JsonSchema() = default;

const JsonSchema& JsonSchema::get(SchemaId id, std::string_view definition) {
  static std::mutex mutex;
  static std::map<std::pair<SchemaId, std::string>, std::unique_ptr<JsonSchema>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{id, std::string(definition)}];
  if (!slot) {
    const json& whole = get(id).schema_json_;
    json one = {{"$ref", "#/definitions/" + std::string(definition)}};
    if (whole.contains("definitions")) one["definitions"] = whole["definitions"];
    slot = std::make_unique<JsonSchema>(one.dump());
  }
  return *slot;
}

const JsonSchema& JsonSchema::get(SchemaId id) {
  static const auto schemas = [] {
    std::array<std::unique_ptr<JsonSchema>, static_cast<size_t>(SchemaId::kBotsScenario) + 1> all;
    for (size_t i = 0; i < all.size(); ++i) {
      all[i] = std::make_unique<JsonSchema>(
          embeddedSchemaText(schemaFileStem(static_cast<SchemaId>(i))));
    }
    return all;
  }();
  return *schemas[static_cast<size_t>(id)];
}

namespace {

// valijson's context ["<root>", "[actions]", "[3]", "[efects]"] as "/actions/3/efects".
std::string pointerOf(const std::vector<std::string>& context) {
  std::string out;
  for (size_t i = 1; i < context.size(); ++i) {
    std::string_view seg = context[i];
    if (seg.size() >= 2 && seg.front() == '[' && seg.back() == ']') {
      seg = seg.substr(1, seg.size() - 2);
    }
    out += '/';
    out += escapePointerSegment(seg);
  }
  return out;
}

std::vector<std::string> segmentsOf(std::string_view pointer) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < pointer.size()) {
    const size_t next = pointer.find('/', pos + 1);
    std::string seg(pointer.substr(pos + 1, next == std::string_view::npos ? next : next - pos - 1));
    std::string unescaped;
    for (size_t i = 0; i < seg.size(); ++i) {
      if (seg[i] == '~' && i + 1 < seg.size()) {
        unescaped += seg[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        unescaped += seg[i];
      }
    }
    out.push_back(std::move(unescaped));
    pos = next == std::string_view::npos ? pointer.size() : next;
  }
  return out;
}

// The document value and the schema node that governs it, walked down together along a
// pointer. The walk understands what our schemas use: local "$ref"s, "properties",
// "patternProperties", "additionalProperties" and "items"; where a schema branches
// ("anyOf", "oneOf") it stops and the caller falls back to valijson's own words.
class SchemaWalk {
 public:
  SchemaWalk(const json& root_schema, const json& doc) : root_(root_schema), doc_(&doc) {
    schema_ = resolve(&root_schema);
  }

  bool descend(const std::string& seg) {
    if (!schema_ || !doc_) return false;
    if (doc_->is_object()) {
      auto it = doc_->find(seg);
      if (it == doc_->end()) return false;
      doc_ = &*it;
      schema_ = resolve(memberSchema(*schema_, seg));
      return schema_ != nullptr;
    }
    if (doc_->is_array()) {
      size_t index = std::stoul(seg);
      if (index >= doc_->size()) return false;
      doc_ = &(*doc_)[index];
      auto items = schema_->find("items");
      schema_ = resolve(items != schema_->end() && items->is_object() ? &*items : nullptr);
      return schema_ != nullptr;
    }
    return false;
  }

  const json* schema() const { return schema_; }
  const json* doc() const { return doc_; }

 private:
  // Follows "$ref"s, and picks the branch of an if/then/else whose "if" only asks for
  // required keys (how our schemas tell an action from a template use).
  const json* resolve(const json* s) const {
    for (int guard = 0; s && s->is_object() && guard < 16; ++guard) {
      if (auto cond = s->find("if"); cond != s->end() && doc_) {
        s = branch(*s, *cond);
        continue;
      }
      auto ref = s->find("$ref");
      if (ref == s->end() || !ref->is_string()) return s;
      const std::string target = ref->get<std::string>();
      if (target.rfind("#", 0) != 0) return nullptr;
      const json::json_pointer ptr(target.substr(1));
      if (!root_.contains(ptr)) return nullptr;
      s = &root_.at(ptr);
    }
    return s && s->is_object() ? s : nullptr;
  }

  const json* branch(const json& s, const json& cond) const {
    bool holds = doc_->is_object();
    if (auto req = cond.find("required"); req != cond.end()) {
      for (const auto& k : *req) holds = holds && doc_->contains(k.get<std::string>());
    }
    auto next = s.find(holds ? "then" : "else");
    return next == s.end() ? nullptr : &*next;
  }

  static const json* memberSchema(const json& s, const std::string& key) {
    auto props = s.find("properties");
    if (props != s.end() && props->contains(key)) return &(*props)[key];
    auto patterns = s.find("patternProperties");
    if (patterns != s.end()) {
      for (auto it = patterns->begin(); it != patterns->end(); ++it) {
        if (std::regex_search(key, std::regex(it.key()))) return &it.value();
      }
    }
    auto extra = s.find("additionalProperties");
    if (extra != s.end() && extra->is_object()) return &*extra;
    return nullptr;
  }

  const json& root_;
  const json* doc_;
  const json* schema_ = nullptr;
};

std::string typeWord(std::string_view type) {
  if (type == "object") return "an object";
  if (type == "array") return "an array";
  if (type == "integer") return "an integer";
  if (type == "number") return "a number";
  if (type == "boolean") return "true or false";
  if (type == "null") return "null";
  return "a " + std::string(type);
}

std::string docTypeWord(const json& v) {
  if (v.is_number_float()) return "a number";
  if (v.is_number()) return "an integer";
  return typeWord(v.type_name());
}

std::string expectedTypes(const json& schema) {
  auto t = schema.find("type");
  if (t == schema.end()) return "another type";
  if (t->is_string()) return typeWord(t->get<std::string>());
  std::string out;
  for (size_t i = 0; i < t->size(); ++i) {
    if (i > 0) out += i + 1 == t->size() ? " or " : ", ";
    out += typeWord((*t)[i].get<std::string>());
  }
  return out;
}

// Numbers as a person writes them: 0 rather than 0.000000.
std::string numberText(const json& n) { return n.dump(); }

std::string enumMessage(const json& schema, const json& value) {
  auto e = schema.find("enum");
  if (e == schema.end()) return "is not one of the allowed values";
  std::string out = "must be one of ";
  std::vector<std::string> names;
  for (size_t i = 0; i < e->size(); ++i) {
    if (i > 0) out += '|';
    const json& v = (*e)[i];
    out += v.is_string() ? v.get<std::string>() : v.dump();
    if (v.is_string()) names.push_back(v.get<std::string>());
  }
  if (value.is_string()) out += didYouMean(value.get<std::string>(), names);
  return out;
}

bool matchesPattern(const json& schema, const std::string& key) {
  auto patterns = schema.find("patternProperties");
  if (patterns == schema.end()) return false;
  for (auto it = patterns->begin(); it != patterns->end(); ++it) {
    if (std::regex_search(key, std::regex(it.key()))) return true;
  }
  return false;
}

std::vector<std::string> knownKeys(const json& schema) {
  std::vector<std::string> out;
  auto props = schema.find("properties");
  if (props == schema.end()) return out;
  for (auto it = props->begin(); it != props->end(); ++it) out.push_back(it.key());
  return out;
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// valijson's descriptions of the chain of contexts above a failure: the failure itself is
// reported separately, deeper in.
bool isChainContext(std::string_view d) {
  return startsWith(d, "Failed to validate item #") ||
         startsWith(d, "Failed to validate against schema associated with property name") ||
         startsWith(d, "Failed to validate against schema associated with pattern") ||
         startsWith(d, "Failed to validate against additional properties schema") ||
         startsWith(d, "Failed to validate against child schema #") ||
         startsWith(d, "Failed to validate against dependent schema") ||
         startsWith(d, "Failed to validate against a conditional schema");
}

// valijson's words for a branching constraint that failed: its children's errors describe
// alternatives, not the one thing to fix.
bool isBranchFailure(std::string_view d) {
  return startsWith(d, "Failed to validate against any schemas allowed by anyOf") ||
         startsWith(d, "Failed to validate against exactly one child schema") ||
         startsWith(d, "Failed to validate against any child schemas allowed by oneOf");
}

bool isBelow(std::string_view pointer, std::string_view ancestor) {
  return pointer.size() > ancestor.size() && startsWith(pointer, ancestor) &&
         pointer[ancestor.size()] == '/';
}

class Translator {
 public:
  Translator(const json& schema, const json& doc) : schema_(schema), doc_(doc) {}

  void add(const std::string& pointer, const std::string& description) {
    SchemaWalk walk(schema_, doc_);
    bool found = true;
    for (const auto& seg : segmentsOf(pointer)) found = found && walk.descend(seg);
    const json* s = found ? walk.schema() : nullptr;
    const json* v = found ? walk.doc() : nullptr;
    if (startsWith(description, "Object contains a property")) {
      unknownKeys(pointer, s, v, description);
    } else if (startsWith(description, "Missing required property '")) {
      const size_t start = std::string_view("Missing required property '").size();
      missing_.push_back({pointer, description.substr(start, description.size() - start - 2)});
    } else {
      push(pointer, false, message(description, s, v));
    }
  }

  // Missing keys go last: they are dropped when an unknown sibling is their misspelling.
  std::vector<SchemaViolation> finish() {
    for (const auto& m : missing_) {
      bool misspelt = false;
      for (const auto& u : unknown_) {
        if (u.first != m.first) continue;
        NameSuggester s(u.second);
        s.consider(m.second);
        misspelt = misspelt || s.best().has_value();
      }
      if (!misspelt) push(m.first, false, "missing required key \"" + m.second + "\"");
    }
    return std::move(out_);
  }

 private:
  void unknownKeys(const std::string& pointer, const json* s, const json* v,
                   const std::string& description) {
    if (!s || !v || !v->is_object()) {
      push(pointer, false, description);
      return;
    }
    const std::vector<std::string> known = knownKeys(*s);
    for (auto it = v->begin(); it != v->end(); ++it) {
      if (std::find(known.begin(), known.end(), it.key()) != known.end()) continue;
      if (matchesPattern(*s, it.key())) continue;
      unknown_.push_back({pointer, it.key()});
      push(pointer + "/" + escapePointerSegment(it.key()), true,
           "unknown key" + didYouMean(it.key(), known));
    }
  }

  static std::string message(const std::string& d, const json* s, const json* v) {
    if (!s || !v) return d;
    if (startsWith(d, "Value type not permitted")) {
      return "expected " + expectedTypes(*s) + ", got " + docTypeWord(*v);
    }
    if (startsWith(d, "Failed to match against any enum values")) return enumMessage(*s, *v);
    if (startsWith(d, "Expected number greater than or equal to") && s->contains("minimum")) {
      return "must be >= " + numberText((*s)["minimum"]);
    }
    if (startsWith(d, "Expected number greater than") && s->contains("exclusiveMinimum")) {
      return "must be > " + numberText((*s)["exclusiveMinimum"]);
    }
    if (startsWith(d, "Expected number less than or equal to") && s->contains("maximum")) {
      return "must be <= " + numberText((*s)["maximum"]);
    }
    if (startsWith(d, "Expected number less than") && s->contains("exclusiveMaximum")) {
      return "must be < " + numberText((*s)["exclusiveMaximum"]);
    }
    if (startsWith(d, "String should be no fewer than") && s->contains("minLength")) {
      return (*s)["minLength"] == 1 ? "must not be empty"
                                    : "must be at least " + numberText((*s)["minLength"]) +
                                          " characters long";
    }
    if (startsWith(d, "String should be no more than") && s->contains("maxLength")) {
      return "must be at most " + numberText((*s)["maxLength"]) + " characters long";
    }
    if (startsWith(d, "Array should contain no fewer than") && s->contains("minItems")) {
      return "must have at least " + numberText((*s)["minItems"]) + " items";
    }
    if (startsWith(d, "Array should contain no more than") && s->contains("maxItems")) {
      return "must have at most " + numberText((*s)["maxItems"]) + " items";
    }
    if (startsWith(d, "Failed to match regex") && s->contains("pattern")) {
      return "must match " + (*s)["pattern"].get<std::string>();
    }
    if (isBranchFailure(d)) {
      auto desc = s->find("description");
      return desc != s->end() && desc->is_string()
                 ? "is none of the allowed forms: " + desc->get<std::string>()
                 : "is none of the allowed forms";
    }
    return d;
  }

  void push(const std::string& pointer, bool at_key, std::string message) {
    for (const auto& e : out_) {
      if (e.pointer == pointer && e.message == message) return;
    }
    out_.push_back({pointer, at_key, std::move(message)});
  }

  const json& schema_;
  const json& doc_;
  std::vector<SchemaViolation> out_;
  std::vector<std::pair<std::string, std::string>> unknown_;  // object pointer, key
  std::vector<std::pair<std::string, std::string>> missing_;  // object pointer, key
};

}  // namespace

std::vector<SchemaViolation> JsonSchema::validate(const json& doc) const {
  if (!error_.empty()) return {{"", false, error_}};
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(doc);
  if (validator.validate(compiled_->schema, target, &results)) return {};

  struct Raw {
    std::string pointer;
    std::string description;
  };
  std::vector<Raw> raw;
  valijson::ValidationResults::Error e;
  while (results.popError(e)) raw.push_back({pointerOf(e.context), e.description});

  // A failed anyOf/oneOf reports its alternatives' errors too; keep the one failure.
  std::vector<std::string> branches;
  for (const auto& r : raw) {
    if (isBranchFailure(r.description)) branches.push_back(r.pointer);
  }
  Translator translator(schema_json_, doc);
  for (const auto& r : raw) {
    if (isChainContext(r.description)) continue;
    bool beneath = false;
    for (const auto& b : branches) {
      beneath = beneath || isBelow(r.pointer, b) ||
                (r.pointer == b && !isBranchFailure(r.description));
    }
    if (!beneath) translator.add(r.pointer, r.description);
  }
  return translator.finish();
}

}  // namespace npc
