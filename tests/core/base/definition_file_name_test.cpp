#include <catch2/catch.hpp>

#include "base/definition_file_name.h"

using namespace npc;

TEST_CASE("Definition files are named from their definitions directory down", "[base]") {
  SECTION("Should keep the directory's own name and any sub-directories") {
    REQUIRE(definitionFileName("/etc/npcd/behavior_trees", "/etc/npcd/behavior_trees/sub/Guard.xml") ==
            "behavior_trees/sub/Guard.xml");
    REQUIRE(definitionFileName("config/goap", "config/goap/guard.json") == "goap/guard.json");
  }
  SECTION("Should accept a directory given with a trailing slash") {
    REQUIRE(definitionFileName("/etc/npcd/behavior_trees/", "/etc/npcd/behavior_trees/Guard.xml") ==
            "behavior_trees/Guard.xml");
  }
  SECTION("Should give a path outside the directory as it is") {
    REQUIRE(definitionFileName("/etc/npcd/goap", "/tmp/guard.json") == "/tmp/guard.json");
  }
}
