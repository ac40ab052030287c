// HealthHistory: one sample per period from the ticks observed in it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "debug/health_history.h"

using namespace npc;
using namespace std::chrono_literals;

TEST_CASE("Health samples summarise each second of ticks", "[debug][health]") {
  HealthHistory history(3, 1s);
  const auto t0 = HealthHistory::Clock::time_point{} + 100s;
  DaemonStats s;
  s.sim.agents_awake = 7;
  s.sim.agents_asleep = 2;
  history.observe(s, 0.002, t0);  // starts the history: counters are taken from here
  s.sim.actions_emitted = 30;
  s.sim.errors = 4;
  history.observe(s, 0.006, t0 + 500ms);
  SECTION("Should not sample before a period has passed") {
    REQUIRE(history.json()["samples"].empty());
  }
  SECTION("Should give mean and max tick time and rates per second") {
    history.observe(s, 0.004, t0 + 2s);
    const nlohmann::json samples = history.json()["samples"];
    REQUIRE(samples.size() == 1);
    REQUIRE(samples[0]["ticks"] == 3);
    REQUIRE(samples[0]["tick_mean_ms"].get<double>() == Approx(4.0));
    REQUIRE(samples[0]["tick_max_ms"].get<double>() == Approx(6.0));
    REQUIRE(samples[0]["actions_per_s"].get<double>() == Approx(15.0));
    REQUIRE(samples[0]["errors_per_s"].get<double>() == Approx(2.0));
    REQUIRE(samples[0]["agents_awake"] == 7);
    REQUIRE(samples[0]["t_s"].get<double>() == Approx(2.0));
  }
  SECTION("Should give each phase's mean time, by name") {
    HealthHistory::PhaseMs planning_heavy{};
    planning_heavy[index(TickPhase::kPlanning)] = 3.0;
    planning_heavy[index(TickPhase::kPerception)] = 1.0;
    HealthHistory::PhaseMs light{};
    light[index(TickPhase::kPlanning)] = 1.0;
    history.observe(s, 0.004, t0 + 700ms, planning_heavy);
    history.observe(s, 0.004, t0 + 1s, light);
    const nlohmann::json samples = history.json()["samples"];
    REQUIRE(samples.size() == 1);
    // Four ticks in the second: the first two observed with no phases.
    REQUIRE(samples[0]["phase_mean_ms"]["planning"].get<double>() == Approx(1.0));
    REQUIRE(samples[0]["phase_mean_ms"]["perception"].get<double>() == Approx(0.25));
    REQUIRE(samples[0]["phase_mean_ms"]["emit"].get<double>() == Approx(0.0));
    REQUIRE(samples[0]["phase_mean_ms"].size() == kTickPhaseCount);
    const nlohmann::json order = history.json()["phases"];
    REQUIRE(order.size() == kTickPhaseCount);
    REQUIRE(order[0] == "ingest");   // tick order, not the samples' sorted keys
    REQUIRE(order[7] == "emit");
  }
  SECTION("Should keep only the newest samples") {
    for (int i = 1; i <= 5; ++i) history.observe(s, 0.001 * i, t0 + std::chrono::seconds(i));
    const nlohmann::json samples = history.json()["samples"];
    REQUIRE(samples.size() == 3);
    REQUIRE(samples[2]["t_s"].get<double>() == Approx(5.0));
    REQUIRE(samples[2]["tick_max_ms"].get<double>() == Approx(5.0));
  }
}
