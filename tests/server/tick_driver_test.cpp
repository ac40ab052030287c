#include <chrono>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <catch2/catch.hpp>

#include "tick_driver.h"

using namespace npc;

namespace {

// Runs the driver on this thread until `ticks` ticks ran; returns wall seconds taken.
double runTicks(TickDriver& driver, boost::asio::io_context& io, uint64_t ticks) {
  const auto start = std::chrono::steady_clock::now();
  driver.start();
  while (driver.stats().ticks() < ticks) io.run_one();
  driver.stop();
  io.poll();  // let cancelled handlers run
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("TickDriver runs ticks at the configured rate", "[tick]") {
  boost::asio::io_context io;
  SimConfig sc;
  sc.tick_dt_s = 1.0 / 100.0;
  Simulation sim(sc, ArchetypeSet{});
  StatsBoard board;
  uint64_t hooks = 0;
  TickHooks h;
  h.after_tick = [&] { ++hooks; };
  h.add_stats = [](DaemonStats& s) { s.clients = 3; };
  TickDriver driver(io, sim, board, {100.0, 0.0}, h);
  const double wall = runTicks(driver, io, 50);

  SECTION("Should advance simulated time by exactly dt per tick") {
    REQUIRE(sim.tickCount() == 50);
    REQUIRE(sim.timeS() == Approx(0.5));
    REQUIRE(hooks == 50);
  }
  SECTION("Should take about ticks / rate of wall time, never run ahead") {
    REQUIRE(wall >= 0.49);
  }
  SECTION("Should publish stats every tick") {
    REQUIRE(board.load().sim.tick == 50);
    REQUIRE(board.load().clients == 3);
  }
  SECTION("Should keep tick durations for percentiles") {
    REQUIRE(driver.stats().windowSize() == 50);
    REQUIRE(driver.stats().percentileMs(99) >= driver.stats().percentileMs(50));
  }
}

TEST_CASE("TickDriver counts overruns and skips missed slots instead of bursting", "[tick]") {
  boost::asio::io_context io;
  Simulation sim(SimConfig{}, ArchetypeSet{});
  StatsBoard board;
  TickHooks h;
  // Every 5th tick takes 3.5 periods (period 10 ms).
  h.after_tick = [&] {
    if (sim.tickCount() % 5 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(35));
  };
  TickDriver driver(io, sim, board, {100.0, 0.0}, h);
  const double wall = runTicks(driver, io, 20);

  SECTION("Should count each slow tick as an overrun") {
    REQUIRE(driver.stats().overruns >= 4);
  }
  SECTION("Should skip the slots that passed rather than catch them all up") {
    REQUIRE(driver.stats().skipped >= 4);
    // 20 ticks at 100 Hz with 4 stalls of 35 ms: without skipping, catch-up would squeeze
    // the run back to ~0.2 s; with skipping it lasts at least 0.2 s + most of the stalls.
    REQUIRE(wall >= 0.25);
  }
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
  boost::asio::io_context io;
  Simulation sim(SimConfig{}, ArchetypeSet{});
  sim.profile().setClock(&countingClock);
  StatsBoard board;
  TickHooks h;
  uint64_t emits = 0;
  h.after_tick = [&] { ++emits; };
  TickDriver driver(io, sim, board, {100.0, 0.0}, h);
  runTicks(driver, io, 10);
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
