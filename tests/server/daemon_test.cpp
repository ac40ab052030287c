// The whole daemon in-process: demo world, gRPC on an ephemeral port, graceful shutdown.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "build_info.h"
#include "daemon.h"
#include "daemon_test_support.h"
#include "grpc_fixture.h"
#include "npc/v1/npc.grpc.pb.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

DaemonConfig demoConfig() { return test::demoDaemonConfig(); }

// NPCs in the demo world file: the daemon must spawn every one.
uint64_t demoNpcs() {
  std::ifstream in(NPCD_SOURCE_DIR "/config/demo.json");
  const nlohmann::json world = nlohmann::json::parse(in);
  uint64_t n = 0;
  for (const auto& e : world.at("entities")) n += e.at("kind") == "npc";
  return n;
}

using test::waitFor;

}  // namespace

TEST_CASE("The daemon runs the demo world and serves clients", "[daemon]") {
  Daemon daemon(demoConfig());
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  REQUIRE(errors.empty());
  REQUIRE(daemon.port() > 0);

  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(daemon.port()),
                                     grpc::InsecureChannelCredentials());
  auto stub = npc::v1::NpcSim::NewStub(channel);

  SECTION("Should load the demo's agents and keep them acting with simulated players") {
    REQUIRE(waitFor([&] { return daemon.stats().load().sim.actions_completed >= 5; }));
    const DaemonStats s = daemon.stats().load();
    REQUIRE(s.sim.agents == demoNpcs());
    REQUIRE(s.sim.plans > 0);  // the demo's planners (config/goap) are wired in
    REQUIRE(s.sim.places == 4);
    REQUIRE(s.sim.errors == 0);

    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 5s);
    npc::v1::GetStatsResponse stats;
    REQUIRE(stub->GetStats(&ctx, npc::v1::GetStatsRequest{}, &stats).ok());
    REQUIRE(stats.agents() == demoNpcs());
    REQUIRE(stats.tick() > 0);
  }
  SECTION("Should stream the demo NPCs' actions to an observing client") {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 10s);
    auto stream = stub->Connect(&ctx);
    npc::v1::ServerMessage msg;
    REQUIRE(stream->Read(&msg));
    REQUIRE(msg.has_welcome());
    npc::v1::WorldUpdate update;
    update.set_seq(1);
    update.mutable_subscribe()->set_observe_all_actions(true);
    REQUIRE(stream->Write(update));
    bool saw_action = false;
    while (!saw_action && stream->Read(&msg)) {
      for (const auto& a : msg.actions()) {
        saw_action = saw_action || (a.agent() >= 1001 && a.agent() <= 1401 && a.intention() > 0);
      }
    }
    REQUIRE(saw_action);
    SECTION("Should end the stream with UNAVAILABLE on shutdown, and exit cleanly") {
      daemon.shutdown();
      while (stream->Read(&msg)) {
      }
      const grpc::Status status = stream->Finish();
      REQUIRE(status.error_code() == grpc::StatusCode::UNAVAILABLE);
    }
  }
  daemon.shutdown();
}

using test::httpGet;

TEST_CASE("The daemon serves Prometheus metrics", "[daemon][metrics]") {
  Daemon daemon(demoConfig());
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  REQUIRE(daemon.metricsPort() > 0);
  REQUIRE(waitFor([&] { return daemon.stats().load().sim.actions_emitted >= 3; }));
  const std::string body = httpGet(daemon.metricsPort(), "/metrics");
  REQUIRE_THAT(body, Catch::Contains("npcd_tick_duration_seconds_bucket"));
  REQUIRE_THAT(body, Catch::Contains("npcd_agents{state=\"awake\"} " + std::to_string(demoNpcs())));
  REQUIRE_THAT(body, Catch::Contains("npcd_plans_total"));
  REQUIRE_THAT(body, Catch::Contains("npcd_plan_search_seconds_bucket{le=\"5e-06\"}"));
  REQUIRE_THAT(body, Catch::Contains("npcd_stream_clients 0"));
  REQUIRE_THAT(body, Catch::Contains("npcd_actions_total"));
  REQUIRE_THAT(body, Catch::Contains("npcd_perception_rays_total"));
  REQUIRE_THAT(body, Catch::Contains("npcd_navmesh_obstacle_changes_waiting 0"));
  REQUIRE_THAT(body, Catch::Contains("npcd_navmesh_tile_rebuilds_total"));
  REQUIRE_THAT(body, Catch::Contains("npcd_navmesh_long_searches_waiting 0"));
  REQUIRE_THAT(body, Catch::Contains("npcd_navmesh_long_searches_total"));
  REQUIRE_THAT(body, Catch::Contains("npcd_thread_cpu_seconds_total{thread=\"npcd-tick\"}"));
  REQUIRE_THAT(body, Catch::Contains("npcd_thread_cpu_seconds_total{thread=\"other\"}"));
  // prometheus-cpp writes labels in name order.
  REQUIRE_THAT(body, Catch::Contains("npcd_build_info{revision=\"" + std::string(buildRevision()) +
                                     "\",version=\"" NPCD_PROJECT_VERSION "\"} 1"));
  daemon.shutdown();
}

TEST_CASE("The daemon's metrics count gRPC calls by method and code, places, outboxes and "
          "its process", "[daemon][metrics]") {
  Daemon daemon(demoConfig());
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  auto stub = npc::v1::NpcSim::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(daemon.port()), grpc::InsecureChannelCredentials()));
  for (int i = 0; i < 2; ++i) {
    grpc::ClientContext ctx;
    npc::v1::GetStatsResponse stats;
    REQUIRE(stub->GetStats(&ctx, npc::v1::GetStatsRequest{}, &stats).ok());
  }
  grpc::ClientContext ctx;
  npc::v1::GetAgentRequest unknown;
  unknown.set_id(999999);
  npc::v1::GetAgentResponse agent;
  REQUIRE(stub->GetAgent(&ctx, unknown, &agent).error_code() == grpc::StatusCode::NOT_FOUND);
  REQUIRE(waitFor([&] { return daemon.stats().load().sim.tick >= 3; }));

  const std::string body = httpGet(daemon.metricsPort(), "/metrics");
  // prometheus-cpp writes labels in name order.
  CHECK_THAT(body, Catch::Contains("grpc_server_handled_total{grpc_code=\"OK\",grpc_method="
                                   "\"GetStats\",grpc_service=\"npc.v1.NpcSim\",grpc_type="
                                   "\"unary\"} 2"));
  CHECK_THAT(body, Catch::Contains("grpc_server_handled_total{grpc_code=\"NOT_FOUND\","
                                   "grpc_method=\"GetAgent\",grpc_service=\"npc.v1.NpcSim\","
                                   "grpc_type=\"unary\"} 1"));
  CHECK_THAT(body, Catch::Contains("grpc_server_handling_seconds_count{grpc_method=\"GetStats\","
                                   "grpc_service=\"npc.v1.NpcSim\",grpc_type=\"unary\"} 2"));
  const SimStats sim = daemon.stats().load().sim;
  CHECK_THAT(body, Catch::Contains("npcd_places{state=\"awake\"}"));
  CHECK_THAT(body, Catch::Contains("npcd_places{state=\"asleep\"}"));
  CHECK(sim.places_awake + sim.places_asleep == 4);
  CHECK_THAT(body, Catch::Contains("npcd_outbox_messages 0"));
  CHECK_THAT(body, Catch::Contains("npcd_outbox_messages_max 0"));
  CHECK_THAT(body, Catch::Contains("process_cpu_seconds_total "));
  CHECK_THAT(body, Catch::Contains("process_resident_memory_bytes "));
  CHECK_THAT(body, Catch::Contains("process_open_fds "));
  CHECK_THAT(body, Catch::Contains("process_start_time_seconds "));
  daemon.shutdown();
}

TEST_CASE("The daemon refuses to start on bad definitions, naming them", "[daemon]") {
  DaemonConfig c = demoConfig();
  c.world = "/nonexistent/world.json";
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE_FALSE(daemon.start(errors));
  REQUIRE(errors == std::vector<std::string>{"/nonexistent/world.json: cannot open file"});
}

TEST_CASE("A second daemon on a port in use refuses to start", "[daemon]") {
  Daemon first(npc::test::quietDaemonConfig());
  std::vector<std::string> errors;
  REQUIRE(first.start(errors));
  DaemonConfig c = npc::test::quietDaemonConfig();
  c.listen = "127.0.0.1:" + std::to_string(first.port());
  Daemon second(c);
  REQUIRE_FALSE(second.start(errors));
  REQUIRE(errors == std::vector<std::string>{"cannot listen on " + c.listen +
                                             ": address in use (another npcd?) or invalid"});
  first.shutdown();
}

TEST_CASE("The daemon names its own threads", "[daemon]") {
  // What top -H and perf show: the tick, its pool and the watchdog apart from gRPC's threads.
  auto names = [] {
    std::set<std::string> found;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      std::string name;
      std::getline(std::ifstream(task.path() / "comm"), name);
      found.insert(name);
    }
    return found;
  };
  DaemonConfig c = npc::test::quietDaemonConfig();
  c.tick_threads = 2;
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  // Each thread names itself as it starts: give them the time to.
  std::set<std::string> running;
  waitFor([&] {
    running = names();
    return running.count("npcd-tick") && running.count("npcd-pool-1") &&
           running.count("npcd-watchdog");
  });
  CHECK(running.count("npcd-tick") == 1);
  CHECK(running.count("npcd-pool-1") == 1);
  CHECK(running.count("npcd-watchdog") == 1);
  daemon.shutdown();
}

TEST_CASE("Connections that never send the HTTP/2 preface are closed", "[daemon][limits]") {
  DaemonConfig c = npc::test::quietDaemonConfig();
  c.handshake_timeout_s = 0.5;
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  // The stated bound: handshake_timeout_s, plus slack for a loaded machine.
  CHECK(npc::test::idleConnectionsClosed(daemon.port(), 200, 2000ms) == 200);

  auto stub = npc::v1::NpcSim::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(daemon.port()), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 5s);
  npc::v1::GetStatsResponse stats;
  CHECK(stub->GetStats(&ctx, npc::v1::GetStatsRequest{}, &stats).ok());  // still serving
  daemon.shutdown();
}
