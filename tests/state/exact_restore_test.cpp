// An exact restore: a simulation restored from a snapshot and fed the same commands as the
// live one from then on ticks the same, tick for tick (state checksum and every action and
// event emitted). This is what replaying a journal from a snapshot rests on.
#include <catch2/catch.hpp>

#include "core/sim/tick_hash.h"
#include "demo_state_world.h"
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
