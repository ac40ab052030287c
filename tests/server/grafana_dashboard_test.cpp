// docker/grafana/npcd-dashboard.json queries only what npcd exposes: every metric name in
// every panel's expressions is a series on the demo daemon's /metrics.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "daemon.h"
#include "daemon_test_support.h"
#include "npc/v1/npc.grpc.pb.h"

using namespace npc;

namespace {

std::set<std::string> dashboardMetrics() {
  std::ifstream in(NPCD_SOURCE_DIR "/docker/grafana/npcd-dashboard.json");
  REQUIRE(in);
  const nlohmann::json dashboard = nlohmann::json::parse(in);
  const std::regex name(R"(\b(npcd_[a-z_]+|grpc_server_[a-z_]+|process_[a-z_]+)\b)");
  std::set<std::string> names;
  for (const auto& panel : dashboard.at("panels")) {
    for (const auto& target : panel.at("targets")) {
      const std::string expr = target.at("expr").get<std::string>();
      for (std::sregex_iterator it(expr.begin(), expr.end(), name), end; it != end; ++it) {
        names.insert((*it)[1]);
      }
    }
  }
  return names;
}

// Names of the series in a Prometheus text exposition: each sample line's metric name.
std::set<std::string> exposedSeries(const std::string& body) {
  std::set<std::string> names;
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    names.insert(line.substr(0, line.find_first_of("{ ")));
  }
  return names;
}

}  // namespace

TEST_CASE("The Grafana dashboard queries only metrics npcd exposes", "[daemon][metrics]") {
  const std::set<std::string> wanted = dashboardMetrics();
  REQUIRE(wanted.size() >= 20);
  REQUIRE(wanted.count("grpc_server_handled_total") == 1);
  REQUIRE(wanted.count("process_resident_memory_bytes") == 1);

  Daemon daemon(test::demoDaemonConfig());
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  // One call of each type the dashboard draws, so the per-method series exist.
  auto stub = v1::NpcSim::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(daemon.port()), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  v1::GetStatsResponse stats;
  REQUIRE(stub->GetStats(&ctx, v1::GetStatsRequest{}, &stats).ok());
  REQUIRE(test::waitFor([&] { return daemon.stats().load().sim.tick >= 3; }));

  const std::set<std::string> exposed =
      exposedSeries(test::httpGet(daemon.metricsPort(), "/metrics"));
  for (const std::string& metric : wanted) {
    INFO(metric);
    CHECK(exposed.count(metric) == 1);
  }
  daemon.shutdown();
}
