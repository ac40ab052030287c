// An exact restore: a simulation restored from a snapshot and fed the same commands as the
// live one from then on ticks the same, tick for tick (state checksum and every action and
// event emitted). This is what replaying a journal from a snapshot rests on.
#include <catch2/catch.hpp>

#include "core/nav/nav_test_support.h"
#include "core/sim/sim_fixture.h"
#include "core/sim/tick_hash.h"
#include "demo_state_world.h"
#include "journal_codec.h"
#include "nav/nav_query.h"
#include "sim/sim_navigation.h"
#include "sim/sim_state_access.h"
#include "journal_replay.h"
#include "sim/world_file.h"
#include "sim_state_codec.h"
#include "state_checksum.h"

using namespace npc;

namespace {

uint64_t outputHash(const Simulation& sim) {
  test::Fnv fnv;
  test::hashTickOutput(sim, fnv);
  return fnv.h;
}

std::string describeOutput(const Simulation& sim) {
  std::string out;
  for (const ActionOut& a : sim.output().actions) {
    out += "action " + std::to_string(raw(a.agent)) + " #" + std::to_string(raw(a.intention)) +
           " " + sim.names().name(a.name) + "\n";
  }
  for (const EventOut& e : sim.output().events) {
    out += "event " + std::to_string(static_cast<int>(e.kind)) + " " + std::to_string(raw(e.agent)) +
           " " + e.text + "\n";
  }
  return out;
}

// Runs `live` on with its stand-in game and `restored` on the same commands, comparing
// each tick.
void runSideBySide(test::DemoStateWorld& live, Simulation& restored, int ticks) {
  for (int t = 0; t < ticks; ++t) {
    live.sim->tick();
    restored.tick();
    INFO("tick " << live.sim->tickCount());
    REQUIRE(restored.tickCount() == live.sim->tickCount());
    INFO("restored:\n" << describeOutput(restored) << "live:\n" << describeOutput(*live.sim));
    REQUIRE(outputHash(restored) == outputHash(*live.sim));
    REQUIRE(stateChecksum(restored) == stateChecksum(*live.sim));
    live.game->step(*live.sim, live.pending);
    std::vector<Command> copy = live.pending;
    REQUIRE(live.sim->submit(live.pending));
    REQUIRE(restored.submit(copy));
  }
}

}  // namespace

TEST_CASE("a simulation restored mid-run ticks like the live one", "[state][exact]") {
  for (int at : {37, 400, 901}) {
    DYNAMIC_SECTION("snapshot at tick " << at) {
      test::DemoStateWorld live;
      live.run(at - 1);
      live.sim->tick();
      live.game->step(*live.sim, live.pending);
      pb::SimState state;
      captureSimState(*live.sim, state);
      pb::SimState decoded;
      REQUIRE(decoded.ParseFromString(state.SerializeAsString()));
      test::DemoStateWorld other;
      std::string error;
      REQUIRE(restoreSimState(decoded, *other.sim, error, RestoreMode::kExact));
      // The commands the live game queued after its last tick go to both.
      std::vector<Command> copy = live.pending;
      REQUIRE(live.sim->submit(live.pending));
      REQUIRE(other.sim->submit(copy));
      runSideBySide(live, *other.sim, 600);
    }
  }
}

TEST_CASE("a journal of the live run replays tick for tick from its snapshot", "[state][exact]") {
  test::DemoStateWorld live;
  live.run(300);
  pb::SimState state;
  captureSimState(*live.sim, state);
  // Record what the live run applies from here, as the daemon's journal does.
  std::vector<pb::JournalTick> journal;
  pb::JournalTick current;
  live.sim->addCommandRecorder([&](uint64_t, const Command& command) {
    pb::JournalCommand encoded;
    if (encodeCommand(command, encoded)) *current.add_commands() = std::move(encoded);
  });
  size_t commands = 0;
  for (int t = 0; t < 400; ++t) {
    live.run(1);
    current.set_tick(live.sim->tickCount());
    current.set_state_checksum(stateChecksum(*live.sim));
    current.set_output_hash(hashTickOutput(live.sim->output(), live.sim->names()));
    commands += static_cast<size_t>(current.commands_size());
    journal.push_back(current);
    current.Clear();
  }
  REQUIRE(commands > 100);  // the stand-in game's players and action results
  test::DemoStateWorld replay;
  std::string error;
  REQUIRE(restoreSimState(state, *replay.sim, error, RestoreMode::kExact));
  for (const pb::JournalTick& record : journal) {
    ReplayedTick replayed;
    REQUIRE(replayTick(*replay.sim, record, replayed).isOk());
    INFO("tick " << record.tick());
    REQUIRE(replayed.matches);
  }
  // A record out of order is refused, nothing applied.
  ReplayedTick replayed;
  const Status late = replayTick(*replay.sim, journal.front(), replayed);
  CHECK(late.message() == "journal record of tick 301, the simulation is at tick 700");
}

namespace {

// Walks across the demo village, as the restored and the live navmesh answer them.
std::vector<float> demoWalks(const Simulation& sim) {
  const Vec3 points[] = {{-60, 0, 0}, {-30, 10, 0}, {0, 0, 0}, {30, -10, 0}, {60, 20, 0}};
  nav::NavQuery query(sim.navigation()->mesh, nav::NavQueryLimits{});
  std::vector<float> out;
  for (const Vec3& a : points) {
    for (const Vec3& b : points) out.push_back(query.path(a, b).length_m);
  }
  return out;
}

}  // namespace

TEST_CASE("a snapshot taken while obstacle changes wait restores the navmesh and its queue",
          "[state][exact]") {
  test::DemoStateWorld live;
  live.run(20);
  // Carts on the village's streets, more tiles than one tick's rebuild budget: some wait.
  for (int i = 0; i < 6; ++i) {
    const float x = -60.f + 25.f * static_cast<float>(i);
    live.pending.push_back({ClientId::kDaemon, 0,
                            UpsertObstacle{{ObstacleId{9000u + i}, {{x, -2.f, 0.f}, {x + 3.f, 2.f, 2.f}}}}});
  }
  live.run(1);        // submits them
  live.sim->tick();   // applies them, as far as the budget goes
  live.game->step(*live.sim, live.pending);
  std::vector<nav::NavObstacleChange> held, queued;
  REQUIRE(SimStateAccess(*live.sim).navObstacles(held, queued));
  REQUIRE_FALSE(queued.empty());

  pb::SimState state;
  captureSimState(*live.sim, state);
  REQUIRE(state.world().has_navmesh());
  CHECK(state.world().navmesh().queued_size() == static_cast<int>(queued.size()));

  SECTION("Should rebuild the captured mesh and carry on with the waiting changes") {
    test::DemoStateWorld other;
    std::string error;
    REQUIRE(restoreSimState(state, *other.sim, error, RestoreMode::kExact));
    std::vector<nav::NavObstacleChange> held2, queued2;
    REQUIRE(SimStateAccess(*other.sim).navObstacles(held2, queued2));
    CHECK(held2.size() == held.size());
    CHECK(queued2.size() == queued.size());
    CHECK(demoWalks(*other.sim) == demoWalks(*live.sim));
    std::vector<Command> copy = live.pending;
    REQUIRE(live.sim->submit(live.pending));
    REQUIRE(other.sim->submit(copy));
    runSideBySide(live, *other.sim, 30);
    CHECK(demoWalks(*other.sim) == demoWalks(*live.sim));
  }
  SECTION("Should show the world's obstacles when the snapshot has no navmesh part") {
    state.mutable_world()->clear_navmesh();
    test::DemoStateWorld other;
    std::string error;
    REQUIRE(restoreSimState(state, *other.sim, error, RestoreMode::kExact));
    std::vector<nav::NavObstacleChange> held2, queued2;
    REQUIRE(SimStateAccess(*other.sim).navObstacles(held2, queued2));
    CHECK(queued2.empty());
    CHECK(held2.size() == static_cast<size_t>(state.world().obstacles_size()));
  }
}

namespace {

// The navigation tests' level with 3.2 m tiles and a query that gives up after 16 polygons:
// a MoveTo's check is left to the long searches, 16 polygons a tick. A statue stands on it.
std::unique_ptr<Simulation> longSearchWorld() {
  auto sim = std::make_unique<Simulation>(SimConfig{}, test::testArchetypes());
  WorldFile w;
  std::vector<std::string> errors;
  const std::string text = R"({ "places": [ { "name": "field", "min": [-5, -5, -2], "max": [65, 45, 10] } ],
      "navmesh": { "geometry": "level.obj", "build": { "cell_size_m": 0.2, "tile_size_cells": 16 },
                   "query": { "max_nodes": 16 }, "long_search": { "iterations_per_tick": 16 } } })";
  REQUIRE(parseWorldFile(nav::test::writeLevel("npcd_long_search_world") + "/world.json", text, w, errors));
  REQUIRE(applyWorldFile(w, *sim, errors));
  sim->submit(test::upsert(1, EntityKind::kNpc, {10, 5, 0}, "statue"));
  sim->tick();
  return sim;
}

}  // namespace

TEST_CASE("a snapshot taken while a long path search is open restores it where it was",
          "[state][exact]") {
  std::unique_ptr<Simulation> live = longSearchWorld();
  IntentionParam p;
  p.type = IntentionParam::Type::kPosition;
  p.name = "position";
  p.position = {55, 5, 0};  // the island: no path, found out only by searching floor A through
  live->submit({ClientId{7}, 0, ProgramIntention{EntityId{1}, "MoveTo", 0.0, {p}, IntentionId::kNone,
                                                 [](const Status& s, IntentionId) { REQUIRE(s.isOk()); }}});
  live->tick();
  REQUIRE(test::findAction(live->output(), 1) != nullptr);
  for (int i = 0; i < 3; ++i) live->tick();
  std::vector<nav::SlicedPathRequest> waiting;
  int open = 0;
  SimStateAccess(*live).navLongSearches(waiting, open);
  REQUIRE(waiting.size() == 1);
  REQUIRE(open == 48);

  pb::SimState state;
  captureSimState(*live, state);
  CHECK(state.world().long_searches().waiting_size() == 1);
  CHECK(state.world().long_searches().open_iterations() == 48);
  std::unique_ptr<Simulation> restored = longSearchWorld();
  std::string error;
  REQUIRE(restoreSimState(state, *restored, error, RestoreMode::kExact));
  std::vector<nav::SlicedPathRequest> waiting2;
  int open2 = 0;
  SimStateAccess(*restored).navLongSearches(waiting2, open2);
  REQUIRE(waiting2.size() == 1);
  CHECK(waiting2[0].key == 1);
  CHECK(open2 == 48);

  int failed_on = 0;
  for (int t = 0; t < 400 && failed_on == 0; ++t) {
    live->tick();
    restored->tick();
    INFO("tick " << live->tickCount());
    REQUIRE(outputHash(*restored) == outputHash(*live));
    REQUIRE(stateChecksum(*restored) == stateChecksum(*live));
    if (!test::eventsOf(live->output(), EventKind::kIntentionFailed).empty()) failed_on = t + 1;
  }
  CHECK(failed_on > 1);  // the search went on after the restore, on both the same
  CHECK(restored->stats().nav_long_searches_waiting == 0);
}

namespace {

std::unique_ptr<Simulation> leasedNorth() {
  SimConfig c;
  c.tick_dt_s = 0.1;
  c.leased_places = true;
  auto sim = std::make_unique<Simulation>(c, test::testArchetypes());
  REQUIRE(sim->world().addPlace("north", {{0, 0, -1}, {50, 50, 10}}));
  sim->submit({ClientId::kDaemon, 0, HoldPlace{"north", true, 1, {}}});
  sim->tick();
  return sim;
}

}  // namespace

TEST_CASE("a visitor restored from a snapshot leaves on the tick it would have", "[state][exact]") {
  std::unique_ptr<Simulation> live = leasedNorth();
  EntityState visitor;
  visitor.id = EntityId{600};
  visitor.kind = EntityKind::kPlayer;
  visitor.position = Vec3{48, 25, 0};
  visitor.relayed = true;  // a player near the north, relayed by the node the game sends it to
  live->submit({ClientId::kDaemon, 0, UpsertEntity{visitor}});
  for (int i = 0; i < 3; ++i) live->tick();
  pb::SimState state;
  captureSimState(*live, state);
  std::unique_ptr<Simulation> restored = leasedNorth();
  std::string error;
  REQUIRE(restoreSimState(state, *restored, error, RestoreMode::kExact));
  int gone_on = 0;
  for (int t = 1; t <= 12; ++t) {
    live->tick();
    restored->tick();
    INFO("tick " << live->tickCount());
    const bool here = live->world().entities().get(EntityId{600}) != nullptr;
    REQUIRE(here == (restored->world().entities().get(EntityId{600}) != nullptr));
    REQUIRE(stateChecksum(*restored) == stateChecksum(*live));
    if (!here && gone_on == 0) gone_on = t;
  }
  CHECK(gone_on == 8);  // applied 3 ticks before the snapshot, it lives 1 s: 10 ticks
}
