// Every JSON file under config/ names its schema with "$schema" and conforms to it, so
// editors autocomplete the shipped files and the schemas stay true to them.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"

namespace npc {

TEST_CASE("Every JSON file under config/ conforms to the schema it names", "[json][schema]") {
  namespace fs = std::filesystem;
  const fs::path config = fs::path(NPCD_SOURCE_DIR) / "config";
  size_t checked = 0;
  for (const auto& entry : fs::recursive_directory_iterator(config)) {
    const fs::path& file = entry.path();
    if (!entry.is_regular_file() || file.extension() != ".json") continue;
    if (file.parent_path().filename() == "schema") continue;
    const std::string name = fs::relative(file, fs::path(NPCD_SOURCE_DIR)).string();
    INFO(name);
    JsonReader reader(name);
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json doc;
    REQUIRE(reader.parse(text.str(), doc));
    REQUIRE(doc.is_object());
    REQUIRE(doc.contains("$schema"));
    REQUIRE(doc["$schema"].is_string());
    // "../schema/goap_domain.schema.json": a file of config/schema/, named by format.
    const fs::path schema = (file.parent_path() / doc["$schema"].get<std::string>()).lexically_normal();
    CHECK(schema.parent_path() == (config / "schema").lexically_normal());
    CHECK(fs::exists(schema));
    std::string stem = schema.filename().string();
    stem = stem.substr(0, stem.find('.'));
    const auto id = schemaIdFromStem(stem);
    REQUIRE(id.has_value());
    CHECK(reader.validate(doc, *id));
    CHECK(reader.report().empty());
    ++checked;
  }
  CHECK(checked >= 14);
}

TEST_CASE("Every schema file is a schema npcd compiles in", "[json][schema]") {
  namespace fs = std::filesystem;
  size_t schemas = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(NPCD_SOURCE_DIR) / "config/schema")) {
    std::string stem = entry.path().filename().string();
    INFO(stem);
    CHECK(entry.path().string().size() > std::string(".schema.json").size());
    stem = stem.substr(0, stem.find('.'));
    CHECK(schemaIdFromStem(stem).has_value());
    ++schemas;
  }
  CHECK(schemas == 8);
}

}  // namespace npc
