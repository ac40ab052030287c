// Stealth meter: per player, the highest coefficient among all agents and which agent.
#include <catch2/catch.hpp>

#include "perception_fixture.h"

using namespace npc;
using npc::test::PerceptionFixture;

TEST_CASE("Stealth meter: the most perceptive agent per player", "[perception][stealth]") {
  PerceptionFixture f;
  f.config.stealth_report_step = 0.5f;
  f.addAgent(1, "guard", {15, 0, 0});   // 10 m from player 10: +1.01 per update
  f.addAgent(2, "guard", {-15, 0, 0});  // 40 m: +0.11 per update
  f.addPlayer(10, {25, 0, 0});
  f.addPlayer(11, {-100, 0, 0});        // nobody perceives this one
  SECTION("Should read the highest coefficient and the agent holding it") {
    f.step(3);
    const StealthReading r = f.sys().stealth().reading(EntityId{10});
    REQUIRE(r.agent == EntityId{1});
    REQUIRE(r.value == Approx(3.03f));
    REQUIRE(f.sys().stealth().reading(EntityId{11}).value == 0.f);
    REQUIRE(f.sys().stealth().reading(EntityId{11}).agent == EntityId::kNone);
    REQUIRE(f.sys().stealth().readings().size() == 2);
  }
  SECTION("Should count 10 once an agent sees the player") {
    f.step(10);
    REQUIRE(f.sys().stealth().reading(EntityId{10}).value == 10.f);
  }
  SECTION("Should record a change when the meter moves by the report step") {
    f.step();  // 1.01: reported
    REQUIRE(f.sys().stealth().changes().size() == 1);
    const StealthChange c = f.sys().stealth().changes()[0];
    REQUIRE(c.player == EntityId{10});
    REQUIRE(c.agent == EntityId{1});
    REQUIRE(c.value == Approx(1.01f));
    REQUIRE(c.previous == 0.f);
    f.step();  // 2.02
    REQUIRE(f.sys().stealth().changes().size() == 1);
    REQUIRE(f.sys().stealth().changes()[0].previous == Approx(1.01f));
  }
  SECTION("Should report the drop back to 0 when the player hides") {
    f.step(2);
    f.world.upsertObstacle({ObstacleId{1}, {{20, -5, 0}, {21, 5, 4}}, Cover::kHard});
    f.world.upsertObstacle({ObstacleId{2}, {{-14, -5, 0}, {-13, 5, 4}}, Cover::kHard});
    f.step(21);  // 2.02 − 2.1 < 0 for agent 1; agent 2's 0.22 is gone long before
    REQUIRE(f.sys().stealth().reading(EntityId{10}).value == 0.f);
    const auto changes = f.sys().stealth().changes();
    REQUIRE(changes.size() == 1);
    REQUIRE(changes[0].value == 0.f);
  }
}
