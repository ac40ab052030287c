// Place-based hibernation inside the simulation: quiet places sleep, every wake cause wakes
// them, sleeping agents leave the tick, and long actions settle in one step on wake.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;

namespace {

constexpr const char* kLongActions = R"({
  "Baking": { "turn_s": 1, "recipes": [ { "every_turns": 3, "consumes": { "flour": 2 },
                                          "produces": { "bread": 2, "sandwich": 1 } } ] },
  "Chopping": { "turn_s": 2, "recipes": [ { "produces": { "log": 1 } } ] } })";

ArchetypeSet archetypes() {
  ArchetypeSet set;
  Archetype baker;
  baker.name = "baker";
  baker.species = "human";
  baker.behaviors.push_back({"Work", BehaviorMode::kLongAction, "Baking"});
  baker.behavior = "Work";
  baker.inventory = {{"flour", 100}};
  set.add(baker);
  Archetype walker;
  walker.name = "walker";
  walker.species = "human";
  walker.behaviors.push_back({"Walk", BehaviorMode::kWander});
  walker.behavior = "Walk";
  walker.wander.radius_m = 3.f;
  walker.hibernation_action = "Chopping";
  set.add(walker);
  return set;
}

struct Fixture {
  Simulation sim;
  std::vector<EventOut> events;
  bool perform = true;  // act as the game: complete every client action at once

  static SimConfig config(unsigned threads = 1) {
    SimConfig c;
    c.threads = threads;
    c.tick_dt_s = 0.1;
    c.hibernation.quiet_s = 5.0;
    c.derive_footsteps = false;
    return c;
  }

  explicit Fixture(unsigned threads = 1) : sim(config(threads), archetypes()) {
    LongActionLibrary lib;
    JsonReader reader("long_actions.json");
    nlohmann::json j;
    REQUIRE(reader.parse(kLongActions, j));
    lib.loadObject(j, reader);
    REQUIRE(reader.ok());
    REQUIRE(sim.setLongActions(std::move(lib)).empty());
    REQUIRE(sim.world().addPlace("bakery", {{0, 0, -1}, {20, 20, 10}}));
    REQUIRE(sim.world().addPlace("street", {{30, 0, -1}, {60, 20, 10}}));
    spawn(1, "baker", {5, 5, 0});
    spawn(2, "walker", {10, 10, 0});
    spawn(3, "walker", {40, 10, 0});
  }
  void spawn(uint64_t id, const char* archetype, Vec3 at) {
    EntityState s;
    s.id = EntityId{id};
    s.kind = EntityKind::kNpc;
    s.archetype = archetype;
    s.position = at;
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  void run(int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim.tick();
      for (const EventOut& e : sim.output().events) events.push_back(e);
      if (!perform) continue;
      for (const ActionOut& a : sim.output().actions) {
        ActionResult r;
        r.agent = a.agent;
        r.intention = a.intention;
        sim.submit({ClientId{1}, 0, r});
      }
    }
  }
  PlaceState bakery() const { return sim.placeState(sim.world().findPlace("bakery")); }
  nlohmann::json agent(uint64_t id) {
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{id}, json).isOk());
    return nlohmann::json::parse(json);
  }
  std::vector<EventOut> eventsOf(EventKind kind) const {
    std::vector<EventOut> out;
    for (const EventOut& e : events) {
      if (e.kind == kind) out.push_back(e);
    }
    return out;
  }
  void submitPlayer(Vec3 at) {
    EntityState p;
    p.id = EntityId{100};
    p.kind = EntityKind::kPlayer;
    p.position = at;
    sim.submit({ClientId{1}, 0, UpsertEntity{p}});
  }
};

}  // namespace

TEST_CASE("A quiet place falls asleep and its agents leave the tick", "[sim][hibernation]") {
  Fixture f;
  f.run(40);  // 4 s: still within the 5 s quiet period
  REQUIRE(f.bakery() == PlaceState::kAwake);
  f.run(20);
  REQUIRE(f.bakery() == PlaceState::kAsleep);

  SECTION("Should count agents and places asleep, and say so in an event") {
    const SimStats s = f.sim.stats();
    REQUIRE(s.agents == 3);
    REQUIRE(s.agents_asleep == 3);  // the street had no one either
    REQUIRE(s.agents_awake == 0);
    REQUIRE(s.places_asleep == 2);
    REQUIRE(s.entities == 0);       // dormant bodies left the world's tables
    const auto asleep = f.eventsOf(EventKind::kPlaceAsleep);
    REQUIRE(asleep.size() == 2);
    REQUIRE(asleep[0].text == "bakery: 2 agents hibernating");
  }
  SECTION("Should show a sleeping agent's work in its debug view") {
    const auto j = f.agent(2);
    REQUIRE(j["asleep"] == true);
    REQUIRE(j["place"] == "bakery");
    REQUIRE(j["work"]["action"] == "Chopping");
    REQUIRE(j["work"]["for_hibernation"] == true);
  }
  SECTION("Should refuse admin commands for a sleeping agent with FAILED_PRECONDITION") {
    Status status;
    SetSensors c;
    c.agent = EntityId{1};
    c.vision = false;
    c.reply = [&](const Status& s) { status = s; };
    f.sim.submit({ClientId{1}, 0, std::move(c)});
    f.run(1);
    REQUIRE(status.code() == StatusCode::kFailedPrecondition);
    REQUIRE(status.message() == "entity 1 is hibernating (its place is asleep)");
  }
}

TEST_CASE("Waking settles long actions in one step", "[sim][hibernation]") {
  Fixture f;
  f.run(60);
  REQUIRE(f.bakery() == PlaceState::kAsleep);
  f.run(600);  // a minute asleep
  f.submitPlayer({10, 2, 0});
  f.run(1);

  SECTION("Should wake when a player enters, the same tick") {
    REQUIRE(f.bakery() == PlaceState::kAwake);
    REQUIRE(f.sim.stats().agents_awake == 2);
    const auto awake = f.eventsOf(EventKind::kPlaceAwake);
    REQUIRE(awake.size() == 1);
    // Draining from the end of the quiet period (t = 5.1 s: its agents hear
    // OnPlaceHibernating), asleep from the next tick (t = 5.2 s) to the wake (t = 66.1 s).
    REQUIRE_THAT(awake[0].text,
                 Catch::StartsWith("bakery woke (a player entered) after 60.9 s, 2 agents"));
  }
  SECTION("Should give the baker what baking turn by turn would have given") {
    // Baking ran from its first tick (t = 0.1 s) to the wake (t = 66.1 s): 66 turns.
    const auto j = f.agent(1);
    REQUIRE(j["work"]["action"] == "Baking");  // its common state carries on
    REQUIRE(j["work"]["turns_settled"] == 66);
    REQUIRE(j["inventory"]["bread"] == 44);    // 22 batches
    REQUIRE(j["inventory"]["sandwich"] == 22);
    REQUIRE(j["inventory"]["flour"] == 56);
  }
  SECTION("Should stop the hibernation action on wake and keep what it made") {
    const auto j = f.agent(2);
    REQUIRE(j["work"].is_null());
    // Chopping from the sleep (t = 5.1 s .. 5.5 s) to the wake at 66.1 s: 30 turns of 2 s.
    REQUIRE(j["inventory"]["log"].get<int>() >= 30);
    REQUIRE(j["inventory"]["log"].get<int>() <= 31);
    REQUIRE_THAT(f.eventsOf(EventKind::kPlaceAwake)[0].text,
                 Catch::Contains("walker 2 Chopping"));
  }
  SECTION("Should leave the other sleeping place asleep") {
    REQUIRE(f.sim.placeState(f.sim.world().findPlace("street")) == PlaceState::kAsleep);
  }
}

TEST_CASE("Every wake cause wakes a sleeping place", "[sim][hibernation]") {
  Fixture f;
  f.run(60);
  REQUIRE(f.bakery() == PlaceState::kAsleep);

  SECTION("Should wake on a sound that reaches it") {
    SoundEvent far;
    far.position = Vec3{100, 100, 0};
    far.radius_m = 10;
    f.sim.submit({ClientId{1}, 0, far});
    f.run(1);
    REQUIRE(f.bakery() == PlaceState::kAsleep);
    SoundEvent near;
    near.position = Vec3{25, 5, 0};  // 5 m outside the bakery's wall
    near.radius_m = 8;
    near.kind = "gunshot";
    f.sim.submit({ClientId{1}, 0, near});
    f.run(1);
    REQUIRE(f.bakery() == PlaceState::kAwake);
    REQUIRE_THAT(f.eventsOf(EventKind::kPlaceAwake)[0].text, Catch::Contains("(a sound)"));
  }
  SECTION("Should wake on a signal to one of its agents") {
    SignalEvent s;
    s.target = EntityId{1};
    s.name = "OnCustomerArrived";
    f.sim.submit({ClientId{1}, 0, s});
    f.run(1);
    REQUIRE(f.bakery() == PlaceState::kAwake);
    REQUIRE(f.eventsOf(EventKind::kError).empty());
  }
  SECTION("Should wake on a client request, now or at a scheduled time") {
    Status status;
    f.sim.submit({ClientId{1}, 0, WakePlace{"bakery", 2.0, [&](const Status& s) { status = s; }}});
    f.run(1);
    REQUIRE(status.isOk());
    f.run(15);
    REQUIRE(f.bakery() == PlaceState::kAsleep);  // scheduled 2 s ahead
    f.run(10);
    REQUIRE(f.bakery() == PlaceState::kAwake);
    REQUIRE_THAT(f.eventsOf(EventKind::kPlaceAwake)[0].text,
                 Catch::Contains("(a scheduled game event)"));
    f.sim.submit({ClientId{1}, 0, WakePlace{"cellar", 0.0, [&](const Status& s) { status = s; }}});
    f.run(1);
    REQUIRE(status.code() == StatusCode::kNotFound);
  }
  SECTION("Should follow a sleeping agent's moves without waking, unless it leaves") {
    EntityState moved;
    moved.id = EntityId{2};
    moved.kind = EntityKind::kNpc;
    moved.position = Vec3{12, 12, 0};
    f.sim.submit({ClientId{1}, 0, UpsertEntity{moved}});
    f.run(1);
    REQUIRE(f.bakery() == PlaceState::kAsleep);
    REQUIRE(f.agent(2)["position"] == nlohmann::json::array({12.0, 12.0, 0.0}));
    moved.position = Vec3{45, 12, 0};  // into the street, which sleeps too
    f.sim.submit({ClientId{1}, 0, UpsertEntity{moved}});
    f.run(1);
    REQUIRE(f.bakery() == PlaceState::kAwake);  // it left: its old place woke
    REQUIRE(f.agent(2)["place"] == "street");   // and it joined the street's sleep
    REQUIRE(f.agent(2)["asleep"] == true);
  }
  SECTION("Should despawn a sleeping agent cleanly") {
    Status status;
    f.sim.submit({ClientId{1}, 0, DespawnAgent{EntityId{1}, [&](const Status& s) { status = s; }}});
    f.run(1);
    REQUIRE(status.isOk());
    REQUIRE(f.sim.stats().agents == 2);
    std::string json;
    REQUIRE(f.sim.describeAgent(EntityId{1}, json).code() == StatusCode::kNotFound);
  }
}

TEST_CASE("A place waits for client actions in flight before it sleeps", "[sim][hibernation]") {
  Fixture f;
  f.perform = false;  // the game sits on the walker's MoveTo
  f.run(1);
  std::vector<ActionOut> pending(f.sim.output().actions.begin(), f.sim.output().actions.end());
  f.run(80);
  SECTION("Should drain while the walker's action is running, starting nothing new") {
    REQUIRE(f.bakery() == PlaceState::kDraining);
    for (const ActionOut& a : pending) {
      ActionResult r;
      r.agent = a.agent;
      r.intention = a.intention;
      f.sim.submit({ClientId{1}, 0, r});
    }
    f.run(2);
    REQUIRE(f.bakery() == PlaceState::kAsleep);
    REQUIRE(f.eventsOf(EventKind::kIntentionFailed).empty());  // nothing was cut off
  }
}

namespace {

constexpr const char* kNightsTree = R"(<SelectionTree name="Nights" type="BehaviorSelectionTree">
  <Variables>
    <Variable name="Draining"/>
    <Variable name="Woke"/>
  </Variables>
  <SignalVariables>
    <Signal name="OnPlaceHibernating" variable="Draining" value="true"/>
    <Signal name="OnPlaceAwake" variable="Woke" value="true"/>
  </SignalVariables>
  <Priority name="Root">
    <Leaf name="Morning" condition="Woke"/>
    <Leaf name="Dusk" condition="Draining"/>
    <Leaf name="Day"/>
  </Priority>
</SelectionTree>)";

}  // namespace

TEST_CASE("Agents hear that their place goes to sleep and that it woke", "[sim][hibernation]") {
  ArchetypeSet set;
  Archetype sleeper;
  sleeper.name = "sleeper";
  sleeper.species = "human";
  sleeper.selection_tree = "Nights";
  for (const char* b : {"Morning", "Dusk", "Day"}) sleeper.behaviors.push_back({b, BehaviorMode::kIdle});
  set.add(sleeper);
  Simulation sim(Fixture::config(), std::move(set));
  REQUIRE(sim.loadSelectionTrees({{"Nights.xml", kNightsTree}}).ok());
  REQUIRE(sim.world().addPlace("inn", {{0, 0, -1}, {20, 20, 10}}));
  sim.submit(test::upsert(1, EntityKind::kNpc, {5, 5, 0}, "sleeper"));
  std::vector<std::string> behaviors;
  double drained_at = -1, awake_at = -1;
  auto run = [&](int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim.tick();
      for (const EventOut& e : sim.output().events) {
        if (e.kind == EventKind::kBehavior) behaviors.push_back(e.text);
        if (e.kind == EventKind::kBehavior && e.text == "Day -> Dusk") drained_at = sim.timeS();
        if (e.kind == EventKind::kBehavior && e.text == "Dusk -> Morning") awake_at = sim.timeS();
      }
    }
  };
  run(80);
  REQUIRE(sim.placeState(sim.world().findPlace("inn")) == PlaceState::kAsleep);
  WakePlace wake;
  wake.place = "inn";
  sim.submit({ClientId{1}, 0, wake});
  run(2);

  SECTION("Should tell the agents when the place starts to drain, then when it woke") {
    REQUIRE(behaviors == std::vector<std::string>{"No Behavior -> Day", "Day -> Dusk",
                                                  "Dusk -> Morning"});
    REQUIRE(drained_at == Approx(5.0).margin(0.21));  // quiet_s after the last activity
    REQUIRE(awake_at == Approx(8.1));                 // the tick that woke it
  }
}

TEST_CASE("An agent paying attention keeps its place awake, on the pool as on the tick thread",
          "[sim][hibernation][threads]") {
  for (unsigned threads : {1u, 2u}) {
    INFO(threads << " threads");
    Fixture f(threads);
    const PlaceIndex street = f.sim.world().findPlace("street");
    // A sound beside the walker in the street every second turns its attention to it; the
    // bakery hears nothing and has no player.
    for (int second = 0; second < 8; ++second) {
      SoundEvent sound;
      sound.position = Vec3{42, 10, 0};
      sound.radius_m = 15.f;
      sound.kind = "generic";
      REQUIRE(f.sim.submit({ClientId{1}, 0, sound}));
      f.run(10);
      REQUIRE_FALSE(f.agent(3).at("perception").at("attention").is_null());
    }
    // 8 s: past the 5 s quiet period of the bakery, and the street's activity is fresh.
    REQUIRE(f.bakery() == PlaceState::kAsleep);
    REQUIRE(f.sim.placeState(street) == PlaceState::kAwake);
    REQUIRE(f.sim.stats().agents_asleep == 2);
  }
}
