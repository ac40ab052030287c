// Signal groups (squads): an npc joins the group its upsert names when it spawns, or its
// archetype's; group signals reach that group only, by number or by name, and the group
// survives hibernation.
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

SimConfig config() {
  SimConfig c;
  c.tick_dt_s = 0.1;
  c.derive_footsteps = false;
  c.hibernation.quiet_s = 2.0;
  return c;
}

Command spawnIn(uint64_t id, std::string archetype, std::string group, Vec3 at) {
  EntityState s;
  s.id = EntityId{id};
  s.kind = EntityKind::kNpc;
  s.position = at;
  s.archetype = std::move(archetype);
  s.group = std::move(group);
  return {ClientId{7}, 0, UpsertEntity{s}};
}

nlohmann::json describe(const Simulation& sim, uint64_t id) {
  std::string json;
  REQUIRE(sim.describeAgent(EntityId{id}, json).isOk());
  return nlohmann::json::parse(json);
}

// Receivers of one client signal sent by group name (or number when `number` != kNone).
uint64_t receiversOf(Simulation& sim, std::string group_name,
                     GroupNumber number = GroupNumber::kNone) {
  SignalEvent signal;
  signal.name = "OnSquadCall";
  signal.group_name = std::move(group_name);
  signal.group = number;
  Status replied;
  signal.reply = [&](const Status& s) { replied = s; };
  sim.submit({ClientId{7}, 0, signal});
  sim.tick();
  INFO(replied.message());
  REQUIRE(replied.isOk());
  return sim.perception().lastTick().signals_sent;
}

struct Squads {
  Simulation sim{config(), testArchetypes()};
  Squads() {
    REQUIRE(sim.world().addPlace("north", {{0, 0, -1}, {50, 50, 10}}));
    REQUIRE(sim.world().addPlace("south", {{100, 0, -1}, {150, 50, 10}}));
    sim.submit(spawnIn(1, "villager", "north_watch", {10, 10, 0}));
    sim.submit(spawnIn(2, "villager", "north_watch", {12, 10, 0}));
    sim.submit(spawnIn(3, "villager", "north_watch", {14, 10, 0}));
    sim.submit(spawnIn(4, "villager", "south_watch", {110, 10, 0}));
    sim.submit(spawnIn(5, "villager", "", {115, 10, 0}));
    sim.submit(spawnIn(6, "statue", "", {120, 10, 0}));
    sim.submit(spawnIn(7, "statue", "", {20, 10, 0}));
    sim.tick();
  }
};

}  // namespace

TEST_CASE("An npc is in the group its upsert names, or in its archetype's", "[sim][groups]") {
  Squads s;
  CHECK(describe(s.sim, 1)["group"] == "north_watch");
  CHECK(describe(s.sim, 4)["group"] == "south_watch");
  CHECK(describe(s.sim, 5)["group"] == "villager");
  CHECK(describe(s.sim, 6)["group"] == "statue");
  const auto north = describe(s.sim, 1)["group_number"].get<uint16_t>();
  CHECK(describe(s.sim, 3)["group_number"] == north);
  CHECK(describe(s.sim, 4)["group_number"] != north);
  CHECK(s.sim.groupName(GroupNumber{north}) == "north_watch");
}

TEST_CASE("A group signal reaches the members of that group only", "[sim][groups]") {
  Squads s;
  SECTION("Should reach a named squad, whichever places its members are in") {
    CHECK(receiversOf(s.sim, "north_watch") == 3);
    CHECK(receiversOf(s.sim, "south_watch") == 1);
  }
  SECTION("Should reach the npcs spawned without a group through their archetype's name") {
    CHECK(receiversOf(s.sim, "villager") == 1);
    CHECK(receiversOf(s.sim, "statue") == 2);
  }
  SECTION("Should reach the same agents by the group's number") {
    const auto north = describe(s.sim, 2)["group_number"].get<uint16_t>();
    CHECK(receiversOf(s.sim, "", GroupNumber{north}) == 3);
  }
  SECTION("Should refuse an unknown group name, naming it") {
    SignalEvent signal;
    signal.name = "OnSquadCall";
    signal.group_name = "west_watch";
    Status replied;
    signal.reply = [&](const Status& st) { replied = st; };
    s.sim.submit({ClientId{7}, 0, signal});
    s.sim.tick();
    CHECK(replied.code() == StatusCode::kNotFound);
    CHECK(replied.message().find("group \"west_watch\" is unknown") != std::string::npos);
    CHECK(s.sim.perception().lastTick().signals_sent == 0);
  }
}

TEST_CASE("An npc's group is set when it spawns and only npcs have one", "[sim][groups]") {
  Squads s;
  SECTION("Should accept an update that repeats the group and refuse one that changes it") {
    s.sim.submit(spawnIn(1, "", "north_watch", {11, 10, 0}));
    s.sim.tick();
    CHECK(eventsOf(s.sim.output(), EventKind::kError).empty());
    s.sim.submit(spawnIn(1, "", "south_watch", {11, 10, 0}));
    s.sim.tick();
    const auto errors = eventsOf(s.sim.output(), EventKind::kError);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].text.find("group is set when the npc spawns (it is in \"north_watch\")") !=
          std::string::npos);
    CHECK(describe(s.sim, 1)["group"] == "north_watch");
  }
  SECTION("Should refuse a group on a player") {
    EntityState p;
    p.id = EntityId{50};
    p.kind = EntityKind::kPlayer;
    p.position = Vec3{5, 5, 0};
    p.group = "north_watch";
    s.sim.submit({ClientId{7}, 0, UpsertEntity{p}});
    s.sim.tick();
    const auto errors = eventsOf(s.sim.output(), EventKind::kError);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].text.find("group is for npcs only") != std::string::npos);
    CHECK(s.sim.world().entities().get(EntityId{50}) == nullptr);
  }
}

TEST_CASE("A sleeping npc keeps its group and wakes in it", "[sim][groups][hibernation]") {
  Squads s;
  for (int t = 0; t < 60; ++t) {  // nobody near: both places fall asleep
    s.sim.tick();
    for (const ActionOut& a : s.sim.output().actions) {
      s.sim.submit(result(raw(a.agent), a.intention, ActionOutcome::kCompleted));
    }
  }
  REQUIRE(s.sim.placeState(s.sim.world().findPlace("north")) == PlaceState::kAsleep);
  const nlohmann::json asleep = describe(s.sim, 2);
  REQUIRE(asleep["asleep"] == true);
  CHECK(asleep["group"] == "north_watch");
  // A player walks in: the place wakes, and its squad answers to its name again.
  s.sim.submit(upsert(90, EntityKind::kPlayer, {30, 30, 0}));
  s.sim.tick();
  REQUIRE(s.sim.placeState(s.sim.world().findPlace("north")) != PlaceState::kAsleep);
  CHECK(describe(s.sim, 2)["group"] == "north_watch");
  CHECK(receiversOf(s.sim, "north_watch") == 3);
}
