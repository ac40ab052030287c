// The tick schedule, driven by a ManualTickClock: time moves only when a tick's work
// "takes" time (the hooks advance the clock), so each expectation is exact.
#include <chrono>
#include <vector>

#include <catch2/catch.hpp>

#include "tick_driver.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

double secondsSinceEpoch(const ManualTickClock& clock) {
  return std::chrono::duration<double>(clock.now().time_since_epoch()).count();
}

// Fires the clock's timers until `ticks` ticks ran, then stops the driver.
void runTicks(TickDriver& driver, ManualTickClock& clock, uint64_t ticks) {
  driver.start();
  while (driver.stats().ticks() < ticks) REQUIRE(clock.runNext());
  driver.stop();
}

}  // namespace

TEST_CASE("TickDriver runs ticks at the configured rate", "[tick]") {
  ManualTickClock clock;
  SimConfig sc;
  sc.tick_dt_s = 1.0 / 100.0;
  Simulation sim(sc, ArchetypeSet{});
  StatsBoard board;
  std::vector<double> started_s;
  TickHooks h;
  h.after_tick = [&] {
    started_s.push_back(secondsSinceEpoch(clock));
    clock.advance(2ms);  // each tick's work takes 2 ms of the 10 ms period
  };
  h.add_stats = [](DaemonStats& s) { s.clients = 3; };
  TickDriver driver(clock, sim, board, {100.0, 0.0}, h);
  runTicks(driver, clock, 50);

  SECTION("Should advance simulated time by exactly dt per tick") {
    REQUIRE(sim.tickCount() == 50);
    REQUIRE(sim.timeS() == Approx(0.5));
    REQUIRE(started_s.size() == 50);
  }
  SECTION("Should start tick k at k periods, never earlier and without drift") {
    for (size_t k = 0; k < started_s.size(); ++k) {
      INFO("tick " << k + 1);
      REQUIRE(started_s[k] == Approx(0.01 * static_cast<double>(k + 1)).margin(1e-9));
    }
    REQUIRE(driver.stats().overruns == 0);
    REQUIRE(driver.stats().skipped == 0);
  }
  SECTION("Should publish stats every tick") {
    REQUIRE(board.load().sim.tick == 50);
    REQUIRE(board.load().clients == 3);
  }
  SECTION("Should keep tick durations for percentiles") {
    REQUIRE(driver.stats().windowSize() == 50);
    REQUIRE(driver.stats().percentileMs(50) == Approx(2.0));
    REQUIRE(driver.stats().percentileMs(99) == Approx(2.0));
  }
  SECTION("Should fire nothing once stopped") {
    REQUIRE_FALSE(clock.runNext());
    REQUIRE(sim.tickCount() == 50);
  }
}

TEST_CASE("TickDriver counts overruns and skips missed slots instead of bursting", "[tick]") {
  ManualTickClock clock;
  Simulation sim(SimConfig{}, ArchetypeSet{});
  StatsBoard board;
  std::vector<double> started_s;
  TickHooks h;
  // Every 5th tick takes 3.5 periods (period 10 ms).
  h.after_tick = [&] {
    started_s.push_back(secondsSinceEpoch(clock));
    if (sim.tickCount() % 5 == 0) clock.advance(35ms);
  };
  TickDriver driver(clock, sim, board, {100.0, 0.0}, h);
  runTicks(driver, clock, 20);

  SECTION("Should count each slow tick as one overrun") {
    REQUIRE(driver.stats().overruns == 4);
  }
  SECTION("Should skip the two slots that passed during each stall") {
    // Tick 5 runs at 50 ms and ends at 85 ms: slots 60 and 70 ms are gone.
    REQUIRE(driver.stats().skipped == 8);
  }
  SECTION("Should run the successor of a slow tick at once, then return to the grid") {
    REQUIRE(started_s[4] == Approx(0.050));
    REQUIRE(started_s[5] == Approx(0.085));  // slot 80 ms already due: at once, no burst
    REQUIRE(started_s[6] == Approx(0.090));
    // Three stalls before it, two slots lost to each: tick 20 runs in slot 26.
    REQUIRE(started_s[19] == Approx(0.260));
  }
}

TEST_CASE("TickDriver measures the tick rate over each status interval", "[tick]") {
  ManualTickClock clock;
  Simulation sim(SimConfig{}, ArchetypeSet{});
  StatsBoard board;
  TickHooks h;
  h.after_tick = [&] {
    if (sim.tickCount() > 30) clock.advance(50ms);  // from the second 2 s on: 1.5 periods each
  };
  // 30 Hz: tick 30 is due just before the 1 s status slot.
  TickDriver driver(clock, sim, board, {30.0, 1.0}, h);
  driver.start();
  while (secondsSinceEpoch(clock) < 1.0) REQUIRE(clock.runNext());
  SECTION("Should report the ticks of the first second") {
    REQUIRE(board.load().ticks_per_second == Approx(30.0));
    REQUIRE(driver.statusLine().find("tick 30 | 30.0 ticks/s") == 0);
  }
  SECTION("Should report the slower rate once ticks overrun") {
    // Past the 2 s status slot (a tick that ends after it delays it, as on a real clock).
    while (secondsSinceEpoch(clock) < 2.1) REQUIRE(clock.runNext());
    REQUIRE(board.load().ticks_per_second == Approx(20.0).margin(1.0));
  }
  driver.stop();
}

TEST_CASE("TickStats percentiles", "[tick]") {
  TickStats s;
  REQUIRE(s.percentileMs(50) == 0.0);
  for (int i = 1; i <= 100; ++i) s.record(i);
  REQUIRE(s.percentileMs(50) == Approx(50));
  REQUIRE(s.percentileMs(99) == Approx(99));
  REQUIRE(s.percentileMs(100) == Approx(100));
  for (size_t i = 0; i < TickStats::kWindow; ++i) s.record(1.0);
  REQUIRE(s.percentileMs(99) == Approx(1.0));  // old values left the window
  REQUIRE(s.ticks() == 100 + TickStats::kWindow);
}

namespace {
uint64_t counted_ns = 0;
uint64_t countingClock() { return counted_ns += 1000; }  // 1 us per reading
}  // namespace

TEST_CASE("TickDriver times the emit phase and publishes every phase's percentiles", "[tick]") {
  ManualTickClock clock;
  Simulation sim(SimConfig{}, ArchetypeSet{});
  sim.profile().setClock(&countingClock);
  StatsBoard board;
  TickHooks h;
  uint64_t emits = 0;
  h.after_tick = [&] { ++emits; };
  TickDriver driver(clock, sim, board, {100.0, 0.0}, h);
  runTicks(driver, clock, 10);
  REQUIRE(emits == 10);

  SECTION("Should count the publishing hook as the emit phase of the tick") {
    // Two clock readings around after_tick: exactly one step.
    CHECK(sim.profile().lastNs(TickPhase::kEmit) == 1000);
    CHECK(sim.profile().totalNs(TickPhase::kEmit) == 10 * 1000);
  }
  SECTION("Should give GetStats p50 and p99 for every phase") {
    const DaemonStats s = board.load();
    for (TickPhase phase : kTickPhases) {
      INFO(tickPhaseName(phase));
      CHECK(s.phases[index(phase)].p50_ms == Approx(0.001));
      CHECK(s.phases[index(phase)].p99_ms == Approx(0.001));
    }
  }
  SECTION("Should show each phase's p99 in the status line") {
    CHECK_THAT(driver.statusLine(),
               Catch::EndsWith("| phase p99 ms ingest 0.00 places 0.00 perception 0.00 selection "
                               "0.00 behavior 0.00 planning 0.00 scheduling 0.00 emit 0.00"));
  }
}
