// Snapshot capture in two halves (state/sim_state_copy.h): the tick thread copies plain
// rows, another thread builds the messages from them. The file must be the one the
// messages built straight from the simulation give (direct_capture.h), byte for byte.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "allocation_counter.h"
#include "base/json_reader.h"
#include "demo_state_world.h"
#include "direct_capture.h"
#include "goap_codec.h"
#include "sim/scale_world.h"
#include "sim/sim_state_access.h"
#include "sim_state_codec.h"
#include "sim_state_copy.h"
#include "snapshot_file.h"

using namespace npc;

namespace {

SnapshotInfo info() {
  SnapshotInfo i;
  i.definitions_hash = "definitions";
  i.world_seed = 7;
  i.sim_time_s = 12.5;
  return i;
}

std::string directBytes(Simulation& sim) {
  pb::SimState state;
  direct::captureSimStateDirect(sim, state);
  return encodeSnapshot(state, info());
}

std::string copiedBytes(const SimStateCopy& copy) {
  pb::SimState state;
  buildSimState(copy, state);
  return encodeSnapshot(state, info());
}

// Where the two files first differ, for the failure message.
size_t firstDifference(const std::string& a, const std::string& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

void requireSameFile(Simulation& sim, const SimStateCopy& copy) {
  const std::string direct = directBytes(sim);
  const std::string copied = copiedBytes(copy);
  INFO("direct " << direct.size() << " bytes, copied " << copied.size() << " bytes, first difference at "
                 << firstDifference(direct, copied));
  REQUIRE(copied == direct);
}

WorldFile scaleWorld(uint32_t agents) {
  ScaleWorldSpec spec;
  spec.agents = agents;
  return makeScaleWorld(spec);
}

}  // namespace

TEST_CASE("a snapshot built from the tick thread's copy is the one built from the simulation",
          "[state][copy]") {
  SECTION("Should give the same file for the demo, from its start to a place asleep") {
    test::DemoStateWorld demo;
    int ticked = 0;
    for (int at : {0, 37, 400, 901}) {
      demo.run(at - ticked);
      ticked = at;
      INFO("tick " << at);
      SimStateCopy copy;
      copySimState(*demo.sim, copy);
      requireSameFile(*demo.sim, copy);
      if (at == 901) REQUIRE(sleeperCount(copy) > 0);  // the bakery sleeps by then
    }
  }

  SECTION("Should give the same file for a generated world of 3,000 agents") {
    const WorldFile world = scaleWorld(3000);
    test::DemoStateWorld scale(&world);
    scale.run(20);
    SimStateCopy copy;
    copySimState(*scale.sim, copy);
    REQUIRE(copy.agents.size() == 3000);
    REQUIRE_FALSE(copy.planner_rows.empty());  // planner rows and running tree nodes are
    REQUIRE_FALSE(copy.running.empty());       // covered, not only the plain parts
    requireSameFile(*scale.sim, copy);
  }

  SECTION("Should keep nothing of a previous, larger capture when a copy is reused") {
    const WorldFile world = scaleWorld(1000);
    test::DemoStateWorld scale(&world);
    scale.run(10);
    test::DemoStateWorld demo;
    demo.run(901);
    SimStateCopy copy;
    copySimState(*scale.sim, copy);
    copySimState(*demo.sim, copy);
    requireSameFile(*demo.sim, copy);
    scale.run(5);
    copySimState(*scale.sim, copy);
    requireSameFile(*scale.sim, copy);
  }

  SECTION("Should allocate nothing per agent on the tick thread once a copy has grown") {
    const WorldFile world = scaleWorld(2000);
    test::DemoStateWorld scale(&world);
    scale.run(10);
    SimStateCopy copy;
    copySimState(*scale.sim, copy);
    const uint64_t before = test::allocationCount();
    copySimState(*scale.sim, copy);
    const uint64_t allocations = test::allocationCount() - before;
    // A few per capture (a name table and the squads' memory come as fresh vectors), none
    // per agent: 2,000 agents would show as thousands.
    CHECK(allocations < 40);
    requireSameFile(*scale.sim, copy);
  }

  SECTION("Should give what captureSimState gives") {
    test::DemoStateWorld demo;
    demo.run(400);
    pb::SimState captured;
    captureSimState(*demo.sim, captured);
    REQUIRE(encodeSnapshot(captured, info()) == directBytes(*demo.sim));
  }
}

TEST_CASE("sleeping planners are shared with a capture, not copied, and wake with their memory",
          "[state][copy][sleepers]") {
  // One place nobody visits, half of it planning pyromaniacs: it falls asleep for real.
  ScaleWorldSpec spec;
  spec.agents = 60;
  spec.players_per_place = 0;
  spec.mix = {{"villager", 1}, {"pyromaniac", 1}};
  const WorldFile world = makeScaleWorld(spec);
  SimConfig config = test::DemoStateWorld::demoConfig();
  config.hibernation.quiet_s = 2.0;
  test::DemoStateWorld quiet(&world, config);
  quiet.run(300);
  SimStateCopy first;
  copySimState(*quiet.sim, first);
  size_t place = 0;
  while (place < first.sleeping_planners.size() && !first.sleeping_planners[place]) ++place;
  REQUIRE(place < first.sleeping_planners.size());
  const SleepingPlanners::Rows& slept = *first.sleeping_planners[place];
  REQUIRE(slept.size() == 30);  // every pyromaniac, none of the villagers
  requireSameFile(*quiet.sim, first);

  SECTION("Should hand a second capture the same rows") {
    SimStateCopy second;
    copySimState(*quiet.sim, second);
    REQUIRE(second.sleeping_planners[place].get() == first.sleeping_planners[place].get());
  }

  SECTION("Should leave a capture's rows as they were when a sleeping planner despawns") {
    const EntityId gone = slept.front().id;
    REQUIRE(quiet.sim->submit({ClientId::kDaemon, 0, DespawnAgent{gone, {}}}));
    quiet.sim->tick();
    SimStateCopy after;
    copySimState(*quiet.sim, after);
    REQUIRE(first.sleeping_planners[place]->size() == 30);
    REQUIRE(first.sleeping_planners[place]->front().id == gone);
    REQUIRE(after.sleeping_planners[place]->size() == 29);
    REQUIRE_FALSE(SimStateAccess(*quiet.sim).planner(gone).has_value());
    requireSameFile(*quiet.sim, after);
  }

  SECTION("Should give each agent back the memory it slept with when the place wakes") {
    SimStateAccess(*quiet.sim).wakePlace(static_cast<PlaceIndex>(place), "test");
    SimStateCopy awake;
    copySimState(*quiet.sim, awake);
    REQUIRE_FALSE(awake.sleeping_planners[place]);
    for (const SleepingPlanner& p : slept) {
      INFO("agent " << raw(p.id));
      const std::optional<PlannerMemory> now = SimStateAccess(*quiet.sim).planner(p.id);
      REQUIRE(now.has_value());
      pb::GoapState woke, asleep;  // facts, blackboard and pacing, as a snapshot keeps them
      encodeGoap(*now, woke);
      encodeGoap(p.memory, asleep);
      REQUIRE(woke.SerializeAsString() == asleep.SerializeAsString());
    }
    requireSameFile(*quiet.sim, awake);
  }
}

TEST_CASE("a long action reload settles sleepers' work, and a capture keeps the rows it had",
          "[state][copy][sleepers][long_actions]") {
  test::DemoStateWorld demo;
  demo.run(1500);  // the bakery asleep, its baker baking in his sleep for a while
  SimStateCopy before;
  copySimState(*demo.sim, before);
  const DormantAgent* baker = nullptr;
  size_t place = 0;
  for (size_t p = 0; p < before.dormant.size() && !baker; ++p) {
    if (!before.dormant[p]) continue;
    for (const DormantAgent& d : *before.dormant[p]) {
      if (d.work.running() && demo.sim->longActions().at(d.work.action).name == "ContinuousBaking") {
        baker = &d;
        place = p;
      }
    }
  }
  REQUIRE(baker != nullptr);
  const LongActionRun was = baker->work;

  LongActionLibrary slower;  // the same with turns of 20 s
  slower.items() = demo.sim->longActions().items();
  nlohmann::json j = nlohmann::json::parse(std::ifstream(NPCD_SOURCE_DIR "/config/long_actions.json"));
  j["ContinuousBaking"]["turn_s"] = 20;
  JsonReader reader("long_actions.json");
  slower.loadObject(j, reader);
  REQUIRE(reader.ok());
  const DefinitionReport r = demo.sim->reloadLongActions(std::move(slower), "long_actions.json");
  INFO(r.text());
  REQUIRE(r.ok());
  REQUIRE_THAT(r.loaded.at(0), Catch::Contains("changed: ContinuousBaking"));

  SimStateCopy after;
  copySimState(*demo.sim, after);
  const DormantAgent* now = nullptr;
  for (const DormantAgent& d : *after.dormant[place]) {
    if (d.body.id == baker->body.id) now = &d;
  }
  REQUIRE(now != nullptr);
  const uint64_t turns = static_cast<uint64_t>((demo.sim->timeS() - was.started_s) / 10.0 + 1e-9);
  REQUIRE(turns > was.turns_done);  // turns it slept through, not settled until it wakes...
  CHECK(now->work.turns_done == turns);  // ...settled now, under the 10 s turns they ran in
  CHECK(baker->work.turns_done == was.turns_done);  // the earlier capture's row is as it was
  CHECK(baker->work.started_s == was.started_s);
  requireSameFile(*demo.sim, after);
}
