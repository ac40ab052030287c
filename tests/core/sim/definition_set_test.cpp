// DefinitionSet: the demo's definitions copied to a scratch directory, loaded, edited and
// broken the way a designer does it while the daemon runs.
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "../../config_copy.h"
#include "agent/archetype_change.h"
#include "hibernation/long_action.h"
#include "sim/simulation.h"

namespace npc {
namespace {

namespace fs = std::filesystem;

// The copy's definitions in a simulation with its archetypes, sourced as the daemon does.
class DefinitionsCopy {
 public:
  DefinitionsCopy() : config_("defs") {
    ArchetypeSet archetypes;
    std::vector<std::string> errors;
    archetypes.loadDirectory(config_.path("archetypes"), errors);
    REQUIRE(errors.empty());
    sim_ = std::make_unique<Simulation>(SimConfig{}, std::move(archetypes));
    LongActionLibrary long_actions;
    REQUIRE(long_actions.loadFile(config_.path("long_actions.json"), errors));
    REQUIRE(sim_->setLongActions(std::move(long_actions)).empty());
    InfluenceSet influences;
    REQUIRE(influences.loadFile(config_.path("actions/influences.json"), errors));
    REQUIRE(sim_->setInfluences(influences).empty());
    sim_->setDefinitionSources({dir("behavior_trees"), dir("goap"), "", dir("selection_trees"),
                                dir("archetypes"), dir("long_actions.json"),
                                dir("actions/influences.json")});
  }

  std::string dir(const char* name) const { return config_.path(name); }
  Simulation& sim() { return *sim_; }
  DefinitionReport load(DefinitionLoad how) { return sim_->loadDefinitions(how); }
  void edit(const char* file, const std::string& from, const std::string& to) {
    config_.edit(file, from, to);
  }
  void write(const char* file, const std::string& text) { config_.write(file, text); }

 private:
  test::ConfigCopy config_;
  std::unique_ptr<Simulation> sim_;
};

size_t filesIn(const char* dir, const char* extension) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(std::string(NPCD_SOURCE_DIR "/config/") + dir)) {
    n += e.path().extension() == extension;
  }
  return n;
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

TEST_CASE("Definitions load in one order into one report", "[sim][definitions]") {
  DefinitionsCopy defs;
  const DefinitionReport r = defs.load(DefinitionLoad::kFirst);
  INFO(r.text());
  REQUIRE(r.ok());
  REQUIRE(r.warnings.empty());
  REQUIRE(r.loaded.size() == 3);
  CHECK(startsWith(r.loaded[0], "behavior trees: "));
  CHECK(startsWith(r.loaded[1], "planner domains: "));
  CHECK(startsWith(r.loaded[2], "selection trees: "));
  CHECK(r.behavior_trees == filesIn("behavior_trees", ".xml"));
  CHECK(r.planner_domains == filesIn("goap", ".json"));
  CHECK(r.selection_trees > 0);
  CHECK(r.refused.empty());
  // The poll: nothing changed, nothing read.
  CHECK_FALSE(defs.load(DefinitionLoad::kChanged).touched());
}

TEST_CASE("A broken file is refused for its kind alone and named once", "[sim][definitions]") {
  DefinitionsCopy defs;
  REQUIRE(defs.load(DefinitionLoad::kFirst).ok());
  defs.edit("behavior_trees/GuardCombat.xml", "<Sequence>", "<Sequenc>");
  defs.edit("selection_trees/Grunt.xml", "</", "<!-- edited -->\n</");

  const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
  CHECK(r.refused == std::vector<std::string>{"behavior trees"});
  REQUIRE(r.loaded.size() == 1);
  CHECK(startsWith(r.loaded[0], "selection trees: "));
  // One cause, one message: the archetypes running GuardCombat do not add "not loaded".
  REQUIRE(r.errors.size() == 1);
  CHECK(startsWith(r.errors[0], "behavior_trees/GuardCombat.xml:"));
  CHECK(r.text().find("not loaded") == std::string::npos);
  // The running set stays, and is not read again until its files change.
  CHECK(defs.sim().behaviorTrees().findTree("GuardCombat") != nullptr);
  CHECK_FALSE(defs.load(DefinitionLoad::kChanged).touched());

  defs.edit("behavior_trees/GuardCombat.xml", "<Sequenc>", "<Sequence>");
  const DefinitionReport fixed = defs.load(DefinitionLoad::kChanged);
  INFO(fixed.text());
  CHECK(fixed.ok());
  CHECK(fixed.loaded.size() == 1);
  CHECK(startsWith(fixed.loaded[0], "behavior trees: "));
}

TEST_CASE("At start a broken tree file leaves its kind's healthy trees running", "[sim][definitions]") {
  DefinitionsCopy defs;
  defs.edit("behavior_trees/GuardCombat.xml", "<Sequence>", "<Sequenc>");
  const DefinitionReport r = defs.load(DefinitionLoad::kFirst);
  CHECK(r.refused.empty());
  CHECK(r.loaded.size() == 3);  // the archetypes came with the simulation
  CHECK(r.behavior_trees == filesIn("behavior_trees", ".xml") - 1);
  REQUIRE(r.errors.size() == 1);
  CHECK(startsWith(r.errors[0], "behavior_trees/GuardCombat.xml:"));
}

TEST_CASE("ReloadDefinitions reads every kind again and answers with the report",
          "[sim][definitions]") {
  DefinitionsCopy defs;
  REQUIRE(defs.load(DefinitionLoad::kFirst).ok());
  defs.edit("goap/guard.json", "\"domain\"", "\"domian\"");
  Status status;
  std::string text;
  bool replied = false;
  REQUIRE(defs.sim().submit({ClientId::kDaemon, 0, ReloadDefinitions{[&](const Status& s, const std::string& t) {
                               replied = true;
                               status = s;
                               text = t;
                             }}}));
  defs.sim().tick();
  REQUIRE(replied);
  CHECK(status.code() == StatusCode::kInvalidArgument);
  CHECK(startsWith(text, "goap/guard.json"));
  CHECK(text.find("domian") != std::string::npos);
}

TEST_CASE("Definition directories: planner domains at the top level, a missing one refused",
          "[sim][definitions]") {
  DefinitionsCopy defs;
  // Statistics or notes below the domain directory are not domains.
  defs.write("goap/stats/notes.json", "{ not a domain");
  const DefinitionReport r = defs.load(DefinitionLoad::kFirst);
  INFO(r.text());
  CHECK(r.ok());

  Simulation bare(SimConfig{}, ArchetypeSet{});
  bare.setDefinitionSources({defs.dir("no_such_dir"), "", "", ""});
  const DefinitionReport missing = bare.loadDefinitions(DefinitionLoad::kFirst);
  CHECK(missing.refused == std::vector<std::string>{"behavior trees"});
  CHECK(missing.errors == std::vector<std::string>{defs.dir("no_such_dir") + ": not a directory"});
}

namespace {

// An agent as GetAgent shows it.
nlohmann::json describe(Simulation& sim, uint64_t id) {
  std::string json;
  REQUIRE(sim.describeAgent(EntityId{id}, json).isOk());
  return nlohmann::json::parse(json);
}

// A guard spawned and ticked once; its sensors as GetAgent shows them.
nlohmann::json guardSensors(Simulation& sim, uint64_t id) {
  return describe(sim, id)["perception"]["sensors"];
}

void spawn(Simulation& sim, uint64_t id, const char* archetype = "guard") {
  EntityState s;
  s.id = EntityId{id};
  s.kind = EntityKind::kNpc;
  s.archetype = archetype;
  s.position = Vec3{0.f, 0.f, 0.f};
  REQUIRE(sim.submit({ClientId::kDaemon, 0, UpsertEntity{s}}));
}

}  // namespace

TEST_CASE("Archetype edits that can change live reload; the others are refused by name",
          "[sim][definitions][archetypes]") {
  DefinitionsCopy defs;
  REQUIRE(defs.load(DefinitionLoad::kFirst).ok());
  spawn(defs.sim(), 900);
  spawn(defs.sim(), 901);
  REQUIRE(defs.sim().submit(
      {ClientId::kDaemon, 0, SetSensors{EntityId{901}, {}, {}, {}, 12.f, {}, {}, {}}}));
  defs.sim().tick();
  REQUIRE(guardSensors(defs.sim(), 900)["sight_range_m"] == 30.0);
  CHECK_FALSE(defs.load(DefinitionLoad::kChanged).touched());

  SECTION("sensors: agents running the archetype see farther at once") {
    defs.edit("archetypes/village.json", "\"sight_range_m\": 30", "\"sight_range_m\": 61");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    INFO(r.text());
    CHECK(r.ok());
    CHECK(r.loaded == std::vector<std::string>{"archetypes: guard (sensors, 2 awake agents)"});
    CHECK(guardSensors(defs.sim(), 900)["sight_range_m"] == 61.0);
    CHECK(guardSensors(defs.sim(), 900)["fov_deg"] == 120.0);
    // The game switched this one's range: it keeps it.
    CHECK(guardSensors(defs.sim(), 901)["sight_range_m"] == 12.0);
    // A guard spawned from now on starts with the new range.
    spawn(defs.sim(), 902);
    defs.sim().tick();
    CHECK(guardSensors(defs.sim(), 902)["sight_range_m"] == 61.0);
  }
  SECTION("rewiring is refused, naming the file, the archetype and what needs a restart") {
    defs.edit("archetypes/village.json", "\"selection_tree\": \"Grunt\"", "\"selection_tree\": \"Villager\"");
    defs.edit("archetypes/village.json", "\"sight_range_m\": 30", "\"sight_range_m\": 61");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    CHECK(r.refused == std::vector<std::string>{"archetypes"});
    CHECK(r.errors == std::vector<std::string>{
                          "archetypes/village.json: archetype \"guard\": selection_tree changed: "
                          "that takes a restart"});
    CHECK(guardSensors(defs.sim(), 900)["sight_range_m"] == 30.0);  // nothing of it applied
  }
  SECTION("a renamed archetype is one gone and one new") {
    defs.edit("archetypes/village.json", "\"guard\": {", "\"watchman\": {");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    CHECK(r.refused == std::vector<std::string>{"archetypes"});
    REQUIRE(r.errors.size() == 2);
    CHECK(r.errors[0] == "archetypes/village.json: archetype \"guard\" is gone: removing an "
                         "archetype takes a restart");
    CHECK(r.errors[1] == "archetypes/village.json: archetype \"watchman\" is new: adding an "
                         "archetype takes a restart");
  }
}

TEST_CASE("compareArchetypes sorts changes into live and restart", "[definitions][archetypes]") {
  Archetype was;
  was.name = "guard";
  was.behaviors.push_back({"Patrol", BehaviorMode::kWander, "", 1.f, 2.f, 0.f, {}, "", ""});
  Archetype now = was;
  CHECK_FALSE(compareArchetypes(was, now).any());
  now.behaviors[0].speed_mps = 3.f;
  now.wander.radius_m = 2.f;
  CHECK(compareArchetypes(was, now).live == std::vector<std::string>{"wander", "behavior timings"});
  CHECK(compareArchetypes(was, now).restart.empty());
  now.behaviors[0].tree = "Patrol";
  CHECK(compareArchetypes(was, now).live == std::vector<std::string>{"wander"});
  CHECK(compareArchetypes(was, now).restart == std::vector<std::string>{"behaviors"});
}

TEST_CASE("Long action edits reload live; work in progress carries on",
          "[sim][definitions][long_actions]") {
  DefinitionsCopy defs;
  REQUIRE(defs.load(DefinitionLoad::kFirst).ok());
  spawn(defs.sim(), 910, "baker");
  // 38 s: the baker started within the first ticks, so 3 turns of 10 s are done (not yet
  // settled: nothing settles until the work stops) and 7-8 s of the 4th.
  for (int i = 0; i < 380; ++i) defs.sim().tick();
  REQUIRE(describe(defs.sim(), 910)["work"]["action"] == "ContinuousBaking");
  REQUIRE(describe(defs.sim(), 910)["work"]["turns_pending"] == 3);
  CHECK_FALSE(defs.load(DefinitionLoad::kChanged).touched());

  SECTION("a shorter turn: the work done settles under the old one, the rest runs on the new") {
    defs.edit("long_actions.json", "\"turn_s\": 10", "\"turn_s\": 5");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    INFO(r.text());
    REQUIRE(r.ok());
    CHECK(r.loaded == std::vector<std::string>{
                          "long actions: 2 actions (changed: ContinuousBaking; new: none; 1 "
                          "agents' work settled under the old definition)"});
    nlohmann::json j = describe(defs.sim(), 910);
    CHECK(j["work"]["turns_settled"] == 3);  // every 3 turns: one batch
    CHECK(j["inventory"]["bread"] == 2);
    CHECK(j["inventory"]["flour"] == 398);
    // The 7-8 s of the 4th turn count in 5 s turns now: the 4th is complete, the 5th ends
    // 2-3 s later.
    CHECK(j["work"]["turns_pending"] == 1);
    for (int i = 0; i < 30; ++i) defs.sim().tick();
    CHECK(describe(defs.sim(), 910)["work"]["turns_pending"] == 2);
  }
  SECTION("an action someone runs cannot go: refused, naming the file and the agent") {
    defs.edit("long_actions.json", "\"ContinuousBaking\": {", "\"Baking\": {");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    CHECK(r.refused == std::vector<std::string>{"long actions"});
    const std::string file = defs.dir("long_actions.json");
    CHECK(r.errors.size() == 3);  // the baker's two behaviors, and the baker himself
    CHECK_THAT(r.text(), Catch::Contains(file + ": archetype \"baker\": behavior \"Work\": "
                                                "\"ContinuousBaking\" is not a known long action"));
    CHECK_THAT(r.text(), Catch::Contains(file + ": long action \"ContinuousBaking\" is missing, "
                                                "but 1 agent(s) are running it (first: 910)"));
    // Nothing of it applied: the baker bakes on, nothing settled early.
    CHECK(describe(defs.sim(), 910)["work"]["action"] == "ContinuousBaking");
    CHECK(describe(defs.sim(), 910)["work"]["turns_pending"] == 3);
  }
  SECTION("a broken file is refused with its line; the running set stays") {
    defs.edit("long_actions.json", "\"turn_s\": 10", "\"turn_s\": -10");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    CHECK(r.refused == std::vector<std::string>{"long actions"});
    REQUIRE_FALSE(r.errors.empty());
    CHECK_THAT(r.errors[0], Catch::StartsWith(defs.dir("long_actions.json") + ":4:15: /ContinuousBaking/turn_s"));
    CHECK(describe(defs.sim(), 910)["work"]["turns_pending"] == 3);
  }
}

}  // namespace npc

namespace npc {

TEST_CASE("Influence edits reload live; agents under them keep them",
          "[sim][definitions][influences]") {
  DefinitionsCopy defs;
  REQUIRE(defs.load(DefinitionLoad::kFirst).ok());
  Simulation& sim = defs.sim();
  spawn(sim, 920, "villager");
  REQUIRE(sim.submit({ClientId::kDaemon, 0, AddInfluence{EntityId{920}, "spell:levitate", {}}}));
  REQUIRE(sim.submit({ClientId::kDaemon, 0, AddInfluence{EntityId{920}, "vehicle:cart", {}}}));
  sim.tick();
  auto influences = [&] { return describe(sim, 920)["influences"]; };
  REQUIRE(influences().size() == 2);
  REQUIRE(influences()[0]["name"] == "spell:levitate");  // priority 10 before 1
  auto program = [&](const char* action) {
    Status got{StatusCode::kUnavailable, "no reply"};
    REQUIRE(sim.submit({ClientId::kDaemon, 0,
                        ProgramIntention{EntityId{920}, action, 0.0, {}, IntentionId::kNone,
                                         [&](const Status& s, IntentionId) { got = s; }}}));
    sim.tick();
    return got;
  };
  REQUIRE(program("Glide").code() == StatusCode::kNotFound);
  CHECK_FALSE(defs.load(DefinitionLoad::kChanged).touched());

  SECTION("a new action and a new priority take effect for the agents under it") {
    defs.edit("actions/influences.json", "\"Fly\":  { \"side\": \"client\", \"timeout_s\": 30 }",
              "\"Fly\":  { \"side\": \"client\", \"timeout_s\": 30 },\n"
              "      \"Glide\": { \"side\": \"client\", \"timeout_s\": 30 }");
    defs.edit("actions/influences.json", "\"priority\": 1,", "\"priority\": 20,");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    INFO(r.text());
    REQUIRE(r.ok());
    CHECK(r.loaded == std::vector<std::string>{
                          "influences: 3 influences (changed: spell:levitate, vehicle:cart; new: "
                          "none; 1 agents under a new priority)"});
    CHECK(program("Glide").isOk());
    CHECK(program("Fly").isOk());
    REQUIRE(influences().size() == 2);
    CHECK(influences()[0]["name"] == "vehicle:cart");  // 20 now, before levitate's 10
    CHECK(influences()[0]["priority"] == 20);
  }
  SECTION("a new influence can be put on agents at once") {
    defs.edit("actions/influences.json", "\"vehicle:cart\": {",
              "\"vehicle:boat\": { \"actions\": { \"Row\": { \"side\": \"client\" } } },\n"
              "  \"vehicle:cart\": {");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    INFO(r.text());
    REQUIRE(r.ok());
    CHECK_THAT(r.loaded.at(0), Catch::Contains("new: vehicle:boat"));
    REQUIRE(sim.submit({ClientId::kDaemon, 0, AddInfluence{EntityId{920}, "vehicle:boat", {}}}));
    CHECK(program("Row").isOk());
  }
  SECTION("removing one is refused, naming the file; nothing of the set applies") {
    defs.edit("actions/influences.json", "\"spell:levitate\"", "\"spell:hover\"");
    const DefinitionReport r = defs.load(DefinitionLoad::kChanged);
    CHECK(r.refused == std::vector<std::string>{"influences"});
    CHECK(r.errors == std::vector<std::string>{
                          defs.dir("actions/influences.json") +
                          ": influence \"spell:levitate\" is gone: removing an influence takes a "
                          "restart (agents may be under it)"});
    CHECK(influences()[0]["name"] == "spell:levitate");
    CHECK(program("Glide").code() == StatusCode::kNotFound);
  }
}

}  // namespace npc
