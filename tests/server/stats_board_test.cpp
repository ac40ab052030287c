// StatsBoard's tick percentiles, which GetStats reports: computed when read, from the ticks
// recorded so far, so they do not wait for the status line (status_interval_s).
#include <chrono>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>

#include "daemon.h"
#include "grpc_fixture.h"
#include "stats_board.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("StatsBoard reports tick percentiles over the recorded window", "[stats]") {
  StatsBoard board;
  DaemonStats stored;
  stored.tick_p50_ms = 7.0;
  stored.tick_p99_ms = 8.0;
  board.store(stored);

  SECTION("Should keep the stored percentiles while no tick was recorded") {
    CHECK(board.load().tick_p50_ms == 7.0);
    CHECK(board.load().tick_p99_ms == 8.0);
  }
  SECTION("Should compute them from the recorded ticks as soon as there are some") {
    for (int ms = 1; ms <= 100; ++ms) board.recordTick(ms);
    CHECK(board.load().tick_p50_ms == 50.0);
    CHECK(board.load().tick_p99_ms == 99.0);
    board.store(stored);  // the next tick's figures do not overwrite them
    CHECK(board.load().tick_p50_ms == 50.0);
  }
  SECTION("Should follow the most recent ticks once the window is full") {
    for (size_t i = 0; i < TickStats::kWindow; ++i) board.recordTick(100.0);
    for (size_t i = 0; i < TickStats::kWindow; ++i) board.recordTick(1.0);
    CHECK(board.load().tick_p99_ms == 1.0);
  }
}

TEST_CASE("GetStats reports current tick percentiles whatever the status interval",
          "[stats][daemon]") {
  DaemonConfig c;
  std::vector<std::string> errors;
  REQUIRE(loadConfigFile(NPCD_SOURCE_DIR "/config/npcd.json", c, errors));
  c.listen = "127.0.0.1:0";
  c.metrics_listen.clear();
  c.tick_hz = 20;
  c.status_interval_s = 3600;  // no status line (nor its refresh) during the test
  c.definitions_poll_s = 0;
  c.log_level = "warn";
  c.shutdown_grace_s = 1;
  Daemon daemon(c);
  REQUIRE(daemon.start(errors));
  Admin admin(grpc::CreateChannel("127.0.0.1:" + std::to_string(daemon.port()),
                                  grpc::InsecureChannelCredentials()));

  v1::GetStatsResponse stats;
  REQUIRE(eventually([&] { return admin.stats(&stats).ok() && stats.tick() >= 30; },
                     std::chrono::seconds(10)));
  CHECK(stats.tick_p50_ms() > 0.0);
  CHECK(stats.tick_p99_ms() >= stats.tick_p50_ms());
  SECTION("Should report every tick phase, in the tick's order, with its percentiles") {
    const std::vector<std::string> order{"ingest",   "places",   "perception", "selection",
                                         "behavior", "planning", "scheduling", "emit"};
    REQUIRE(stats.phases_size() == static_cast<int>(order.size()));
    double p50_sum = 0.0;
    for (int i = 0; i < stats.phases_size(); ++i) {
      CHECK(stats.phases(i).phase() == order[static_cast<size_t>(i)]);
      CHECK(stats.phases(i).p99_ms() >= stats.phases(i).p50_ms());
      p50_sum += stats.phases(i).p50_ms();
    }
    CHECK(p50_sum > 0.0);  // the demo world keeps some phase busy every tick
  }
  daemon.shutdown();
}
