// GOAP planning wired into the tick (core/sim/sim_planning.cpp): archetype planners, plan
// steps as intentions, results, failures and replanning, SetPlannerValue, GetPlanTrace,
// the per-tick budget, and the <Plan> / <ExecutePlan> behavior tree nodes.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "planning_game.h"
#include "sim_fixture.h"

namespace npc {
namespace {

using test::describe;
using test::Game;
using test::upsert;

// A cook who is hungry: take a knife (a smart object: the plan chooses which), then cook.
constexpr const char* kChefDomain = R"({
  "domain": "chef",
  "search": { "object_radius_m": 60 },
  "goal_selection": { "retry_s": 1, "replan_cooldown_s": 0.5 },
  "facts": [ { "name": "has_knife", "type": "bool" }, { "name": "meal_ready", "type": "bool" } ],
  "blackboard": { "hungry": "bool" },
  "actions": [
    { "name": "TakeKnife", "object": true, "pre": [ { "fact": "has_knife", "value": false } ],
      "effects": [ { "move_to": "$object" }, { "fact": "has_knife", "set": true } ],
      "cost": { "base": 1, "travel_per_m": 0.1 }, "params": { "animation": "take", "duration_s": 1 } },
    { "name": "Cook", "pre": [ { "fact": "has_knife", "value": true } ],
      "effects": [ { "fact": "meal_ready", "set": true } ], "cost": 2 },
    { "name": "Idle", "cost": 1 }
  ],
  "smart_objects": [ { "species": "knife", "actions": ["TakeKnife"] } ],
  "goals": [ { "name": "Eat", "priority": 2, "desired": [ { "fact": "meal_ready", "value": true } ],
               "relevant": [ { "blackboard": "hungry", "value": true } ] } ],
  "buckets": [ { "name": "Kitchen", "actions": ["TakeKnife", "Cook"], "goals": ["Eat"],
                 "fallback": "Idle" } ]
})";

constexpr const char* kArchetypes = R"({
  "chef": {
    "species": "human", "behavior": "Kitchen",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Kitchen": { "mode": "plan" } },
    "planner": { "domain": "chef", "blackboard": { "hungry": true }, "transient_facts": ["meal_ready"] }
  },
  "tree_chef": {
    "species": "human", "behavior": "Kitchen",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Kitchen": { "tree": "ChefTree" } },
    "actions": { "Celebrate": { "side": "client" }, "Sulk": { "side": "client" } },
    "planner": { "domain": "chef" }
  }
})";

// Plans once; Celebrate when the plan succeeded, Sulk when planning or a step failed.
constexpr const char* kChefTree = R"(<BehaviorTree><Root>
  <Selector>
    <Sequence>
      <Plan goal="Eat"/>
      <ExecutePlan/>
      <Action name="Celebrate"/>
    </Sequence>
    <Action name="Sulk"/>
  </Selector>
</Root></BehaviorTree>)";

ArchetypeSet chefArchetypes() { return test::archetypesFrom(kArchetypes); }

SimConfig chefConfig() { return test::planningConfig(); }

Command knife(uint64_t id, Vec3 at) {
  EntityState s;
  s.id = EntityId{id};
  s.kind = EntityKind::kObject;
  s.species = "knife";
  s.position = at;
  return {ClientId{7}, 0, UpsertEntity{s}};
}

std::unique_ptr<Simulation> chefWorld() {
  auto sim = std::make_unique<Simulation>(chefConfig(), chefArchetypes());
  REQUIRE(sim->loadBehaviorTrees({{"ChefTree.xml", kChefTree}}).ok());
  const DefinitionReport r = sim->loadPlannerDomains({{"chef.json", kChefDomain}});
  INFO(r.text());
  REQUIRE(r.ok());
  return sim;
}

}  // namespace

TEST_CASE("planner configuration errors name the archetype and what is missing", "[sim][planning]") {
  ArchetypeSet set;
  JsonReader reader("archetypes.json");
  nlohmann::json j = nlohmann::json::parse(R"({
    "a": { "species": "human", "behavior": "Work", "behaviors": { "Work": { "mode": "plan" } },
           "planner": { "domain": "chef", "targets": { "enemy": "attention" },
                        "blackboard": { "sleepy": true }, "transient_facts": ["full"],
                        "perform": { "Fly": "Take" } } },
    "b": { "species": "human", "behavior": "Work", "behaviors": { "Work": { "mode": "plan" } },
           "planner": { "domain": "nowhere" } } })");
  set.loadObject(j, reader);
  REQUIRE(reader.ok());
  Simulation sim(chefConfig(), std::move(set));
  const DefinitionReport r = sim.loadPlannerDomains({{"chef.json", kChefDomain}});
  const std::string text = r.text();
  CHECK_FALSE(r.ok());
  CHECK_THAT(text, Catch::Contains("archetype \"a\": planner: behavior \"Work\": domain \"chef\" has no bucket \"Work\""));
  CHECK_THAT(text, Catch::Contains("archetype \"a\": planner: targets: domain \"chef\" has no target \"enemy\""));
  CHECK_THAT(text, Catch::Contains("blackboard: \"sleepy\" is not a bool or number key"));
  CHECK_THAT(text, Catch::Contains("transient_facts: domain \"chef\" has no fact \"full\""));
  CHECK_THAT(text, Catch::Contains("perform: domain \"chef\" has no action \"Fly\""));
  CHECK_THAT(text, Catch::Contains("archetype \"b\": planner: domain \"nowhere\" is not loaded"));
}

TEST_CASE("archetype files check planner keys and plan behaviors", "[sim][planning]") {
  SECTION("Should refuse a plan behavior in an archetype with no planner") {
    ArchetypeSet set;
    JsonReader reader("village.json");
    set.loadObject(nlohmann::json::parse(R"({
      "x": { "species": "human", "behaviors": { "Work": { "mode": "plan" } } } })"),
                   reader);
    CHECK(reader.report() ==
          "village.json: /x/behaviors/Work: plans, but the archetype has no \"planner\"");
  }
  SECTION("Should refuse unknown planner keys and target kinds (schema)") {
    ArchetypeSet set;
    JsonReader reader("village.json");
    set.loadObject(nlohmann::json::parse(R"({
      "y": { "species": "human", "planner": { "domain": "d", "targets": { "t": "moon" }, "colour": 1 } } })"),
                   reader);
    CHECK(reader.report() ==
          "village.json: /y/planner/targets/t: must be one of home|attention|self\n"
          "village.json: /y/planner/colour: unknown key");
  }
}

TEST_CASE("a plan-mode agent plans, performs the steps as intentions and learns their effects",
          "[sim][planning]") {
  auto sim = chefWorld();
  REQUIRE(sim->submit(knife(501, {20.f, 0.f, 0.f})));   // far
  REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));    // near: cheaper to walk to
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
  Game game{*sim, 10};
  game.run(30);

  // MoveTo the near knife, take it (the knife is the action's object), cook.
  REQUIRE(game.done.size() >= 3);
  CHECK(game.done[0] == "MoveTo");
  CHECK(game.done[1] == "TakeKnife");
  CHECK(game.objects[1] == EntityId{502});
  CHECK(game.done[2] == "Cook");
  // The meal is an achievement (transient): once eaten the chef is hungry for the next one,
  // and already has a knife, so the next plans are Cook alone.
  CHECK(game.count("Cook") >= 2);
  CHECK(game.count("TakeKnife") == 1);
  const nlohmann::json planner = describe(*sim, 10)["planner"];
  CHECK(planner["domain"] == "chef");
  CHECK_THAT(planner["facts"].get<std::string>(), Catch::Contains("has_knife=true"));
  CHECK(planner["step_failures"] == 0);
  CHECK(sim->stats().plans >= 2);
}

TEST_CASE("a failed step is replanned after the domain's cooldown", "[sim][planning]") {
  auto sim = chefWorld();
  REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
  Game game{*sim, 10};
  game.fail["TakeKnife"] = 1;
  game.run(3);
  REQUIRE(game.count("TakeKnife") == 1);  // failed
  const uint64_t searches = describe(*sim, 10)["planner"]["searches"];
  CHECK(describe(*sim, 10)["planner"]["step_failures"] == 1);
  game.run(10);  // the 0.5 s cooldown passes; the agent plans again and retries
  CHECK(game.count("TakeKnife") == 2);
  CHECK(describe(*sim, 10)["planner"]["searches"].get<uint64_t>() > searches);
  CHECK(game.count("Cook") >= 1);
  CHECK(sim->stats().plan_steps_failed == 1);
}

TEST_CASE("with no relevant goal the bucket's fallback runs; SetPlannerValue changes that",
          "[sim][planning]") {
  auto sim = chefWorld();
  REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
  Status reply = {StatusCode::kUnavailable, "no reply"};
  SetPlannerValue not_hungry{EntityId{10}, "hungry", "false", true, [&](const Status& s) { reply = s; }};
  REQUIRE(sim->submit({ClientId::kDaemon, 0, std::move(not_hungry)}));
  Game game{*sim, 10};
  game.run(5);
  CHECK(reply.isOk());
  CHECK(game.count("Idle") >= 1);
  CHECK(game.count("TakeKnife") == 0);

  // A fact set by the game: the chef now holds a knife, so hunger plans Cook at once.
  SetPlannerValue knife_in_hand{EntityId{10}, "has_knife", "true", false, {}};
  SetPlannerValue hungry{EntityId{10}, "hungry", "true", true, {}};
  REQUIRE(sim->submit({ClientId::kDaemon, 0, std::move(knife_in_hand)}));
  REQUIRE(sim->submit({ClientId::kDaemon, 0, std::move(hungry)}));
  game.run(8);
  CHECK(game.count("Cook") >= 1);
  CHECK(game.count("TakeKnife") == 0);

  // Bad values are refused with the field named.
  Status bad;
  SetPlannerValue wrong{EntityId{10}, "has_spoon", "true", false, [&](const Status& s) { bad = s; }};
  REQUIRE(sim->submit({ClientId::kDaemon, 0, std::move(wrong)}));
  sim->tick();
  CHECK(bad.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(bad.message(), Catch::Contains("has no fact \"has_spoon\""));
}

TEST_CASE("GetPlanTrace returns the traced search with expansions and rejections", "[sim][planning]") {
  auto sim = chefWorld();
  REQUIRE(sim->submit(knife(501, {50.f, 0.f, 0.f})));
  REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));
  REQUIRE(sim->submit(knife(503, {90.f, 0.f, 0.f})));  // beyond the 60 m gathering radius
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
  std::string json;
  Game game{*sim, 10};
  game.fail["MoveTo"] = 1;  // the first step fails: the agent replans after the cooldown
  game.tick();              // spawned and planned, untraced
  REQUIRE(sim->planTrace(EntityId{10}, "", true, json).isOk());
  CHECK(nlohmann::json::parse(json)["trace"].is_null());
  const uint64_t searches = describe(*sim, 10)["planner"]["searches"];
  for (int i = 0; i < 20 && describe(*sim, 10)["planner"]["searches"] == searches; ++i) game.tick();
  REQUIRE(sim->planTrace(EntityId{10}, "", std::nullopt, json).isOk());
  const nlohmann::json j = nlohmann::json::parse(json);
  CHECK(j["traced"] == true);
  REQUIRE(j["trace"].is_object());
  CHECK_FALSE(j["trace"]["expansions"].empty());
  CHECK(j["trace"]["result"]["steps"][0]["action"] == "TakeKnife");
  CHECK(j["trace"]["result"]["steps"][0]["object"] == 502);
  CHECK(j["planner"]["domain"] == "chef");

  Status missing = sim->planTrace(EntityId{999}, "", std::nullopt, json);
  CHECK(missing.code() == StatusCode::kNotFound);
}

TEST_CASE("planner searches per tick are capped; the rest wait their turn", "[sim][planning]") {
  SimConfig config = chefConfig();
  config.max_plans_per_tick = 1;
  Simulation sim(config, chefArchetypes());
  REQUIRE(sim.loadPlannerDomains({{"chef.json", kChefDomain}}).ok());
  REQUIRE(sim.submit(knife(502, {3.f, 0.f, 0.f})));
  for (uint64_t id = 10; id < 13; ++id) {
    REQUIRE(sim.submit(upsert(id, EntityKind::kNpc, {0.f, static_cast<float>(id), 0.f}, "chef")));
  }
  sim.tick();
  CHECK(sim.stats().plans == 1);
  sim.tick();
  CHECK(sim.stats().plans == 2);
  sim.tick();
  CHECK(sim.stats().plans == 3);
  for (uint64_t id = 10; id < 13; ++id) CHECK(describe(sim, id)["planner"]["searches"] == 1);
}

namespace {
uint64_t plan_clock_now = 0;
// Each reading advances 30 µs: a search between two readings takes exactly 30 µs.
uint64_t thirtyMicrosecondClock() { return plan_clock_now += 30'000; }
}  // namespace

TEST_CASE("every planner search is timed into the latency histogram", "[sim][planning][metrics]") {
  SimConfig config = chefConfig();
  config.max_plans_per_tick = 1;
  Simulation sim(config, chefArchetypes());
  sim.setPlanClock(&thirtyMicrosecondClock);
  REQUIRE(sim.loadPlannerDomains({{"chef.json", kChefDomain}}).ok());
  REQUIRE(sim.submit(knife(502, {3.f, 0.f, 0.f})));
  for (uint64_t id = 10; id < 12; ++id) {
    REQUIRE(sim.submit(upsert(id, EntityKind::kNpc, {0.f, static_cast<float>(id), 0.f}, "chef")));
  }
  CHECK(sim.stats().plan_latency.total == 0);
  sim.tick();
  sim.tick();
  const LatencyHistogram h = sim.stats().plan_latency;
  REQUIRE(sim.stats().plans == 2);
  CHECK(h.total == 2);
  CHECK(h.sum_ns == 60'000);
  // 30 µs lies in the bucket (25 µs, 50 µs].
  CHECK(h.counts[3] == 2);
  CHECK(LatencyHistogram::kBoundsNs[2] < 30'000);
  CHECK(LatencyHistogram::kBoundsNs[3] >= 30'000);
}

TEST_CASE("<Plan> and <ExecutePlan> drive the planner from a behavior tree", "[sim][planning][mbt]") {
  SECTION("every step succeeds: the tree goes on after ExecutePlan") {
    auto sim = chefWorld();
    REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));
    REQUIRE(sim->submit(upsert(20, EntityKind::kNpc, {0.f, 0.f, 0.f}, "tree_chef")));
    Game game{*sim, 20};
    game.run(20);
    REQUIRE(game.done.size() >= 4);
    CHECK(game.done[0] == "MoveTo");
    CHECK(game.done[1] == "TakeKnife");
    CHECK(game.done[2] == "Cook");
    CHECK(game.done[3] == "Celebrate");
    CHECK(game.count("Sulk") == 0);
  }
  SECTION("a failed step fails ExecutePlan") {
    auto sim = chefWorld();
    REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));
    REQUIRE(sim->submit(upsert(20, EntityKind::kNpc, {0.f, 0.f, 0.f}, "tree_chef")));
    Game game{*sim, 20};
    game.fail["TakeKnife"] = 1;
    game.run(20);
    // The tree falls through to Sulk; its root then starts over and plans again.
    REQUIRE(game.done.size() >= 3);
    CHECK(game.done[0] == "MoveTo");
    CHECK(game.done[1] == "TakeKnife");
    CHECK(game.done[2] == "Sulk");
  }
  SECTION("no plan: Plan fails (no knife anywhere)") {
    auto sim = chefWorld();
    REQUIRE(sim->submit(upsert(20, EntityKind::kNpc, {0.f, 0.f, 0.f}, "tree_chef")));
    Game game{*sim, 20};
    game.run(5);
    CHECK(game.count("Sulk") >= 1);
    CHECK(game.count("MoveTo") == 0);
    CHECK(game.count("Celebrate") == 0);
    const nlohmann::json planner = describe(*sim, 20)["planner"];
    CHECK(planner["plan"]["status"] == "no_plan");
    CHECK_THAT(planner["plan"]["why"].get<std::string>(), Catch::Contains("meal_ready"));
  }
}

}  // namespace npc

namespace npc {

TEST_CASE("planner statistics are counted while agents plan, saved and loaded again",
          "[sim][planning]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("npcd_stats_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    auto sim = std::make_unique<Simulation>(chefConfig(), chefArchetypes());
    REQUIRE(sim->loadPlannerDomains({{"chef.json", kChefDomain}}, dir.string()).ok());
    REQUIRE(sim->submit(knife(502, {3.f, 0.f, 0.f})));
    REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
    Game game{*sim, 10};
    game.fail["Cook"] = 1;
    game.run(30);
    REQUIRE(sim->savePlannerStatistics().isOk());
  }
  std::ifstream in(dir / "chef.stats.json");
  REQUIRE(in.good());
  const nlohmann::json stats = nlohmann::json::parse(in);
  CHECK(stats["domain"] == "chef");
  CHECK(stats["actions"]["TakeKnife"]["succeeded"] == 1);
  CHECK(stats["actions"]["Cook"]["failed"] == 1);
  CHECK(stats["actions"]["Cook"]["succeeded"].get<int>() >= 1);
  CHECK(stats["actions"]["Cook"]["conditions"][0]["evaluations"].get<int>() >= 1);
  // A daemon starting with that directory loads them (and re-orders conditions from them).
  Simulation again(chefConfig(), chefArchetypes());
  CHECK(again.loadPlannerDomains({{"chef.json", kChefDomain}}, dir.string()).ok());
  // A damaged file is refused, naming it.
  std::ofstream(dir / "chef.stats.json") << "{ not json";
  Simulation broken(chefConfig(), chefArchetypes());
  const DefinitionReport r = broken.loadPlannerDomains({{"chef.json", kChefDomain}}, dir.string());
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.text(), Catch::Contains("chef.stats.json"));
  std::filesystem::remove_all(dir);
}

}  // namespace npc

namespace npc {

TEST_CASE("a planning agent keeps its facts, blackboard and pacing while its place sleeps",
          "[sim][planning][hibernation]") {
  SimConfig config = chefConfig();
  config.hibernation.enabled = true;
  config.hibernation.quiet_s = 1.0;
  Simulation sim(config, chefArchetypes());
  REQUIRE(sim.world().addPlace("kitchen", Aabb{{-50.f, -50.f, -5.f}, {50.f, 50.f, 5.f}}));
  REQUIRE(sim.loadPlannerDomains({{"chef.json", kChefDomain}}).ok());
  REQUIRE(sim.submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
  REQUIRE(sim.submit({ClientId::kDaemon, 0, SetPlannerValue{EntityId{10}, "has_knife", "true", false, {}}}));
  REQUIRE(sim.submit({ClientId::kDaemon, 0, SetPlannerValue{EntityId{10}, "hungry", "false", true, {}}}));
  Game game{sim, 10};
  const PlaceIndex kitchen = sim.world().findPlace("kitchen");
  for (int i = 0; i < 100 && sim.placeState(kitchen) != PlaceState::kAsleep; ++i) game.tick();
  REQUIRE(sim.placeState(kitchen) == PlaceState::kAsleep);
  CHECK(describe(sim, 10)["asleep"] == true);
  std::string json;
  CHECK(sim.planTrace(EntityId{10}, "", std::nullopt, json).code() == StatusCode::kFailedPrecondition);

  SECTION("Should wake with it") {}
  SECTION("Should carry it over to domains reloaded while it sleeps") {
    REQUIRE(sim.loadPlannerDomains({{"chef.json", kChefDomain}}).ok());
  }
  REQUIRE(sim.submit({ClientId::kDaemon, 0, WakePlace{"kitchen", 0.0, {}}}));
  game.run(3);
  const nlohmann::json planner = describe(sim, 10)["planner"];
  CHECK_THAT(planner["facts"].get<std::string>(), Catch::Contains("has_knife=true"));
  // Still not hungry (blackboard kept): the fallback runs, no cooking.
  CHECK(game.count("Cook") == 0);
}

}  // namespace npc

namespace npc {

TEST_CASE("planner domains reload: a bad set is refused, a good one takes over with the facts",
          "[sim][planning][reload]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("npcd_goap_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "chef.json") << kChefDomain;
  Simulation sim(chefConfig(), chefArchetypes());
  sim.setDefinitionSources({"", dir.string(), "", ""});
  REQUIRE(sim.loadDefinitions(DefinitionLoad::kFirst).ok());
  CHECK_FALSE(sim.loadDefinitions(DefinitionLoad::kChanged).touched());  // nothing changed
  REQUIRE(sim.submit(knife(502, {3.f, 0.f, 0.f})));
  REQUIRE(sim.submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "chef")));
  REQUIRE(sim.submit({ClientId::kDaemon, 0, SetPlannerValue{EntityId{10}, "hungry", "false", true, {}}}));
  REQUIRE(sim.submit({ClientId::kDaemon, 0, SetPlannerValue{EntityId{10}, "has_knife", "true", false, {}}}));
  Game game{sim, 10};
  game.run(3);

  SECTION("a broken file is refused, naming it; the loaded domains keep running") {
    std::ofstream(dir / "chef.json") << R"({ "domain": "chef", "facts": [ { "name": 3 } ] })";
    const DefinitionReport r = sim.loadDefinitions(DefinitionLoad::kAll);
    CHECK_FALSE(r.ok());
    CHECK(r.refused == std::vector<std::string>{"planner domains"});
    CHECK_THAT(r.text(), Catch::Contains("chef.json"));
    CHECK(describe(sim, 10)["planner"]["domain"] == "chef");
    CHECK_THAT(describe(sim, 10)["planner"]["facts"].get<std::string>(), Catch::Contains("has_knife=true"));
  }
  SECTION("a changed domain replaces the old one; facts and blackboard carry over by name") {
    std::string changed = kChefDomain;
    const std::string cook = R"("effects": [ { "fact": "meal_ready", "set": true } ], "cost": 2 })";
    REQUIRE(changed.find(cook) != std::string::npos);
    changed.replace(changed.find(cook), cook.size(),
                    R"("effects": [ { "fact": "meal_ready", "set": true } ], "cost": 2,
                        "params": { "recipe": "stew" } })");
    std::ofstream(dir / "chef.json") << changed;
    const DefinitionReport r = sim.loadDefinitions(DefinitionLoad::kChanged);
    REQUIRE(r.touched());
    CHECK(r.ok());
    CHECK(r.loaded == std::vector<std::string>{"planner domains: 1 domains"});
    game.run(2);
    CHECK_THAT(describe(sim, 10)["planner"]["facts"].get<std::string>(), Catch::Contains("has_knife=true"));
    CHECK(game.count("Cook") == 0);  // still not hungry: the blackboard came along
    REQUIRE(sim.submit({ClientId::kDaemon, 0, SetPlannerValue{EntityId{10}, "hungry", "true", true, {}}}));
    game.run(5);
    CHECK(game.count("Cook") >= 1);   // the new domain plans (Cook alone: he has a knife)
    CHECK(game.count("TakeKnife") == 0);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace npc

namespace npc {
namespace {

// Two ways to arrive: Stride is cheaper until pacing makes a Stride just taken dearer.
constexpr const char* kWalkerDomain = R"({
  "domain": "walker",
  "goal_selection": { "retry_s": 0.2, "replan_cooldown_s": 0.1 },
  "facts": [ { "name": "arrived", "type": "bool" } ],
  "actions": [
    { "name": "Sidle", "effects": [ { "fact": "arrived", "set": true } ], "cost": 2 },
    { "name": "Stride", "effects": [ { "fact": "arrived", "set": true } ], "cost": 1,
      "pacing": { "tag": "stride", "agent_penalty": 5, "half_life_s": 1000 } } ],
  "goals": [ { "name": "Arrive", "priority": 1, "desired": [ { "fact": "arrived", "value": true } ] } ],
  "buckets": [ { "name": "Walk", "actions": ["Sidle", "Stride", "Hop"], "goals": ["Arrive"] } ]
})";

}  // namespace

TEST_CASE("a domain reload keeps pacing records by tag name", "[sim][planning][reload]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("npcd_pacing_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string walker = kWalkerDomain;
  const std::string no_hop = R"(["Sidle", "Stride", "Hop"])";
  walker.replace(walker.find(no_hop), no_hop.size(), R"(["Sidle", "Stride"])");
  std::ofstream(dir / "walker.json") << walker;
  // Traced, so that every plan is searched afresh (a reused plan would not see pacing).
  Simulation sim(chefConfig(), test::archetypesFrom(R"({ "walker": {
      "species": "human", "behavior": "Walk", "perception": { "vision": false, "hearing": false },
      "behaviors": { "Walk": { "mode": "plan" } },
      "planner": { "domain": "walker", "transient_facts": ["arrived"], "trace": true } } })"));
  sim.setDefinitionSources({"", dir.string(), "", ""});
  REQUIRE(sim.loadDefinitions(DefinitionLoad::kFirst).ok());
  REQUIRE(sim.submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "walker")));
  Game game{sim, 10};
  for (int i = 0; i < 50 && game.done.size() < 2; ++i) game.tick();
  // Stride first; then Sidle, the stride just taken costing 1 + 5.
  REQUIRE(game.done == std::vector<std::string>{"Stride", "Sidle"});

  // A new pacing tag ahead of "stride" renumbers it: the record must follow the name.
  const std::string first_action = R"("actions": [)";
  walker = kWalkerDomain;
  walker.replace(walker.find(first_action), first_action.size(), R"("actions": [
    { "name": "Hop", "effects": [ { "fact": "arrived", "set": true } ], "cost": 50,
      "pacing": { "tag": "hop", "agent_penalty": 1 } },)");
  std::ofstream(dir / "walker.json") << walker;
  const DefinitionReport r = sim.loadDefinitions(DefinitionLoad::kAll);
  INFO(r.text());
  REQUIRE(r.ok());
  for (int i = 0; i < 50 && game.done.size() < 4; ++i) game.tick();
  INFO(nlohmann::json(game.done).dump());
  REQUIRE(game.done.size() >= 4);
  CHECK(game.done[2] == "Sidle");  // the stride is still remembered: still dearer
  CHECK(game.done[3] == "Sidle");
  std::filesystem::remove_all(dir);
}

}  // namespace npc

namespace npc {

namespace {

// 60 chefs over 12 knives, the game playing every one of them: each action they were sent,
// tick by tick, as "tick agent intention name object".
std::vector<std::string> kitchenRun(unsigned threads, SimStats& stats) {
  SimConfig config = chefConfig();
  config.threads = threads;
  config.max_plans_per_tick = 25;
  Simulation sim(config, chefArchetypes());
  REQUIRE(sim.loadPlannerDomains({{"chef.json", kChefDomain}}).ok());
  for (uint64_t k = 0; k < 12; ++k) {
    REQUIRE(sim.submit(knife(500 + k, {static_cast<float>(k) * 5.f, 10.f, 0.f})));
  }
  for (uint64_t id = 10; id < 70; ++id) {
    const Vec3 at{static_cast<float>(id % 12) * 5.f + 1.f, 0.f, 0.f};
    REQUIRE(sim.submit(upsert(id, EntityKind::kNpc, at, "chef")));
  }
  std::vector<std::string> sent;
  for (int t = 1; t <= 40; ++t) {
    sim.tick();
    for (const ActionOut& a : sim.output().actions) {
      const std::string name = sim.names().name(a.name);
      uint64_t object = 0;
      for (uint8_t i = 0; i < a.param_count; ++i) {
        const ActionParam& p = a.params[i];
        if (p.type == ActionParam::Type::kPosition && name == "MoveTo") {
          REQUIRE(sim.submit(upsert(raw(a.agent), EntityKind::kNpc, p.position)));
        }
        if (p.type == ActionParam::Type::kEntity) object = raw(p.entity);
      }
      REQUIRE(sim.submit(test::result(raw(a.agent), a.intention, ActionOutcome::kCompleted)));
      sent.push_back(std::to_string(t) + " " + std::to_string(raw(a.agent)) + " " +
                     std::to_string(raw(a.intention)) + " " + name + " " + std::to_string(object));
    }
  }
  stats = sim.stats();
  return sent;
}

}  // namespace

TEST_CASE("the planning phase's searches on the pool give what they give on the tick thread",
          "[sim][planning][threads]") {
  SimStats one_stats, four_stats;
  const std::vector<std::string> one = kitchenRun(1, one_stats);
  const std::vector<std::string> four = kitchenRun(4, four_stats);
  // Every chef planned, 25 searches a tick at most: the pool had many at once.
  REQUIRE(one_stats.plans >= 60);
  const auto took = std::count_if(one.begin(), one.end(), [](const std::string& line) {
    return line.find(" TakeKnife 5") != std::string::npos;
  });
  CHECK(took >= 60);
  CHECK(four == one);
  CHECK(four_stats.plans == one_stats.plans);
  CHECK(four_stats.plans_failed == one_stats.plans_failed);
  CHECK(four_stats.plan_latency.total == one_stats.plan_latency.total);
}

namespace {

// Prepare, then salute: Salute goes near the target "me", the agent itself.
constexpr const char* kSaluteDomain = R"({
  "domain": "salute",
  "targets": ["me"],
  "facts": [ { "name": "prepared", "type": "bool" }, { "name": "saluted", "type": "bool" } ],
  "actions": [
    { "name": "Prepare", "pre": [ { "fact": "prepared", "value": false } ],
      "effects": [ { "fact": "prepared", "set": true } ], "cost": 1 },
    { "name": "Salute", "pre": [ { "fact": "prepared", "value": true } ],
      "effects": [ { "move_near": "me", "range": 1 }, { "fact": "saluted", "set": true } ],
      "cost": 1 }
  ],
  "goals": [ { "name": "Greet", "priority": 1, "desired": [ { "fact": "saluted", "value": true } ] } ],
  "buckets": [ { "name": "Parade", "actions": ["Prepare", "Salute"], "goals": ["Greet"] } ]
})";

constexpr const char* kSaluters = R"({
  "saluter": {
    "species": "human", "behavior": "Parade",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Parade": { "mode": "plan" } },
    "planner": { "domain": "salute", "targets": { "me": "self" } }
  }
})";

}  // namespace

TEST_CASE("a plan step acts on the target its own plan was searched for",
          "[sim][planning][targets]") {
  for (unsigned threads : {1u, 2u}) {
    SimConfig config = chefConfig();
    config.threads = threads;
    Simulation sim(config, test::archetypesFrom(kSaluters));
    const DefinitionReport r = sim.loadPlannerDomains({{"salute.json", kSaluteDomain}});
    INFO(r.text());
    REQUIRE(r.ok());
    // Agent 10 plans and prepares first; 11 spawns a tick later and searches while 10
    // still prepares (the game holds that result a tick), so 10's Salute is programmed
    // after another agent's search.
    REQUIRE(sim.submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "saluter")));
    std::map<uint64_t, uint64_t> saluted;  // agent -> its Salute's target
    std::vector<Command> held;
    for (int t = 1; t <= 8; ++t) {
      if (t == 2) REQUIRE(sim.submit(upsert(11, EntityKind::kNpc, {3.f, 0.f, 0.f}, "saluter")));
      sim.tick();
      for (Command& c : held) REQUIRE(sim.submit(std::move(c)));
      held.clear();
      for (const ActionOut& a : sim.output().actions) {
        if (t == 1) {
          held.push_back(test::result(raw(a.agent), a.intention, ActionOutcome::kCompleted));
          continue;
        }
        if (sim.names().name(a.name) == "Salute") {
          for (uint8_t i = 0; i < a.param_count; ++i) {
            if (sim.names().name(a.params[i].name) == "target") {
              saluted[raw(a.agent)] = raw(a.params[i].entity);
            }
          }
        }
        REQUIRE(sim.submit(test::result(raw(a.agent), a.intention, ActionOutcome::kCompleted)));
      }
    }
    INFO("threads " << threads);
    REQUIRE(saluted.size() == 2);
    CHECK(saluted[10] == 10);
    CHECK(saluted[11] == 11);
  }
}

}  // namespace npc
