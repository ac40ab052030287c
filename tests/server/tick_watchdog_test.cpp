// TickWatchdog: a tick that runs past its limit is reported once, with its phase and agent.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "../core/sim/demo_world.h"
#include "tick_watchdog.h"

using namespace npc;

namespace {

constexpr uint64_t kMs = 1'000'000;
uint64_t fake_now = 0;
uint64_t fakeClock() { return fake_now; }

}  // namespace

TEST_CASE("TickWatchdog reports a tick past its limit once, with phase and agent", "[watchdog]") {
  fake_now = 1000 * kMs;
  TickProfile profile(&fakeClock);
  TickWatchdog watchdog(profile, 0.1, 5.0);  // 100 ms budget, warn after 500 ms
  profile.beginTick(7);
  profile.enter(TickPhase::kBehavior);
  profile.atAgent(EntityId{1101});

  SECTION("Should stay quiet within the limit") {
    CHECK_FALSE(watchdog.check(fake_now + 499 * kMs));
    CHECK(watchdog.stalls() == 0);
  }
  SECTION("Should report the tick, its time, phase and agent past the limit") {
    const auto report = watchdog.check(fake_now + 612 * kMs);
    REQUIRE(report);
    CHECK(report->text(watchdog.budgetMs()) ==
          "tick 7 has run 612 ms (6.1 budgets of 100 ms), in phase behavior at agent 1101");
    CHECK(watchdog.stalls() == 1);
    SECTION("Should not report the same tick twice") {
      CHECK_FALSE(watchdog.check(fake_now + 2000 * kMs));
      CHECK(watchdog.stalls() == 1);
    }
  }
  SECTION("Should say 'between agents' outside a per-agent loop") {
    profile.enter(TickPhase::kPerception);
    const auto report = watchdog.check(fake_now + 600 * kMs);
    REQUIRE(report);
    CHECK(report->text(watchdog.budgetMs()) ==
          "tick 7 has run 600 ms (6.0 budgets of 100 ms), in phase perception between agents");
  }
  SECTION("Should ignore a tick that has ended, and report the next slow one") {
    profile.endTick();
    CHECK_FALSE(watchdog.check(fake_now + 5000 * kMs));
    CHECK(watchdog.whereIsTheTick() == "between ticks (last tick 7)");
    fake_now += 7000 * kMs;
    profile.beginTick(8);
    CHECK_FALSE(watchdog.check(fake_now + 100 * kMs));  // tick 8 has just begun
    const auto report = watchdog.check(fake_now + 700 * kMs);
    REQUIRE(report);
    CHECK(report->tick == 8);
  }
  SECTION("Should describe where a running tick is") {
    fake_now += 3200 * kMs;
    CHECK(watchdog.whereIsTheTick() == "tick 7, phase behavior, at agent 1101, running 3.2 s");
  }
}

TEST_CASE("TickWatchdog's thread catches a simulation stalled at one agent", "[watchdog]") {
  test::DemoWorld demo;
  Simulation& sim = *demo.sim;
  TickWatchdog watchdog(sim.profile(), 0.01, 2.0);  // warn after 20 ms
  std::mutex mutex;
  std::condition_variable cv;
  std::optional<StallReport> seen;
  watchdog.start([&](const StallReport& r) {
    std::lock_guard lock(mutex);
    seen = r;
    cv.notify_all();
  });
  const EntityId baker{1101};
  // The hook holds the tick at the baker until the watchdog has spoken (or 10 s passed,
  // so a broken watchdog fails the test instead of hanging it).
  sim.profile().setStallHook(baker, [&] {
    std::unique_lock lock(mutex);
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return seen.has_value(); });
  });
  sim.tick();
  watchdog.stop();
  REQUIRE(seen);
  CHECK(seen->tick == 1);
  CHECK(seen->phase == TickPhase::kSelection);
  CHECK(seen->agent == baker);
  CHECK(seen->budgets >= 2.0);
  CHECK(watchdog.stalls() == 1);
}
