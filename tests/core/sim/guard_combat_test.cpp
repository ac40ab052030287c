// The demo guard's combat tree (config/behavior_trees/GuardCombat.xml) running in the
// simulation: every action node it uses reaches the game client as an action, so the cover
// sequence ends with AdjustCoverStance, the search's inspector says "He's gone!" (Bubble),
// and the guard stands down afterwards (SetBehaviorVariable AwareOfEnemy false).
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/simulation.h"

using namespace npc;

namespace {

constexpr EntityId kGuard{100};
constexpr EntityId kPlayer{1};
constexpr ClientId kGame{1};

// One guard at the origin facing +x, a wall to hide behind 5 m ahead and to the side, a
// player standing 14 m away. The game completes every action the tick after it was sent.
struct GuardFight {
  Simulation sim{SimConfig{}, loadArchetypes()};
  std::vector<std::string> actions;  // names the game received for the guard, in order
  std::vector<ActionOut> pending;
  std::string bubble_message;
  std::vector<std::string> behaviors;  // the guard's behavior changes

  static ArchetypeSet loadArchetypes() {
    std::vector<std::string> errors;
    ArchetypeSet set;
    REQUIRE(set.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
    return set;
  }

  GuardFight() {
    sim.setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees", "", "",
                              NPCD_SOURCE_DIR "/config/selection_trees"});
    REQUIRE(sim.loadDefinitions(DefinitionLoad::kFirst).ok());
    Obstacle wall;
    wall.id = ObstacleId{1};
    wall.box = {{5, 3, 0}, {6, 5, 2}};
    sim.submit({kGame, 0, UpsertObstacle{wall}});
    EntityState guard;
    guard.id = kGuard;
    guard.kind = EntityKind::kNpc;
    guard.archetype = "guard";
    guard.position = Vec3{0, 0, 0};
    guard.forward = Vec3{1, 0, 0};
    sim.submit({kGame, 0, UpsertEntity{guard}});
    placePlayer({14, 0, 0});
  }
  void placePlayer(Vec3 at) {
    EntityState p;
    p.id = kPlayer;
    p.kind = EntityKind::kPlayer;
    p.position = at;
    sim.submit({kGame, 0, UpsertEntity{p}});
  }
  void tick(int n = 1) {
    for (int i = 0; i < n; ++i) {
      for (const ActionOut& a : pending) {
        ActionResult r;
        r.agent = a.agent;
        r.intention = a.intention;
        sim.submit({kGame, 0, r});
      }
      pending.clear();
      sim.tick();
      for (const ActionOut& a : sim.output().actions) {
        if (a.agent != kGuard) continue;
        REQUIRE(a.owner == kGame);
        const std::string name = sim.names().name(a.name);
        actions.push_back(name);
        if (name == "Bubble") bubble_message = sim.names().name(a.params[0].text);
        pending.push_back(a);
      }
      for (const EventOut& e : sim.output().events) {
        // No node of the tree may be refused by the daemon.
        REQUIRE_FALSE(e.kind == EventKind::kError);
        if (e.kind == EventKind::kBehavior && e.agent == kGuard) behaviors.push_back(e.text);
      }
    }
  }
  size_t count(const std::string& name) const {
    return static_cast<size_t>(std::count(actions.begin(), actions.end(), name));
  }
};

}  // namespace

TEST_CASE("GuardCombat in the simulation: cover, then search", "[sim][mbt][demo]") {
  GuardFight f;
  f.tick(150);  // sees the player, enters GruntAttack, takes cover and fights from it

  SECTION("Should play the whole cover sequence, AdjustCoverStance included") {
    REQUIRE(f.count("Move") >= 1);
    REQUIRE(f.count("ShootFromCover") >= 2);
    REQUIRE(f.count("AdjustCoverStance") >= 2);  // the loop came back to it
    const auto cover = std::find(f.actions.begin(), f.actions.end(), "ShootFromCover");
    REQUIRE(cover + 1 != f.actions.end());
    REQUIRE(*(cover + 1) == "AdjustCoverStance");
  }
  SECTION("Should search once the player is gone: the inspector's bubble reaches the game") {
    f.placePlayer({60, 0, 0});  // out of sight: remembered where last seen
    f.tick(200);
    REQUIRE(f.count("Bubble") == 1);
    REQUIRE(f.bubble_message == "He's gone!");
    REQUIRE(f.count("Animate") >= 1);
  }
  SECTION("Should stand down after the search: the tree sets the selection variable") {
    f.placePlayer({60, 0, 0});
    f.tick(400);
    REQUIRE(f.behaviors.size() >= 3);
    REQUIRE(f.behaviors[1] == "GruntIdle -> GruntAttack");
    REQUIRE(f.behaviors[2] == "GruntAttack -> GruntIdle");
  }
}
