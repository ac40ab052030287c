// Behavior trees ask the world's navmesh (core/sim/tree_navigation.cpp, issue 23): a
// fighter in the navigation tests' level (floor A with a wall whose end is open, island B
// 10 m east) sees a player and picks melee when it can walk to the player within 40 m,
// ranged when the player stands on the island or the walk round the wall is too long;
// QueryTPS puts its RefPoint on the mesh where the fighter can walk, or finds none.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "../nav/nav_test_support.h"
#include "planning_game.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_fixture.h"

using namespace npc;

namespace {

constexpr EntityId kFighter{1};
constexpr EntityId kPlayer{2};

constexpr const char* kArchetypes = R"({
  "fighter": {
    "species": "human", "behavior": "Fight",
    "perception": { "vision": true, "hearing": false, "sight_range_m": 80, "fov_deg": 360 },
    "behaviors": { "Fight": { "tree": "Fight" } },
    "actions": { "Melee": { "side": "client" }, "Ranged": { "side": "client" },
                 "Approach": { "side": "client" }, "NoWay": { "side": "client" } }
  }
})";

// On sight: melee if a walk of at most 40 m reaches the player, else ranged; then an
// approach point 4 m short of the player, on the mesh (QueryTPS), or NoWay.
constexpr const char* kFight = R"(<BehaviorTree><Root>
  <Sequence>
    <WaitForEvent name="OnEnemySeen"/>
    <Selector>
      <Sequence>
        <CanReach to="Target" maxPathLength="40"/>
        <Action name="Melee" wait="0"/>
      </Sequence>
      <Action name="Ranged" wait="0"/>
    </Selector>
    <Selector>
      <Sequence>
        <QueryTPS name="Approach" query="near_target" distance="4"/>
        <Action name="Approach" to="RefPoint" wait="0"/>
      </Sequence>
      <Action name="NoWay" wait="0"/>
    </Selector>
    <Halt/>
  </Sequence>
</Root></BehaviorTree>)";

std::string levelDir() { return nav::test::writeLevel("npcd_tree_nav_world"); }

// The fighter at (10, 5) facing the wall, 10 s of ticks; the game completes every action the
// tick after it was sent. `navmesh` false: the same world without one.
struct FightWorld {
  Simulation sim{test::planningConfig(), test::archetypesFrom(kArchetypes)};
  std::vector<std::string> actions;
  std::vector<ActionOut> sent;

  FightWorld(Vec3 player, bool navmesh = true) {
    WorldFile w;
    std::vector<std::string> errors;
    std::string text = R"({ "places": [ { "name": "field", "min": [-5, -5, -2], "max": [65, 45, 10] } ])";
    if (navmesh) text += R"(, "navmesh": { "geometry": "level.obj" })";
    REQUIRE(parseWorldFile(levelDir() + "/world.json", text + " }", w, errors));
    REQUIRE(applyWorldFile(w, sim, errors));
    REQUIRE(errors.empty());
    const DefinitionReport r = sim.loadBehaviorTrees({{"Fight.xml", kFight}});
    INFO(r.text());
    REQUIRE(r.ok());
    sim.submit(test::upsert(raw(kFighter), EntityKind::kNpc, {10, 5, 0}, "fighter"));
    sim.submit(test::upsert(raw(kPlayer), EntityKind::kPlayer, player));
    for (int i = 0; i < 100; ++i) {
      sim.tick();
      for (const ActionOut& a : sim.output().actions) {
        if (a.agent != kFighter) continue;
        sim.submit(test::result(raw(a.agent), a.intention, ActionOutcome::kCompleted));
        actions.push_back(sim.names().name(a.name));
        sent.push_back(a);
      }
    }
  }
  const ActionOut* find(const std::string& name) const {
    for (size_t i = 0; i < actions.size(); ++i)
      if (actions[i] == name) return &sent[i];
    return nullptr;
  }
};

}  // namespace

TEST_CASE("A tree chooses melee or ranged by the walk on the navmesh", "[sim][mbt][nav]") {
  SECTION("Should go melee when the player is a short walk away on the same side of the wall") {
    FightWorld w({15, 12, 0});
    CHECK(w.actions == std::vector<std::string>{"Melee", "Approach"});
  }
  SECTION("Should go ranged when the player is on the island, 20 m in a straight line") {
    FightWorld island({55, 5, 0});
    REQUIRE(island.actions.size() == 2);
    CHECK(island.actions[0] == "Ranged");
  }
  SECTION("Should go ranged when the only walk (round the wall's end) is longer than 40 m") {
    FightWorld w({30, 5, 0});  // 20 m straight, about 55 m round the wall
    REQUIRE(w.actions.size() == 2);
    CHECK(w.actions[0] == "Ranged");
  }
  SECTION("Should go melee at the same player without a navmesh: open ground, straight line") {
    FightWorld w({30, 5, 0}, false);
    REQUIRE(w.actions.size() == 2);
    CHECK(w.actions[0] == "Melee");
    FightWorld island({55, 5, 0}, false);
    REQUIRE(island.actions.size() == 2);
    CHECK(island.actions[0] == "Ranged");  // 45 m: farther than 40 m even in a line
  }
}

TEST_CASE("QueryTPS puts its point on the navmesh, where the agent can walk", "[sim][mbt][nav]") {
  SECTION("Should send the approach point 4 m short of the player, on the mesh") {
    FightWorld w({30, 5, 0});
    const ActionOut* approach = w.find("Approach");
    REQUIRE(approach != nullptr);
    const Vec3 p = approach->params[0].position;
    CHECK(p.x == Approx(26.f).margin(0.05f));
    CHECK(p.y == Approx(5.f).margin(0.05f));
    CHECK(p.z == Approx(0.f).margin(0.3f));
  }
  SECTION("Should find no approach point next to a player on the island") {
    // 4 m short of (55, 5) is (51, 5): on the island, which no walk from floor A reaches.
    FightWorld w({55, 5, 0});
    CHECK(w.actions == std::vector<std::string>{"Ranged", "NoWay"});
  }
  SECTION("Should keep the point where it is without a navmesh") {
    FightWorld w({55, 5, 0}, false);
    CHECK(w.actions == std::vector<std::string>{"Ranged", "Approach"});
    const ActionOut* approach = w.find("Approach");
    REQUIRE(approach != nullptr);
    CHECK(approach->params[0].position.x == Approx(51.f).margin(0.01f));
  }
}
