// CanReach (core/mbt/nodes/can_reach_node.cpp): "can I walk there?" answered by the host's
// ground — melee when the target is a walk away, ranged when a river is in between.
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

// Melee when the target can be walked to within 30 m, else ranged.
const char* kMeleeOrRanged = R"(<Selector>
  <Sequence>
    <CanReach to="Target" maxPathLength="30"/>
    <Action name="Melee"/>
  </Sequence>
  <Action name="Ranged"/>
</Selector>)";

}  // namespace

TEST_CASE("CanReach chooses melee or ranged by the walk to the target", "[mbt][nodes][reach]") {
  MbtFixture f;
  f.host.ground = true;
  f.host.river_x = 10.f;
  f.host.view.position = {0, 0, 0};
  REQUIRE(f.load(tree(kMeleeOrRanged)) == "");

  SECTION("Should go melee when the target is a short walk away") {
    f.host.seeTarget(EntityId{5}, {8, 0, 0});
    f.tick();
    CHECK(f.host.started("Melee") == 1);
    CHECK(f.host.started("Ranged") == 0);
    CHECK(f.host.walks == 1);
  }
  SECTION("Should go ranged when the target is across the river, however near") {
    f.host.seeTarget(EntityId{5}, {12, 0, 0});
    f.tick();
    CHECK(f.host.started("Melee") == 0);
    CHECK(f.host.started("Ranged") == 1);
  }
  SECTION("Should go ranged when the walk is longer than maxPathLength") {
    f.host.detour = 4.f;  // 8 m straight, a 32 m walk round
    f.host.seeTarget(EntityId{5}, {8, 0, 0});
    f.tick();
    CHECK(f.host.started("Ranged") == 1);
  }
  SECTION("Should fail without an attention target, asking the host nothing") {
    f.tick();
    CHECK(f.host.started("Ranged") == 1);
    CHECK(f.host.walks == 0);
  }
}

TEST_CASE("CanReach on open ground (a host without a navmesh)", "[mbt][nodes][reach]") {
  MbtFixture f;
  f.host.view.position = {0, 0, 0};
  f.host.view.home = {3, 4, 0};

  SECTION("Should reach every point, maxPathLength comparing the straight line") {
    REQUIRE(f.load(tree(R"(<Sequence>
  <CanReach to="100,0,0"/>
  <CanReach to="InitialPosition" maxPathLength="5"/>
</Sequence>)")) == "");
    CHECK(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should fail a point farther than maxPathLength") {
    REQUIRE(f.load(tree(R"(<CanReach to="InitialPosition" maxPathLength="4.9"/>)")) == "");
    CHECK(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should read the RefPoint QueryTPS set, and fail before there is one") {
    REQUIRE(f.load(tree(R"(<CanReach to="RefPoint"/>)")) == "");
    CHECK(f.tick() == MbtStatus::kFailure);
    f.agent.setRegister(MbtRegister::kRefPoint, {1, 1, 0});
    CHECK(f.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("CanReach's load errors name the file, line and attribute", "[mbt][nodes][reach]") {
  MbtFixture f;
  SECTION("Should need a target") {
    CHECK(f.load(tree(R"(<CanReach/>)")) == "Test.xml:3: <CanReach> needs attribute \"to\"\n");
  }
  SECTION("Should refuse what is not a target") {
    CHECK(f.load(tree(R"(<CanReach to="Enemy"/>)")) ==
          "Test.xml:3: <CanReach> to \"Enemy\" is not a target (Target, RefPoint, LastOp, "
          "Cover, InitialPosition, entity:<id> or x,y,z)\n");
  }
  SECTION("Should refuse an entity, whose position a tree does not know") {
    CHECK(f.load(tree(R"(<CanReach to="entity:12"/>)")) ==
          "Test.xml:3: <CanReach> to \"entity:12\": a tree cannot tell where another entity "
          "stands; use Target, RefPoint, Cover, InitialPosition or x,y,z\n");
  }
  SECTION("Should refuse a negative or malformed maxPathLength") {
    CHECK(f.load(tree(R"(<CanReach to="Target" maxPathLength="-1"/>)")) ==
          "Test.xml:3: <CanReach> maxPathLength \"-1\" is outside [0.000000, inf]\n");
    CHECK(f.load(tree(R"(<CanReach to="Target" maxPathLength="far"/>)")) ==
          "Test.xml:3: <CanReach> maxPathLength \"far\" is not a number\n");
  }
  SECTION("Should warn about an unknown attribute") {
    CHECK(f.load(tree(R"(<CanReach to="Target" maxLength="3"/>)")) ==
          "Test.xml:3: warning: <CanReach> unknown attribute \"maxLength\" is ignored\n");
  }
}
