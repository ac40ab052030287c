// Detail tiers (tick.lod): an awake agent with no player near decides on one tick in
// far_period_ticks, staggered; near a player it decides every tick; signals still reach a
// far agent, and its intentions are scheduled every tick.
#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

constexpr uint32_t kPeriod = 4;

SimConfig lodConfig(bool enabled) {
  SimConfig c;
  c.tick_dt_s = 0.1;
  c.derive_footsteps = false;
  c.hibernation.enabled = false;
  c.detail.enabled = enabled;
  c.detail.near_m = 20.f;
  c.detail.far_period_ticks = kPeriod;
  return c;
}

// Villagers 1 (near the player at the origin) and 2..5 (200 m away), wandering; the game
// completes every action at once. Records the ticks each agent was sent an action on.
struct Village {
  Simulation sim;
  std::vector<std::vector<uint64_t>> sent = std::vector<std::vector<uint64_t>>(6);

  explicit Village(bool lod) : sim(lodConfig(lod), testArchetypes()) {
    sim.submit(upsert(1, EntityKind::kNpc, {5, 0, 0}, "villager"));
    for (uint64_t id = 2; id <= 5; ++id) {
      sim.submit(upsert(id, EntityKind::kNpc, {200.f + static_cast<float>(id), 0, 0}, "villager"));
    }
    sim.submit(upsert(90, EntityKind::kPlayer, {0, 0, 0}));
  }
  void run(int ticks) {
    for (int t = 0; t < ticks; ++t) {
      sim.tick();
      for (const ActionOut& a : sim.output().actions) {
        sent[raw(a.agent)].push_back(sim.tickCount());
        sim.submit(result(raw(a.agent), a.intention, ActionOutcome::kCompleted));
      }
    }
  }
};

}  // namespace

TEST_CASE("Agents far from every player decide on their own staggered tick", "[sim][lod]") {
  Village v(true);
  v.run(80);
  REQUIRE(v.sim.stats().agents_reduced == 4);
  SECTION("Should send a far agent's actions only on ticks of one residue, after the first") {
    std::set<uint64_t> residues;
    for (uint64_t id = 2; id <= 5; ++id) {
      INFO("agent " << id);
      REQUIRE(v.sent[id].size() >= 3);
      std::set<uint64_t> own;
      for (size_t i = 1; i < v.sent[id].size(); ++i) own.insert(v.sent[id][i] % kPeriod);
      CHECK(own.size() == 1);
      residues.insert(*own.begin());
    }
    CHECK(residues.size() > 1);  // staggered: not every far agent on the same tick
  }
  SECTION("Should let the agent near the player decide on every tick") {
    std::set<uint64_t> residues;
    for (uint64_t tick : v.sent[1]) residues.insert(tick % kPeriod);
    CHECK(residues.size() > 1);
  }
  SECTION("Should move an agent to the full rate when a player comes near") {
    v.sim.submit(upsert(90, EntityKind::kPlayer, {203, 0, 0}));
    v.run(2);
    CHECK(v.sim.stats().agents_reduced == 1);  // now agent 1 is the far one
  }
}

TEST_CASE("Without tiers every awake agent decides on every tick", "[sim][lod]") {
  Village v(false);
  v.run(80);
  CHECK(v.sim.stats().agents_reduced == 0);
  std::set<uint64_t> residues;
  for (uint64_t id = 2; id <= 5; ++id) {
    for (uint64_t tick : v.sent[id]) residues.insert(tick % kPeriod);
  }
  CHECK(residues.size() == kPeriod);
}

TEST_CASE("A far agent still receives every signal sent to it", "[sim][lod]") {
  Village v(true);
  v.run(10);
  const uint64_t before = v.sim.perception().totals().signals_sent;
  for (int t = 0; t < static_cast<int>(kPeriod); ++t) {
    SignalEvent signal;
    signal.name = "OnCall";
    signal.target = EntityId{3};
    v.sim.submit({ClientId{7}, 0, signal});
    v.run(1);
  }
  CHECK(v.sim.perception().totals().signals_sent - before == kPeriod);
}
