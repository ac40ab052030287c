// TickProfile: every phase of a tick is timed once, the phases add up to the tick, and the
// progress marker says where the tick thread is. Time comes from a counting clock, so the
// figures are exact and nothing depends on the machine's speed.
#include <catch2/catch.hpp>

#include <vector>

#include "demo_world.h"
#include "sim/tick_profile.h"

using namespace npc;

namespace {

constexpr uint64_t kStepNs = 1000;
uint64_t counting_now = 0;
uint64_t countingClock() { return counting_now += kStepNs; }

uint64_t sumOfPhases(const TickProfile& p) {
  uint64_t sum = 0;
  for (TickPhase phase : kTickPhases) sum += p.lastNs(phase);
  return sum;
}

}  // namespace

TEST_CASE("TickProfile times each phase it enters and the tick as their sum", "[sim][profile]") {
  counting_now = 0;
  TickProfile p(&countingClock);
  p.beginTick(1);                    // reads 1000
  p.enter(TickPhase::kPlaces);       // 2000: ingest took one step
  p.enter(TickPhase::kPerception);   // 3000
  p.enter(TickPhase::kScheduling);   // 4000: perception one step, nothing in between
  p.endTick();                       // 5000

  SECTION("Should give one clock step to each phase entered and none to the others") {
    CHECK(p.lastNs(TickPhase::kIngest) == kStepNs);
    CHECK(p.lastNs(TickPhase::kPlaces) == kStepNs);
    CHECK(p.lastNs(TickPhase::kPerception) == kStepNs);
    CHECK(p.lastNs(TickPhase::kScheduling) == kStepNs);
    CHECK(p.lastNs(TickPhase::kSelection) == 0);
    CHECK(p.lastNs(TickPhase::kEmit) == 0);
    CHECK(p.lastTickNs() == 4 * kStepNs);
    CHECK(sumOfPhases(p) == p.lastTickNs());
  }
  SECTION("Should add time measured outside to the last tick and to the totals") {
    p.add(TickPhase::kEmit, 700);
    CHECK(p.lastNs(TickPhase::kEmit) == 700);
    CHECK(p.lastTickNs() == 4 * kStepNs + 700);
    CHECK(sumOfPhases(p) == p.lastTickNs());
    CHECK(p.totalNs(TickPhase::kEmit) == 700);
  }
  SECTION("Should start the next tick from zero and keep the totals") {
    p.beginTick(2);
    p.endTick();
    CHECK(p.lastNs(TickPhase::kPlaces) == 0);
    CHECK(p.lastNs(TickPhase::kIngest) == kStepNs);
    CHECK(p.totalNs(TickPhase::kIngest) == 2 * kStepNs);
    CHECK(p.ticks() == 2);
  }
}

TEST_CASE("Simulation::tick times every phase once per tick", "[sim][profile]") {
  test::DemoWorld demo;
  Simulation& sim = *demo.sim;
  counting_now = 0;
  sim.profile().setClock(&countingClock);
  constexpr int kTicks = 5;
  for (int t = 0; t < kTicks; ++t) {
    sim.tick();
    INFO("tick " << sim.tickCount());
    // A counting clock advances once per reading: a phase timed once gets exactly one step.
    for (TickPhase phase : kTickPhases) {
      INFO(tickPhaseName(phase));
      CHECK(sim.profile().lastNs(phase) == (phase == TickPhase::kEmit ? 0 : kStepNs));
    }
    CHECK(sumOfPhases(sim.profile()) == sim.profile().lastTickNs());
  }
  CHECK(sim.profile().ticks() == kTicks);
  CHECK(sim.profile().totalNs(TickPhase::kPerception) == kTicks * kStepNs);
  const TickProgress::Snapshot after = sim.profile().progress().read();
  CHECK_FALSE(after.in_tick);
  CHECK(after.tick == sim.tickCount());
}

TEST_CASE("TickProgress names the phase and agent a stalled tick is in", "[sim][profile]") {
  test::DemoWorld demo;
  Simulation& sim = *demo.sim;
  const EntityId baker{1101};
  std::vector<TickProgress::Snapshot> seen;
  sim.profile().setStallHook(baker, [&] { seen.push_back(sim.profile().progress().read()); });
  sim.tick();
  // The baker runs a selection tree (selection) and has intentions (scheduling); the hook
  // sees the tick from inside, as the watchdog's thread would.
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.front().in_tick);
  CHECK(seen.front().tick == 1);
  CHECK(seen.front().phase == TickPhase::kSelection);
  CHECK(seen.front().agent == baker);
  std::vector<TickPhase> phases;
  for (const auto& s : seen) phases.push_back(s.phase);
  CHECK(std::find(phases.begin(), phases.end(), TickPhase::kBehavior) != phases.end());

  SECTION("Should stop calling the hook once it is removed") {
    sim.profile().setStallHook(EntityId::kNone, {});
    const size_t calls = seen.size();
    sim.tick();
    CHECK(seen.size() == calls);
  }
}
