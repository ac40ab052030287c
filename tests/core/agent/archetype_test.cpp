// Archetype files as the daemon reads them from its archetypes directory.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "agent/archetype.h"

using namespace npc;
namespace fs = std::filesystem;

// Regression: errors named the file by the path the daemon was given (an absolute path
// or one relative to wherever it started), and a number overflowing a double aborted it.
TEST_CASE("Archetype errors name the file from the archetypes directory down", "[agent]") {
  const fs::path dir = fs::temp_directory_path() / "npcd_archetype_names" / "archetypes";
  fs::create_directories(dir / "town");
  std::ofstream(dir / "town" / "baker.json", std::ios::binary)
      << "{ \"baker\": { \"species\": 7 } }";
  std::ofstream(dir / "wolf.json", std::ios::binary) << "{\n\"wolf\": { \"speed\": -1e400 } }";
  ArchetypeSet set;
  std::vector<std::string> errors;
  REQUIRE_FALSE(set.loadDirectory(dir.string(), errors));
  REQUIRE(errors == std::vector<std::string>{
                        "archetypes/town/baker.json:1:25: /baker/species: expected a string, got an integer",
                        "archetypes/wolf.json:2:25: number overflow parsing '-1e400'",
                    });
  fs::remove_all(dir.parent_path());
}
