// The per-tick state checksum: equal for equal runs tick for tick, equal after a restore,
// different for a different world.
#include <catch2/catch.hpp>

#include "demo_state_world.h"
#include "sim_state_codec.h"
#include "state_checksum.h"

using namespace npc;

TEST_CASE("two runs of the demo show the same checksum tick for tick", "[state][checksum]") {
  test::DemoStateWorld a;
  test::DemoStateWorld b;
  for (int t = 0; t < 300; ++t) {
    a.run(1);
    b.run(1);
    INFO("tick " << a.sim->tickCount());
    REQUIRE(stateChecksum(*a.sim) == stateChecksum(*b.sim));
  }
}

TEST_CASE("a restored simulation shows the checksum of the state it restored", "[state][checksum]") {
  test::DemoStateWorld a;
  a.run(400);
  pb::SimState state;
  captureSimState(*a.sim, state);
  test::DemoStateWorld b;
  const uint64_t fresh = stateChecksum(*b.sim);
  std::string error;
  REQUIRE(restoreSimState(state, *b.sim, error));
  CHECK(stateChecksum(*b.sim) == stateChecksum(*a.sim));
  CHECK(stateChecksum(*b.sim) != fresh);
}

TEST_CASE("the checksum sees an agent's state change", "[state][checksum]") {
  test::DemoStateWorld a;
  a.run(50);
  const uint64_t before = stateChecksum(*a.sim);
  UpsertEntity move;
  move.state.id = EntityId{1601};
  move.state.kind = EntityKind::kNpc;
  move.state.position = Vec3{61.f, 3.f, 0.f};
  REQUIRE(a.sim->submit(Command{ClientId::kDaemon, 0, move}));
  test::DemoStateWorld b;
  b.run(50);
  REQUIRE(stateChecksum(*b.sim) == before);
  a.sim->tick();
  b.sim->tick();
  CHECK(stateChecksum(*a.sim) != stateChecksum(*b.sim));
}
