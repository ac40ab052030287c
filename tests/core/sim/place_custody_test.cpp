// Leased places (a cluster node's custody): places start held by nobody, HoldPlace gives
// and takes them with epochs that only grow, an npc cannot be spawned into a place held
// elsewhere (one walking into it from a place held here leaves for it), and releasing a
// place unloads its agents, awake or asleep, silently.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "sim/world_file.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

SimConfig leased() {
  SimConfig c;
  c.tick_dt_s = 0.1;
  c.derive_footsteps = false;
  c.hibernation.quiet_s = 2.0;
  c.leased_places = true;
  return c;
}

// Footsteps derived from players' movements, as the daemon does by default.
SimConfig leasedHearing() {
  SimConfig c = leased();
  c.derive_footsteps = true;
  return c;
}

struct Node {
  Simulation sim;
  std::vector<EventOut> events;
  explicit Node(SimConfig config = leased()) : sim(config, testArchetypes()) {
    REQUIRE(sim.world().addPlace("north", {{0, 0, -1}, {50, 50, 10}}));
    REQUIRE(sim.world().addPlace("south", {{100, 0, -1}, {150, 50, 10}}));
  }
  void tick() {
    sim.tick();
    events.insert(events.end(), sim.output().events.begin(), sim.output().events.end());
  }
  Status hold(std::string place, bool held, uint64_t epoch) {
    Status replied{StatusCode::kUnavailable, "no reply"};
    sim.submit({ClientId::kDaemon, 0,
                HoldPlace{std::move(place), held, epoch, [&](const Status& s) { replied = s; }}});
    tick();
    return replied;
  }
  // The error event the tick reported for an upsert, or "" when it was applied.
  std::string upsert(const EntityState& s) {
    events.clear();
    sim.submit({ClientId{7}, 0, UpsertEntity{s}});
    tick();
    for (const EventOut& e : events) {
      if (e.kind == EventKind::kError) return e.text;
    }
    return {};
  }
  size_t eventsOf(EventKind kind) const {
    size_t n = 0;
    for (const EventOut& e : events) n += e.kind == kind;
    return n;
  }
};

}  // namespace

TEST_CASE("Leased places start held by nobody and npcs cannot enter them", "[sim][custody]") {
  Node n;
  n.tick();
  CHECK(n.sim.stats().places_held == 0);
  const std::string refused = n.upsert(npcAt(1, {10, 10, 0}));
  CHECK(refused == "entity 1: place \"north\" is held by another node");
  CHECK(n.sim.stats().agents == 0);
  CHECK(n.upsert(npcAt(2, {70, 10, 0})) ==
        "entity 2: is outside every place, and in a cluster an npc belongs to a place");

  SECTION("Players and objects are the game's world state and are taken anywhere") {
    EntityState player;
    player.id = EntityId{50};
    player.kind = EntityKind::kPlayer;
    player.position = Vec3{10, 10, 0};
    CHECK(n.upsert(player).empty());
  }
}

TEST_CASE("A held place takes npcs; epochs only grow", "[sim][custody]") {
  Node n;
  REQUIRE(n.hold("north", true, 3).isOk());
  CHECK(n.sim.custody().held(n.sim.world().findPlace("north")));
  CHECK(n.sim.custody().epoch(n.sim.world().findPlace("north")) == 3);
  CHECK(n.sim.stats().places_held == 1);
  CHECK(n.upsert(npcAt(1, {10, 10, 0})).empty());
  CHECK(n.sim.stats().agents == 1);

  SECTION("The same grant again changes nothing") {
    CHECK(n.hold("north", true, 3).isOk());
    CHECK(n.sim.stats().agents == 1);
  }
  SECTION("An older or equal epoch after a release is refused") {
    REQUIRE(n.hold("north", false, 3).isOk());
    const Status stale = n.hold("north", true, 3);
    CHECK(stale.code() == StatusCode::kFailedPrecondition);
    CHECK(stale.message() == "place \"north\": epoch 3 is not above its last, 3");
    CHECK(n.hold("north", true, 2).code() == StatusCode::kFailedPrecondition);
    CHECK(n.hold("north", true, 4).isOk());
  }
  SECTION("A release naming another epoch than the held one is refused") {
    const Status wrong = n.hold("north", false, 2);
    CHECK(wrong.code() == StatusCode::kFailedPrecondition);
    CHECK(wrong.message() == "place \"north\": held at epoch 3, not 2");
    CHECK(n.sim.stats().agents == 1);
  }
  SECTION("An unknown place is not found") {
    CHECK(n.hold("west", true, 1).code() == StatusCode::kNotFound);
  }
  SECTION("A refusal names the place's holder when the server heard who it is") {
    n.sim.submit({ClientId::kDaemon, 0, NotePlaceHolder{"south", "node-b at 10.0.0.6:50051"}});
    n.sim.submit({ClientId::kDaemon, 0, NotePlaceHolder{"north", "node-c at 10.0.0.7:50051"}});
    CHECK(n.upsert(npcAt(2, {110, 10, 0})) ==
          "entity 2: place \"south\" is held by another node (node-b at 10.0.0.6:50051)");
    // Held here: the note is ignored.
    CHECK(n.sim.custody().holder(n.sim.world().findPlace("north")).empty());
    // Holding the place forgets its old holder.
    REQUIRE(n.hold("south", true, 1).isOk());
    CHECK(n.sim.custody().holder(n.sim.world().findPlace("south")).empty());
  }
  SECTION("An npc walking into a place held elsewhere leaves for it; HandOver takes it away") {
    std::vector<EntityId> leaving;
    n.sim.takeLeaving(leaving);
    CHECK(leaving.empty());
    CHECK(n.upsert(npcAt(1, {110, 10, 0})).empty());
    n.sim.takeLeaving(leaving);
    REQUIRE(leaving == std::vector<EntityId>{EntityId{1}});
    // It runs on here, in the place it walked into, until the server has handed it over.
    const Entity* body = n.sim.world().entities().get(n.sim.world().entities().find(EntityId{1}));
    REQUIRE(body);
    CHECK(body->place == n.sim.world().findPlace("south"));
    leaving.clear();
    n.sim.takeLeaving(leaving);
    CHECK(leaving.empty());  // reported once
    n.events.clear();
    n.sim.submit({ClientId::kDaemon, 0, HandOver{EntityId{1}}});
    n.tick();
    CHECK(n.sim.stats().agents == 0);
    CHECK(n.eventsOf(EventKind::kAgentDespawned) == 0);  // it lives on elsewhere: no word
    CHECK(n.eventsOf(EventKind::kError) == 0);
    n.sim.submit({ClientId::kDaemon, 0, HandOver{EntityId{1}}});
    n.tick();
    CHECK(n.eventsOf(EventKind::kError) == 1);  // no longer here
  }
  SECTION("A sleeping npc walked into a place held elsewhere wakes and leaves too") {
    for (int i = 0; i < 40; ++i) n.tick();
    REQUIRE(n.sim.placeState(n.sim.world().findPlace("north")) == PlaceState::kAsleep);
    REQUIRE(n.sim.stats().agents_asleep == 1);
    CHECK(n.upsert(npcAt(1, {110, 10, 0})).empty());
    std::vector<EntityId> leaving;
    n.sim.takeLeaving(leaving);
    CHECK(leaving == std::vector<EntityId>{EntityId{1}});
    const Entity* body = n.sim.world().entities().get(n.sim.world().entities().find(EntityId{1}));
    REQUIRE(body);  // awake again: sleepers are not in the entity table
    CHECK(body->place == n.sim.world().findPlace("south"));
  }
  SECTION("An npc cannot walk out of every place; it stays where it was") {
    CHECK(n.upsert(npcAt(1, {70, 10, 0})) ==
          "entity 1: is outside every place, and in a cluster an npc belongs to a place");
    std::string json;
    REQUIRE(n.sim.describeAgent(EntityId{1}, json).isOk());
    CHECK(json.find("\"north\"") != std::string::npos);
  }
}

TEST_CASE("Sounds reaching places held elsewhere are reported once per place, not relayed ones",
          "[sim][custody]") {
  Node n;
  REQUIRE(n.hold("north", true, 1).isOk());
  auto sound = [](Vec3 at, float radius, bool relayed) {
    SoundEvent s;
    s.position = at;
    s.radius_m = radius;
    s.kind = "gunshot";
    s.relayed = relayed;
    return s;
  };
  std::vector<std::pair<PlaceIndex, Sound>> crossing;
  n.sim.submit({ClientId{7}, 0, sound({25, 25, 0}, 10.f, false)});  // inside the north only
  n.sim.submit({ClientId{7}, 0, sound({48, 25, 0}, 60.f, false)});  // reaches the south too
  n.sim.submit({ClientId{7}, 0, sound({48, 25, 0}, 60.f, true)});   // came from there
  n.tick();
  n.sim.takeCrossingSounds(crossing);
  REQUIRE(crossing.size() == 1);
  CHECK(crossing[0].first == n.sim.world().findPlace("south"));
  CHECK(crossing[0].second.radius_m == 60.f);
  CHECK(crossing[0].second.kind == SoundKind::kGunshot);
  crossing.clear();
  n.sim.takeCrossingSounds(crossing);
  CHECK(crossing.empty());
  SECTION("alone every place is held: nothing crosses") {
    Node alone(SimConfig{});
    alone.sim.submit({ClientId{7}, 0, sound({48, 25, 0}, 60.f, false)});
    alone.tick();
    alone.sim.takeCrossingSounds(crossing);
    CHECK(crossing.empty());
  }
}

namespace {

EntityState playerAt(uint64_t id, Vec3 at, Vec3 velocity = {}) {
  EntityState s;
  s.id = EntityId{id};
  s.kind = EntityKind::kPlayer;
  s.position = at;
  s.velocity = velocity;
  return s;
}

}  // namespace

TEST_CASE("Players an agent of a place held elsewhere could see or hear are reported for it",
          "[sim][custody]") {
  Node n(leasedHearing());
  REQUIRE(n.hold("north", true, 1).isOk());  // the south (x 100..150) is held elsewhere
  // The villager sees 6 m; a footstep at 3 m/s carries 4 + 2.5 × 3 = 11.5 m.
  REQUIRE(n.upsert(playerAt(500, {95, 25, 0})).empty());             // 5 m off: seen
  REQUIRE(n.upsert(playerAt(501, {90, 25, 0}, {0, 3, 0})).empty());  // 10 m off: heard
  REQUIRE(n.upsert(playerAt(502, {90, 30, 0})).empty());             // 10 m off, standing
  EntityState visitor = playerAt(503, {95, 30, 0});
  visitor.relayed = true;  // relayed here from the south's holder: not sent back
  n.sim.submit({ClientId::kDaemon, 0, UpsertEntity{visitor}});
  n.tick();
  std::vector<std::pair<PlaceIndex, EntityState>> visiting;
  n.sim.takeVisitingPlayers(visiting);
  visiting.clear();
  for (int i = 0; i < 10; ++i) n.tick();  // 1 s at 0.1 s a tick
  n.sim.takeVisitingPlayers(visiting);
  std::map<uint64_t, int> relays;
  for (const auto& [place, s] : visiting) {
    CHECK(place == n.sim.world().findPlace("south"));
    CHECK(s.relayed);
    CHECK(s.kind == EntityKind::kPlayer);
    ++relays[raw(s.id)];
    if (s.id == EntityId{501}) {
      CHECK(*s.position == Vec3{90, 25, 0});
      CHECK(*s.velocity == Vec3{0, 3, 0});
    }
  }
  CHECK(relays == std::map<uint64_t, int>{{500, 5}, {501, 5}});  // every 0.2 s, not every tick
  SECTION("alone every place is held: no player is relayed") {
    Node alone(SimConfig{});
    REQUIRE(alone.upsert(playerAt(500, {95, 25, 0})).empty());
    for (int i = 0; i < 5; ++i) alone.tick();
    visiting.clear();
    alone.sim.takeVisitingPlayers(visiting);
    CHECK(visiting.empty());
  }
}

namespace {

// What agent `agent` sees and hears: the targets of its visibility list and the sources of
// its sound targets.
std::pair<std::vector<uint64_t>, std::vector<uint64_t>> perceived(Simulation& sim, uint64_t agent) {
  std::string json;
  REQUIRE(sim.describeAgent(EntityId{agent}, json).isOk());
  const nlohmann::json view = nlohmann::json::parse(json)["perception"];
  std::pair<std::vector<uint64_t>, std::vector<uint64_t>> out;
  for (const auto& t : view["visible"]) out.first.push_back(t["target"].get<uint64_t>());
  for (const auto& t : view["sounds"]) out.second.push_back(t["source"].get<uint64_t>());
  return out;
}

}  // namespace

TEST_CASE("A relayed player is a visitor: seen and heard, gone a second after its last relay",
          "[sim][custody]") {
  Node n(leasedHearing());
  REQUIRE(n.hold("north", true, 1).isOk());
  REQUIRE(n.upsert(npcAt(1, {25, 25, 0}, "statue")).empty());  // blind and deaf
  REQUIRE(n.upsert(npcAt(2, {45, 25, 0})).empty());            // a villager by the border
  auto relay = [&](Vec3 at) {
    EntityState s = playerAt(600, at, {0, 3, 0});
    s.relayed = true;
    n.sim.submit({ClientId::kDaemon, 0, UpsertEntity{s}});
  };
  auto visitor = [&]() { return n.sim.world().entities().get(EntityId{600}); };
  relay({48, 25, 0});  // 3 m in front of the villager, walking
  for (int i = 0; i < 5; ++i) n.tick();
  REQUIRE(visitor() != nullptr);
  CHECK(isVisitor(*visitor()));
  const auto [seen, heard] = perceived(n.sim, 2);
  CHECK(seen == std::vector<uint64_t>{600});
  CHECK(heard == std::vector<uint64_t>{600});  // its footsteps, derived here

  SECTION("without a relay for a second it is gone") {
    for (int i = 0; i < 4; ++i) n.tick();  // its relay applied 0.8 s ago
    REQUIRE(visitor() != nullptr);
    for (int i = 0; i < 3; ++i) n.tick();  // 1.1 s ago
    CHECK(visitor() == nullptr);
  }
  SECTION("relays keep it, and move it") {
    for (int i = 0; i < 20; ++i) {
      if (i % 2 == 0) relay({48, 26.f + static_cast<float>(i) * 0.1f, 0});
      n.tick();
    }
    REQUIRE(visitor() != nullptr);
    CHECK(visitor()->position.y == Approx(27.8f));
  }
  SECTION("the game's own updates take it over; relays then change nothing") {
    REQUIRE(n.upsert(playerAt(600, {47, 25, 0})).empty());  // ClientId 7
    REQUIRE(visitor() != nullptr);
    CHECK_FALSE(isVisitor(*visitor()));
    CHECK(visitor()->owner == ClientId{7});
    relay({30, 40, 0});
    for (int i = 0; i < 20; ++i) n.tick();
    REQUIRE(visitor() != nullptr);
    CHECK(visitor()->position == Vec3{47, 25, 0});
  }
  SECTION("only players are relayed") {
    EntityState npc = npcAt(3, {40, 25, 0});
    npc.relayed = true;
    n.events.clear();
    n.sim.submit({ClientId::kDaemon, 0, UpsertEntity{npc}});
    n.tick();
    CHECK(n.sim.world().entities().get(EntityId{3}) == nullptr);
    bool refused = false;
    for (const EventOut& e : n.events) {
      refused |= e.kind == EventKind::kError &&
                 e.text == "entity 3: relayed is for players only";
    }
    CHECK(refused);
  }
}

TEST_CASE("The game's signals to places held elsewhere are reported once per place, not relayed ones",
          "[sim][custody]") {
  Node n;
  REQUIRE(n.hold("north", true, 1).isOk());
  auto signal = [](std::string place, Vec3 at, float radius, bool relayed) {
    SignalEvent s;
    s.name = "OnAlarm";
    s.place = std::move(place);
    s.position = at;
    s.radius_m = radius;
    s.relayed = relayed;
    return s;
  };
  n.sim.submit({ClientId{7}, 0, signal("", {25, 25, 0}, 10.f, false)});      // the north only
  n.sim.submit({ClientId{7}, 0, signal("", {48, 25, 0}, 60.f, false)});      // reaches the south
  n.sim.submit({ClientId{7}, 0, signal("south", {0, 0, 0}, 0.f, false)});    // to the south
  n.sim.submit({ClientId{7}, 0, signal("north", {0, 0, 0}, 0.f, false)});    // held here
  n.sim.submit({ClientId{7}, 0, signal("south", {0, 0, 0}, 0.f, true)});     // came from there
  n.tick();
  std::vector<std::pair<PlaceIndex, SignalEvent>> crossing;
  n.sim.takeCrossingSignals(crossing);
  REQUIRE(crossing.size() == 2);
  CHECK(crossing[0].first == n.sim.world().findPlace("south"));
  CHECK(crossing[0].second.radius_m == 60.f);
  CHECK(crossing[1].first == n.sim.world().findPlace("south"));
  CHECK(crossing[1].second.place == "south");
  crossing.clear();
  n.sim.takeCrossingSignals(crossing);
  CHECK(crossing.empty());
}

TEST_CASE("Releasing a place unloads its agents, awake and asleep, without events", "[sim][custody]") {
  Node n;
  REQUIRE(n.hold("north", true, 1).isOk());
  REQUIRE(n.hold("south", true, 1).isOk());
  REQUIRE(n.upsert(npcAt(1, {10, 10, 0})).empty());
  REQUIRE(n.upsert(npcAt(2, {12, 10, 0})).empty());
  REQUIRE(n.upsert(npcAt(3, {110, 10, 0})).empty());
  EntityState player;  // keeps the south awake
  player.id = EntityId{50};
  player.kind = EntityKind::kPlayer;
  player.position = Vec3{120, 10, 0};
  REQUIRE(n.upsert(player).empty());

  SECTION("awake") {
    n.events.clear();
    REQUIRE(n.hold("north", false, 1).isOk());
    CHECK(n.sim.stats().agents == 1);
    CHECK(n.sim.world().entities().get(EntityId{1}) == nullptr);
    CHECK(n.eventsOf(EventKind::kAgentDespawned) == 0);
    CHECK(n.sim.stats().places_held == 1);
  }
  SECTION("asleep") {
    for (int i = 0; i < 40; ++i) n.tick();
    REQUIRE(n.sim.placeState(n.sim.world().findPlace("north")) == PlaceState::kAsleep);
    REQUIRE(n.sim.stats().agents_asleep == 2);
    n.events.clear();
    REQUIRE(n.hold("north", false, 1).isOk());
    const SimStats s = n.sim.stats();
    CHECK(s.agents == 1);
    CHECK(s.agents_asleep == 0);
    CHECK(n.eventsOf(EventKind::kAgentDespawned) == 0);
    CHECK(n.sim.placeState(n.sim.world().findPlace("north")) == PlaceState::kAwake);
    std::string json;
    CHECK(n.sim.describeAgent(EntityId{1}, json).code() == StatusCode::kNotFound);
  }
  // The player, the game's own entity, stays.
  CHECK(n.sim.world().entities().get(EntityId{50}) != nullptr);
  CHECK(n.sim.stats().agents == 1);
}

TEST_CASE("Without a cluster every place is held and HoldPlace is refused", "[sim][custody]") {
  SimConfig alone = leased();
  alone.leased_places = false;
  Node n(alone);
  CHECK(n.upsert(npcAt(1, {10, 10, 0})).empty());
  CHECK(n.upsert(npcAt(2, {70, 10, 0})).empty());  // outside every place is fine alone
  CHECK(n.sim.stats().places_held == 2);
  const Status refused = n.hold("north", true, 1);
  CHECK(refused.code() == StatusCode::kFailedPrecondition);
  CHECK(refused.message() == "place \"north\": places are not leased (no cluster section)");
}

TEST_CASE("A world file's npcs come with their place when places are leased", "[sim][custody]") {
  const std::string text = R"({
    "places": [ { "name": "north", "min": [0, 0, -1], "max": [50, 50, 10] },
                { "name": "south", "min": [100, 0, -1], "max": [150, 50, 10] } ],
    "entities": [
      { "id": 1, "kind": "npc", "archetype": "villager", "position": [10, 10, 0] },
      { "id": 2, "kind": "npc", "archetype": "villager", "position": [110, 10, 0] },
      { "id": 3, "kind": "npc", "archetype": "villager", "position": [20, 10, 0], "place": "south" },
      { "id": 4, "kind": "object", "position": [12, 12, 0] } ] })";
  WorldFile file;
  std::vector<std::string> errors;
  REQUIRE(parseWorldFile("world.json", text, file, errors));
  Simulation sim(leased(), testArchetypes());
  REQUIRE(applyWorldFile(file, sim, errors));
  sim.tick();
  CHECK(sim.stats().agents == 0);
  CHECK(sim.stats().entities == 1);  // the object

  sim.submit({ClientId::kDaemon, 0, HoldPlace{"south", true, 1, {}}});
  CHECK(queuePlaceNpcs(file, "south", sim) == 2);
  sim.tick();
  CHECK(sim.stats().agents == 2);
  std::string json;
  CHECK(sim.describeAgent(EntityId{2}, json).isOk());
  CHECK(sim.describeAgent(EntityId{3}, json).isOk());  // its "place" says south
  CHECK(sim.describeAgent(EntityId{1}, json).code() == StatusCode::kNotFound);
  CHECK(queuePlaceNpcs(file, "west", sim) == 0);
}
