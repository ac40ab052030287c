// The demo's guards notice players the way the sensory model says: a runner crossing their
// view is seen in seconds, a crouched, still player at the same distance never.
#include <algorithm>

#include <catch2/catch.hpp>

#include "sim/simulation.h"

using namespace npc;

namespace {

struct Watch {
  int ticks_to_seen = -1;        // first tick the guard's stealth reading hit 10
  bool guard_attacked = false;   // the Grunt tree switched the guard to GruntAttack
};

// A guard at the origin facing +x; one player at `start` moving at `velocity` (m/s) with
// eye height `eye_m`, for `ticks` ticks at 10 Hz.
Watch watchPlayer(Vec3 start, Vec3 velocity, float eye_m, int ticks) {
  std::vector<std::string> errors;
  ArchetypeSet archetypes;
  REQUIRE(archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
  SimConfig config;
  config.derive_footsteps = false;  // sight only: the runner must not be heard instead
  Simulation sim(config, std::move(archetypes));
  sim.setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees", "", "",
                            NPCD_SOURCE_DIR "/config/selection_trees"});
  REQUIRE(sim.loadDefinitions(DefinitionLoad::kFirst).ok());
  EntityState guard;
  guard.id = EntityId{100};
  guard.kind = EntityKind::kNpc;
  guard.archetype = "guard";
  guard.position = Vec3{0, 0, 0};
  guard.forward = Vec3{1, 0, 0};
  sim.submit({ClientId{1}, 0, UpsertEntity{guard}});
  Watch w;
  Vec3 position = start;
  for (int t = 0; t < ticks; ++t) {
    EntityState p;
    p.id = EntityId{1};
    p.kind = EntityKind::kPlayer;
    p.position = position;
    p.velocity = velocity;
    p.eye_height_m = eye_m;
    sim.submit({ClientId{1}, 0, UpsertEntity{p}});
    sim.tick();
    for (const EventOut& e : sim.output().events) {
      if (e.kind == EventKind::kStealth && e.value >= 10.f && w.ticks_to_seen < 0) {
        w.ticks_to_seen = t;
      }
      if (e.kind == EventKind::kBehavior && e.text.find("-> GruntAttack") != std::string::npos) {
        w.guard_attacked = true;
      }
    }
    position = position + velocity * static_cast<float>(sim.config().tick_dt_s);
  }
  return w;
}

}  // namespace

TEST_CASE("Demo guards: running players are seen, crouched still ones much later", "[sim][demo]") {
  const Watch runner = watchPlayer({12, -8, 0}, {0, 3, 0}, 1.7f, 100);
  const Watch creeper = watchPlayer({12, 0, 0}, {0, 0, 0}, 0.8f, 600);

  SECTION("Should see a player running across its view at 12 m within a few seconds") {
    REQUIRE(runner.ticks_to_seen > 0);
    REQUIRE(runner.ticks_to_seen < 30);
    REQUIRE(runner.guard_attacked);
  }
  SECTION("Should take at least four times as long for a crouched, still player there") {
    REQUIRE(creeper.ticks_to_seen > 4 * runner.ticks_to_seen);
  }
  SECTION("Should never see a crouched, still player near the edge of its sight") {
    const Watch w = watchPlayer({25, 0, 0}, {0, 0, 0}, 0.8f, 600);
    REQUIRE(w.ticks_to_seen < 0);
    REQUIRE_FALSE(w.guard_attacked);
  }
  SECTION("Should see a standing player close by almost at once") {
    const Watch w = watchPlayer({4, 0, 0}, {0, 0, 0}, 1.7f, 50);
    REQUIRE(w.ticks_to_seen >= 0);
    REQUIRE(w.ticks_to_seen < 10);
  }
}

TEST_CASE("Demo guards investigate a noise, then go back to idle", "[sim][demo]") {
  std::vector<std::string> errors;
  ArchetypeSet archetypes;
  REQUIRE(archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
  Simulation sim(SimConfig{}, std::move(archetypes));
  sim.setDefinitionSources({NPCD_SOURCE_DIR "/config/behavior_trees", "", "",
                            NPCD_SOURCE_DIR "/config/selection_trees"});
  REQUIRE(sim.loadDefinitions(DefinitionLoad::kFirst).ok());
  EntityState guard;
  guard.id = EntityId{100};
  guard.kind = EntityKind::kNpc;
  guard.archetype = "guard";
  guard.position = Vec3{0, 0, 0};
  sim.submit({ClientId{1}, 0, UpsertEntity{guard}});
  std::vector<std::string> behaviors;
  std::vector<std::string> actions;
  auto run = [&](int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim.tick();
      for (const EventOut& e : sim.output().events) {
        if (e.kind == EventKind::kBehavior) behaviors.push_back(e.text);
      }
      for (const ActionOut& a : sim.output().actions) {
        actions.push_back(sim.names().name(a.name));
        ActionResult r;  // the game performs everything at once
        r.agent = a.agent;
        r.intention = a.intention;
        sim.submit({ClientId{1}, 0, r});
      }
    }
  };
  run(5);
  SoundEvent shot;
  shot.position = Vec3{10, 0, 0};
  shot.radius_m = 40.f;
  shot.kind = "gunshot";
  sim.submit({ClientId{1}, 0, shot});
  run(20);  // 2 s, within the gunshot's 4 s lifetime: only set_when_done can end it

  SECTION("Should walk to the noise, look around, and return to idle by itself") {
    REQUIRE(behaviors == std::vector<std::string>{"No Behavior -> GruntIdle",
                                                  "GruntIdle -> GruntInvestigate",
                                                  "GruntInvestigate -> GruntIdle"});
    const auto look = std::find(actions.begin(), actions.end(), "LookAround");
    REQUIRE(look != actions.end());
    REQUIRE(std::find(actions.begin(), look, "MoveTo") != look);
  }
}
