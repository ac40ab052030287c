// Several planners per agent (seed 003: the ships of Assassin's Creed Odyssey ran one planner
// for movement patterns and one for attacks, planning independently and talking through the
// blackboard they shared): an archetype's "planners", each with its own domain, facts and
// plan, one blackboard and pacing memory for all, through the running simulation.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "planning_game.h"
#include "sim_fixture.h"

namespace npc {
namespace {

using test::describe;
using test::Game;
using test::upsert;

// The movement planner: gets into position and says so on the shared blackboard.
constexpr const char* kMoverDomain = R"({
  "domain": "mover",
  "goal_selection": { "retry_s": 0.5, "replan_cooldown_s": 0.2 },
  "blackboard": { "in_position": "bool" },
  "facts": [ { "name": "positioned", "type": "bool" }, { "name": "alert", "type": "bool" } ],
  "actions": [
    { "name": "Approach", "pre": [ { "blackboard": "in_position", "value": false } ],
      "effects": [ { "fact": "positioned", "set": true } ], "cost": 1,
      "pacing": { "tag": "footwork", "agent_penalty": 1 },
      "on_success": [ { "blackboard": "in_position", "set": true } ] } ],
  "goals": [ { "name": "GetInPosition", "priority": 1, "desired": [ { "fact": "positioned", "value": true } ],
               "relevant": [ { "blackboard": "in_position", "value": false } ] } ],
  "buckets": [ { "name": "Fight", "actions": ["Approach"], "goals": ["GetInPosition"] } ]
})";

// The attack planner: strikes only from a position the mover reached, which it uses up.
constexpr const char* kStrikerDomain = R"({
  "domain": "striker",
  "goal_selection": { "retry_s": 0.5, "replan_cooldown_s": 0.2 },
  "blackboard": { "in_position": "bool" },
  "facts": [ { "name": "struck", "type": "bool" }, { "name": "alert", "type": "bool" } ],
  "actions": [
    { "name": "Strike", "pre": [ { "blackboard": "in_position", "value": true } ],
      "effects": [ { "fact": "struck", "set": true } ], "cost": 1,
      "on_success": [ { "blackboard": "in_position", "set": false } ] } ],
  "goals": [ { "name": "Hit", "priority": 1, "desired": [ { "fact": "struck", "value": true } ],
               "relevant": [ { "blackboard": "in_position", "value": true } ] } ],
  "buckets": [ { "name": "Fight", "actions": ["Strike"], "goals": ["Hit"] },
               { "name": "Drill", "actions": ["Strike"], "goals": ["Hit"] } ]
})";

// One archetype per behavior: Fight runs both planners, Drill only the one with that bucket,
// Tree drives them from a behavior tree.
constexpr const char* kArchetypes = R"({
  "duelist": {
    "species": "human", "behavior": "Fight",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Fight": { "mode": "plan" } },
    "planners": [
      { "name": "footwork", "domain": "mover", "transient_facts": ["positioned"],
        "blackboard": { "in_position": false } },
      { "name": "attack", "domain": "striker", "transient_facts": ["struck"] } ]
  },
  "driller": {
    "species": "human", "behavior": "Drill",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Drill": { "mode": "plan" } },
    "planners": [
      { "name": "footwork", "domain": "mover", "transient_facts": ["positioned"] },
      { "name": "attack", "domain": "striker", "transient_facts": ["struck"] } ]
  },
  "fencer": {
    "species": "human", "behavior": "Tree",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Tree": { "tree": "DuelTree" } },
    "actions": { "Bow": { "side": "client" }, "Done": { "side": "client" }, "Sulk": { "side": "client" } },
    "planners": [
      { "name": "footwork", "domain": "mover", "transient_facts": ["positioned"] },
      { "name": "attack", "domain": "striker", "transient_facts": ["struck"] } ]
  }
})";

// The tree drives the attack planner by name, then the first (footwork) without one.
constexpr const char* kDuelTree = R"(<BehaviorTree><Root>
  <Sequence>
    <Plan planner="attack" goal="Hit"/>
    <ExecutePlan planner="attack"/>
    <Action name="Bow"/>
    <Plan/>
    <ExecutePlan/>
    <Action name="Done"/>
  </Sequence>
</Root></BehaviorTree>)";

ArchetypeSet duelistArchetypes(const char* text = kArchetypes) { return test::archetypesFrom(text); }

SimConfig duelConfig() { return test::planningConfig(); }

std::vector<std::pair<std::string, std::string>> duelDomains() {
  return {{"mover.json", kMoverDomain}, {"striker.json", kStrikerDomain}};
}

std::unique_ptr<Simulation> duelWorld(SimConfig config = duelConfig()) {
  auto sim = std::make_unique<Simulation>(config, duelistArchetypes());
  REQUIRE(sim->loadBehaviorTrees({{"DuelTree.xml", kDuelTree}}).ok());
  const DefinitionReport r = sim->loadPlannerDomains(duelDomains());
  INFO(r.text());
  REQUIRE(r.ok());
  return sim;
}

Command setValue(uint64_t agent, std::string name, std::string value, bool blackboard,
                 std::string planner = {}) {
  SetPlannerValue c{EntityId{agent}, std::move(name), std::move(value), blackboard, {}, std::move(planner)};
  return {ClientId::kDaemon, 0, std::move(c)};
}

Status setValueNow(Simulation& sim, SetPlannerValue c) {
  Status got{StatusCode::kUnavailable, "no reply"};
  c.reply = [&got](const Status& s) { got = s; };
  REQUIRE(sim.submit({ClientId::kDaemon, 0, std::move(c)}));
  sim.tick();
  REQUIRE(got.message() != "no reply");
  return got;
}

std::string errorsOf(const char* archetypes) {
  ArchetypeSet set;
  JsonReader reader("archetypes.json");
  set.loadObject(nlohmann::json::parse(archetypes), reader);
  std::string all;
  for (const std::string& e : reader.errors()) all += e + "\n";
  return all;
}

}  // namespace

TEST_CASE("archetype files check the planners list", "[sim][planning][planners]") {
  CHECK_THAT(errorsOf(R"({ "a": { "species": "human", "planner": { "domain": "x" },
                                   "planners": [ { "name": "p", "domain": "y" } ] } })"),
             Catch::Contains("archetypes.json: /a/planners: an archetype has \"planner\" or \"planners\", not both"));
  CHECK_THAT(errorsOf(R"({ "a": { "species": "human", "planners": [] } })"),
             Catch::Contains("archetypes.json: /a/planners: must have at least 1 items"));
  CHECK_THAT(errorsOf(R"({ "a": { "species": "human", "planners": [
               { "name": "a", "domain": "x" }, { "name": "b", "domain": "x" }, { "name": "c", "domain": "x" },
               { "name": "d", "domain": "x" }, { "name": "e", "domain": "x" } ] } })"),
             Catch::Contains("archetypes.json: /a/planners: must have at most 4 items"));
  CHECK(errorsOf(R"({ "a": { "species": "human", "planners": [
      { "name": "p", "domain": "x" }, { "name": "p", "domain": "y" } ] } })") ==
        "archetypes.json: /a/planners/1/name: planner \"p\" is named twice\n");
  CHECK(errorsOf(R"({ "a": { "species": "human", "planners": [
      { "name": "p", "domain": "x" }, { "domain": "z" },
      { "name": "q", "domain": "x", "colour": 1 } ] } })") ==
        "archetypes.json: /a/planners/2/colour: unknown key\n"
        "archetypes.json: /a/planners/1: missing required key \"name\"\n");
  CHECK(errorsOf(R"({ "a": { "species": "human", "behaviors": { "W": { "mode": "plan" } },
                            "planners": [ { "name": "p", "domain": "x" } ] } })") == "");
}

TEST_CASE("a behavior plans only where one of the planners has its bucket", "[sim][planning][planners]") {
  const char* archetypes = R"({ "a": { "species": "human", "behavior": "Rest",
      "behaviors": { "Rest": { "mode": "plan" } },
      "planners": [ { "name": "footwork", "domain": "mover" }, { "name": "attack", "domain": "striker",
                      "transient_facts": ["nothing"] } ] } })";
  Simulation sim(duelConfig(), duelistArchetypes(archetypes));
  const DefinitionReport r = sim.loadPlannerDomains(duelDomains());
  CHECK_FALSE(r.ok());
  CHECK_THAT(r.text(), Catch::Contains("archetype \"a\": planners: behavior \"Rest\": none of the domains "
                                       "\"mover\", \"striker\" has bucket \"Rest\""));
  CHECK_THAT(r.text(), Catch::Contains("archetype \"a\": planners: attack: transient_facts: domain "
                                       "\"striker\" has no fact \"nothing\""));
}

TEST_CASE("two planners of one agent take turns through their shared blackboard", "[sim][planning][planners]") {
  auto sim = duelWorld();
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "duelist")));
  Game game{*sim, 10};
  game.run(40);
  INFO(nlohmann::json(game.done).dump());
  // The striker has no goal until the mover's step writes in_position; its strike uses the
  // position up, so the mover goes again: they alternate, neither ever runs twice in a row.
  REQUIRE(game.done.size() >= 4);
  for (size_t i = 0; i < game.done.size(); ++i) {
    CHECK(game.done[i] == (i % 2 == 0 ? "Approach" : "Strike"));
  }
  const nlohmann::json view = describe(*sim, 10);
  INFO(view.dump());
  REQUIRE(view["planners"].size() == 2);
  CHECK(view["planners"][0]["name"] == "footwork");
  CHECK(view["planners"][0]["domain"] == "mover");
  CHECK(view["planners"][1]["name"] == "attack");
  CHECK(view["planners"][1]["domain"] == "striker");
  CHECK(view["planner"] == view["planners"][0]);  // "planner": the first, as for one planner
  CHECK(view["planners"][0]["searches"].get<int>() >= 2);
  CHECK(view["planners"][1]["searches"].get<int>() >= 2);
}

TEST_CASE("a behavior runs only the planners whose domain has its bucket", "[sim][planning][planners]") {
  auto sim = duelWorld();
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "driller")));
  REQUIRE(sim->submit(setValue(10, "in_position", "true", true)));
  Game game{*sim, 10};
  game.run(30);
  INFO(nlohmann::json(game.done).dump());
  // Only the striker has a "Drill" bucket: it strikes once, and nobody gets into position.
  CHECK(game.count("Strike") == 1);
  CHECK(game.count("Approach") == 0);
  CHECK(describe(*sim, 10)["planners"][0]["searches"] == 0);
}

TEST_CASE("SetPlannerValue and GetPlanTrace name one of several planners", "[sim][planning][planners]") {
  auto sim = duelWorld();
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "duelist")));
  sim->tick();
  auto facts = [&](int i) { return describe(*sim, 10)["planners"][i]["facts"].get<std::string>(); };

  // A fact both domains have is a belief of both; a name narrows it to one planner.
  CHECK(setValueNow(*sim, {EntityId{10}, "alert", "true", false, {}, {}}).isOk());
  CHECK_THAT(facts(0), Catch::Contains("alert=true"));
  CHECK_THAT(facts(1), Catch::Contains("alert=true"));
  CHECK(setValueNow(*sim, {EntityId{10}, "alert", "false", false, {}, "attack"}).isOk());
  CHECK_THAT(facts(0), Catch::Contains("alert=true"));
  CHECK_THAT(facts(1), Catch::Contains("alert=false"));
  const Status wrong = setValueNow(*sim, {EntityId{10}, "positioned", "true", false, {}, "attack"});
  CHECK(wrong.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(wrong.message(), Catch::Contains("domain \"striker\" has no fact \"positioned\""));
  const Status nobody = setValueNow(*sim, {EntityId{10}, "ammo", "3", false, {}, {}});
  CHECK_THAT(nobody.message(), Catch::Contains("domain \"mover\", \"striker\" has no fact \"ammo\""));
  const Status unknown = setValueNow(*sim, {EntityId{10}, "alert", "true", false, {}, "helm"});
  CHECK(unknown.code() == StatusCode::kNotFound);
  CHECK(unknown.message() == "planner: archetype \"duelist\" has no planner \"helm\"");

  std::string json;
  REQUIRE(sim->planTrace(EntityId{10}, "attack", true, json).isOk());
  REQUIRE(sim->submit(setValue(10, "in_position", "true", true)));
  Game game{*sim, 10};
  game.run(5);
  REQUIRE(sim->planTrace(EntityId{10}, "attack", std::nullopt, json).isOk());
  const nlohmann::json attack = nlohmann::json::parse(json);
  CHECK(attack["planner"]["name"] == "attack");
  CHECK(attack["traced"] == true);
  REQUIRE(attack["trace"].is_object());
  REQUIRE(sim->planTrace(EntityId{10}, "footwork", std::nullopt, json).isOk());
  const nlohmann::json footwork = nlohmann::json::parse(json);
  CHECK(footwork["traced"] == false);   // tracing is per planner
  CHECK(footwork["trace"].is_null());
  CHECK(sim->planTrace(EntityId{10}, "helm", std::nullopt, json).code() == StatusCode::kNotFound);
}

TEST_CASE("<Plan planner=...> drives one planner of several from a tree", "[sim][planning][planners][mbt]") {
  auto sim = duelWorld();
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "fencer")));
  REQUIRE(sim->submit(setValue(10, "in_position", "true", true)));
  Game game{*sim, 10};
  game.run(20);
  // The attack planner strikes (using the position up), then the footwork planner, driven
  // without a name, approaches (writing it again); the tree starts over.
  INFO(nlohmann::json(game.done).dump());
  const std::vector<std::string> round{"Strike", "Bow", "Approach", "Done"};
  REQUIRE(game.done.size() >= round.size());
  for (size_t i = 0; i < game.done.size(); ++i) CHECK(game.done[i] == round[i % round.size()]);
}

TEST_CASE("an unknown planner name in a tree fails the node and says why", "[sim][planning][planners][mbt]") {
  auto sim = std::make_unique<Simulation>(duelConfig(), duelistArchetypes());
  REQUIRE(sim->loadBehaviorTrees({{"DuelTree.xml", R"(<BehaviorTree><Root><Selector>
      <Plan planner="helm"/><Action name="Sulk"/></Selector></Root></BehaviorTree>)"}}).ok());
  REQUIRE(sim->loadPlannerDomains(duelDomains()).ok());
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "fencer")));
  bool said = false;
  Game game{*sim, 10};
  for (int i = 0; i < 5; ++i) {
    game.tick();
    for (const EventOut& e : sim->output().events) {
      said = said || (e.kind == EventKind::kError &&
                      e.text == "planner: archetype \"fencer\" has no planner \"helm\"");
    }
  }
  CHECK(said);
  CHECK(game.count("Sulk") >= 1);
  CHECK(game.done.size() == static_cast<size_t>(game.count("Sulk")));
}

TEST_CASE("several planners keep their facts and the shared blackboard while asleep",
          "[sim][planning][planners][hibernation]") {
  SimConfig config = duelConfig();
  config.hibernation.enabled = true;
  config.hibernation.quiet_s = 1.0;
  auto sim = duelWorld(config);
  REQUIRE(sim->world().addPlace("yard", Aabb{{-50.f, -50.f, -5.f}, {50.f, 50.f, 5.f}}));
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "driller")));
  REQUIRE(sim->submit(setValue(10, "alert", "true", false, "footwork")));
  REQUIRE(sim->submit(setValue(10, "in_position", "true", true)));
  Game game{*sim, 10};
  const PlaceIndex yard = sim->world().findPlace("yard");
  for (int i = 0; i < 100 && sim->placeState(yard) != PlaceState::kAsleep; ++i) game.tick();
  REQUIRE(sim->placeState(yard) == PlaceState::kAsleep);
  REQUIRE(game.count("Strike") == 1);  // the drill used the position up

  REQUIRE(sim->submit({ClientId::kDaemon, 0, WakePlace{"yard", 0.0, {}}}));
  game.run(3);
  const nlohmann::json view = describe(*sim, 10);
  INFO(view.dump());
  CHECK_THAT(view["planners"][0]["facts"].get<std::string>(), Catch::Contains("alert=true"));
  CHECK_THAT(view["planners"][1]["facts"].get<std::string>(), Catch::Contains("alert=false"));
  CHECK(game.count("Strike") == 1);  // still out of position: the blackboard came back too
}

TEST_CASE("a domain reload carries each planner's facts, the blackboard and pacing by name",
          "[sim][planning][planners][reload]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("npcd_planners_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "mover.json") << kMoverDomain;
  std::ofstream(dir / "striker.json") << kStrikerDomain;
  auto sim = std::make_unique<Simulation>(duelConfig(), duelistArchetypes());
  sim->setDefinitionSources({"", dir.string(), "", ""});
  REQUIRE(sim->loadDefinitions(DefinitionLoad::kFirst).ok());
  REQUIRE(sim->submit(upsert(10, EntityKind::kNpc, {0.f, 0.f, 0.f}, "driller")));
  REQUIRE(sim->submit(setValue(10, "alert", "true", false, "attack")));
  Game game{*sim, 10};
  game.run(3);

  // A new fact ahead of "alert" moves its bit: the value must follow the name.
  std::string striker = kStrikerDomain;
  const std::string facts = R"("facts": [ { "name": "struck")";
  REQUIRE(striker.find(facts) != std::string::npos);
  striker.replace(striker.find(facts), facts.size(),
                  R"("facts": [ { "name": "tired", "type": "bool" }, { "name": "struck")");
  std::ofstream(dir / "striker.json") << striker;
  const DefinitionReport r = sim->loadDefinitions(DefinitionLoad::kAll);
  INFO(r.text());
  REQUIRE(r.ok());
  REQUIRE(sim->submit(setValue(10, "in_position", "true", true)));
  game.run(3);
  const nlohmann::json view = describe(*sim, 10);
  CHECK_THAT(view["planners"][1]["facts"].get<std::string>(), Catch::Contains("tired=false"));
  CHECK_THAT(view["planners"][1]["facts"].get<std::string>(), Catch::Contains("alert=true"));
  CHECK_THAT(view["planners"][0]["facts"].get<std::string>(), Catch::Contains("alert=false"));
  CHECK(game.count("Strike") == 1);  // the reloaded striker plans on the shared blackboard
  std::filesystem::remove_all(dir);
}

}  // namespace npc
