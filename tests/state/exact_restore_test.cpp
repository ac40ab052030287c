// An exact restore: a simulation restored from a snapshot and fed the same commands as the
// live one from then on ticks the same, tick for tick (state checksum and every action and
// event emitted). This is what replaying a journal from a snapshot rests on.
#include <catch2/catch.hpp>

#include "core/sim/tick_hash.h"
#include "demo_state_world.h"
#include "journal_codec.h"
#include "journal_replay.h"
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
