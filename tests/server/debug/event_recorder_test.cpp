// EventRecorder: the ring of recent events and emitted actions the debug page's recorder reads.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "../../core/sim/sim_fixture.h"
#include "debug/event_recorder.h"

using namespace npc;
using namespace npc::test;

namespace {

void spawn(Simulation& sim, uint64_t id) { sim.submit(upsert(id, EntityKind::kNpc, {0, 0, 0}, "villager")); }

}  // namespace

TEST_CASE("The recorder keeps recent events and actions per agent", "[debug][recorder]") {
  Simulation sim(SimConfig{}, testArchetypes());
  spawn(sim, 1);
  spawn(sim, 2);
  EventRecorder recorder(64);
  for (int t = 0; t < 30; ++t) {
    sim.tick();
    recorder.record(sim);
  }
  const nlohmann::json all = recorder.query(0, EntityId::kNone, "", 1000);
  SECTION("Should record spawns and the actions sent to clients, numbered in order") {
    REQUIRE(all["events"].size() >= 4);
    REQUIRE(all["events"][0]["seq"] == 1);
    REQUIRE(all["events"][0]["kind"] == "agent_spawned");
    bool moved = false;
    for (const auto& e : all["events"]) moved |= e["kind"] == "action" && e["text"] == "MoveTo";
    REQUIRE(moved);
    REQUIRE(all["last_seq"] == all["events"].size());
  }
  SECTION("Should filter by agent and continue after a sequence number") {
    const nlohmann::json one = recorder.query(0, EntityId{2}, "", 1000);
    REQUIRE(one["events"].size() > 0);
    for (const auto& e : one["events"]) REQUIRE(e["agent"] == 2);
    const uint64_t last = all["last_seq"];
    REQUIRE(recorder.query(last, EntityId::kNone, "", 1000)["events"].empty());
  }
  SECTION("Should give the newest entries when more matched than the limit") {
    const nlohmann::json two = recorder.query(0, EntityId::kNone, "", 2);
    REQUIRE(two["events"].size() == 2);
    REQUIRE(two["events"][1]["seq"] == all["last_seq"]);
  }
  SECTION("Should forget the oldest entries beyond its capacity") {
    for (uint64_t id = 10; id < 110; ++id) spawn(sim, id);
    sim.tick();
    recorder.record(sim);
    const nlohmann::json late = recorder.query(0, EntityId::kNone, "", 1000);
    REQUIRE(late["events"].size() == 64);
    REQUIRE(late["oldest_seq"] == late["last_seq"].get<uint64_t>() - 63);
  }
}
