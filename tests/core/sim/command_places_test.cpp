// Which places a command belongs to (a cluster node's place input streams): an agent's
// place, awake or asleep; an npc moving across a border belongs to both places; sounds and
// signals by where they are; results of actions and daemon-wide commands to none. And the
// recorders that ask see the world each command meets, one applied after another.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/command_places.h"
#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

struct TwoPlaces {
  Simulation sim;
  PlaceIndex north, south;
  TwoPlaces() : sim(config(), testArchetypes()) {
    north = *sim.world().addPlace("north", {{0, 0, -1}, {50, 50, 10}});
    south = *sim.world().addPlace("south", {{100, 0, -1}, {150, 50, 10}});
    sim.submit({ClientId::kDaemon, 0, UpsertEntity{npcAt(1, {10, 10, 0})}});
    sim.submit({ClientId::kDaemon, 0, UpsertEntity{npcAt(2, {110, 10, 0})}});
    sim.tick();
  }
  static SimConfig config() {
    SimConfig c;
    c.tick_dt_s = 0.1;
    c.derive_footsteps = false;
    c.hibernation.quiet_s = 2.0;
    return c;
  }
  CommandPlaces of(CommandBody body) const { return commandPlaces({ClientId{7}, 0, std::move(body)}, sim); }
};

}  // namespace

TEST_CASE("A command on an agent belongs to the agent's place, awake or asleep", "[sim][cluster]") {
  TwoPlaces w;
  CHECK(w.of(SetBehaviorVariable{EntityId{1}, "Alarmed", true}).first == w.north);
  CHECK(w.of(ProgramIntention{EntityId{2}, "Sleep"}).first == w.south);
  CHECK(w.of(AddInfluence{EntityId{2}, "spell"}).first == w.south);
  CHECK(w.of(DespawnAgent{EntityId{1}}).first == w.north);
  CHECK(w.of(SetBehaviorVariable{EntityId{99}, "Alarmed", true}).first == PlaceIndex::kNone);
  // An action's result finishes an intention that an adopted place no longer runs; the
  // world's obstacles and the tuning are daemon-wide.
  CHECK(w.of(ActionResult{EntityId{1}}).first == PlaceIndex::kNone);
  CHECK(w.of(RemoveObstacle{ObstacleId{3}}).first == PlaceIndex::kNone);
  CHECK(w.of(SetPerceptionTuning{}).first == PlaceIndex::kNone);

  for (int i = 0; i < 40; ++i) w.sim.tick();  // no player: both places fall asleep
  REQUIRE(w.sim.stats().agents_asleep == 2);
  CHECK(w.sim.agentPlace(EntityId{1}) == w.north);
  CHECK(w.of(SetPlannerValue{EntityId{2}, "hungry", "true"}).first == w.south);
  CHECK(w.of(WakePlace{"north"}).first == w.north);
}

TEST_CASE("An entity moved across a border belongs to the place it leaves and the one it enters",
          "[sim][cluster]") {
  TwoPlaces w;
  const CommandPlaces moved = w.of(UpsertEntity{npcAt(1, {120, 10, 0})});
  CHECK(moved.first == w.north);
  CHECK(moved.second == w.south);
  const CommandPlaces stays = w.of(UpsertEntity{npcAt(1, {20, 10, 0})});
  CHECK(stays.first == w.north);
  CHECK(stays.second == PlaceIndex::kNone);
  EntityState partial;  // no position: where it is
  partial.id = EntityId{2};
  partial.kind = EntityKind::kNpc;
  CHECK(w.of(UpsertEntity{partial}).first == w.south);
  CHECK(w.of(SpawnAgent{npcAt(5, {130, 10, 0})}).first == w.south);
  EntityState player;
  player.id = EntityId{50};
  player.kind = EntityKind::kPlayer;
  player.position = Vec3{30, 30, 0};
  CHECK(w.of(UpsertEntity{player}).first == w.north);
  player.position = Vec3{75, 30, 0};  // between the places
  CHECK(w.of(UpsertEntity{player}).first == PlaceIndex::kNone);
}

TEST_CASE("Sounds and signals belong to the place where they are", "[sim][cluster]") {
  TwoPlaces w;
  SoundEvent sound;
  sound.position = Vec3{120, 20, 0};
  sound.radius_m = 10.f;
  sound.kind = "gunshot";
  CHECK(w.of(sound).first == w.south);
  sound.relayed = true;  // its arrivals stream keeps it
  CHECK(w.of(sound).first == PlaceIndex::kNone);

  SignalEvent to_agent;
  to_agent.target = EntityId{1};
  to_agent.name = "OnCall";
  CHECK(w.of(to_agent).first == w.north);
  SignalEvent to_place;
  to_place.place = "south";
  CHECK(w.of(to_place).first == w.south);
  SignalEvent around;
  around.position = Vec3{10, 10, 0};
  around.radius_m = 5.f;
  CHECK(w.of(around).first == w.north);
  SignalEvent to_species;
  to_species.species = "villager";
  CHECK(w.of(to_species).first == PlaceIndex::kNone);
  CHECK(isStimulus({ClientId{7}, 0, to_species}));
  CHECK_FALSE(isStimulus({ClientId{7}, 0, DespawnAgent{EntityId{1}}}));

  EntityState player;  // a player in the south, as the game sends it
  player.id = EntityId{600};
  player.kind = EntityKind::kPlayer;
  player.position = Vec3{120, 20, 0};
  CHECK(w.of(UpsertEntity{player}).first == w.south);
  player.relayed = true;  // a visitor: its arrivals stream keeps it, and it is relayed again
  CHECK(w.of(UpsertEntity{player}).first == PlaceIndex::kNone);
}

TEST_CASE("Recorders see each command just before it applies, after the ones before it",
          "[sim][cluster]") {
  TwoPlaces w;
  std::vector<PlaceIndex> seen;
  w.sim.addCommandRecorder([&](uint64_t tick, const Command& c) {
    CHECK(tick == w.sim.tickCount());
    seen.push_back(commandPlaces(c, w.sim).first);
  });
  // The spawn has applied when the variable is recorded: its agent is found.
  w.sim.submit({ClientId::kDaemon, 0, SpawnAgent{npcAt(7, {120, 20, 0})}});
  w.sim.submit({ClientId::kDaemon, 0, SetBehaviorVariable{EntityId{7}, "Alarmed", true}});
  w.sim.tick();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == w.south);
  CHECK(seen[1] == w.south);
  w.sim.clearCommandRecorders();
  w.sim.submit({ClientId::kDaemon, 0, DespawnAgent{EntityId{7}}});
  w.sim.tick();
  CHECK(seen.size() == 2);
}
