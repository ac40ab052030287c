// The shippable demo data (tests/core/bst/data/selection_trees, copied to config/ for the
// demo world): the guards' Grunt tree loads cleanly and runs the seed's scenario.
#include <catch2/catch.hpp>

#include "bst_test_support.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("The demo Grunt tree runs Idle, Investigate, Attack and back to Idle", "[bst][demo]") {
  BstLoadOptions options;
  options.is_known_behavior = [](std::string_view name) {
    return name == "GruntIdle" || name == "GruntInvestigate" || name == "GruntAttack";
  };
  SelectionTreeLibrary library;
  const BstLoadReport report =
      library.loadDirectory(std::string(NPCD_BST_DATA_DIR) + "/selection_trees", options);
  REQUIRE(report.text() == "");
  REQUIRE(report.trees == 1);
  BstAgentState guard = agentOn(library, "Grunt");

  SECTION("Should walk the whole scenario, reporting each change") {
    REQUIRE(evaluateName(library, guard) == "GruntIdle");
    REQUIRE(signal(library, guard, "OnHearSound"));
    REQUIRE(evaluateName(library, guard) == "GruntInvestigate");
    REQUIRE(signal(library, guard, "OnEnemySeen"));
    REQUIRE(evaluateName(library, guard) == "GruntAttack");
    REQUIRE(signal(library, guard, "OnNoTarget"));
    const BehaviorSelection back = library.evaluate(guard);
    REQUIRE(back.changed);
    REQUIRE(library.behaviorName(back.previous) == "GruntAttack");
    REQUIRE(library.behaviorName(back.current) == "GruntIdle");
  }
  SECTION("Should treat a threatening sound like any sound") {
    REQUIRE(signal(library, guard, "OnHearThreateningSound"));
    REQUIRE(evaluateName(library, guard) == "GruntInvestigate");
  }
}
