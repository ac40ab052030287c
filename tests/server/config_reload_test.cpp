// The config file read again while the daemon runs (server/config_reload.h): perception
// tuning changes live (seed 000's ai_SOM_SPEED, the game's difficulty), other keys are named
// as needing a restart, a broken file changes nothing.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>

#include "config_reload.h"
#include "daemon.h"
#include "daemon_test_support.h"
#include "npc/v1/npc.grpc.pb.h"

using namespace npc;

namespace {

// A config file in its own scratch directory, rewritten by the test.
struct ConfigFile {
  std::filesystem::path dir;
  std::string path;

  ConfigFile() {
    dir = std::filesystem::temp_directory_path() /
          ("npcd_config_reload_" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(dir);
    path = (dir / "npcd.json").string();
  }
  ~ConfigFile() { std::filesystem::remove_all(dir); }
  void write(const std::string& text) const {
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }
  DaemonConfig load() const {
    DaemonConfig c;
    std::vector<std::string> errors;
    REQUIRE(loadConfigFile(path, c, errors));
    return c;
  }
};

std::string configText(double som_speed, int tick_hz = 50, double poll_s = 0.1) {
  return R"({ "listen": "127.0.0.1:0", "tick_hz": )" + std::to_string(tick_hz) +
         R"(, "definitions_poll_s": )" + std::to_string(poll_s) +
         R"(, "status_interval_s": 0, "log_level": "warn",
             "perception": { "som_speed": )" + std::to_string(som_speed) +
         R"(, "memory": { "base_s": 5 } } })";
}

float somSpeedOf(const Daemon& daemon) {
  auto stub = v1::NpcSim::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(daemon.port()), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  v1::SetPerceptionTuningResponse now;
  REQUIRE(stub->SetPerceptionTuning(&ctx, v1::SetPerceptionTuningRequest(), &now).ok());
  return now.som_speed();
}

}  // namespace

TEST_CASE("ConfigReload says what changed, live or at the next start", "[config][reload]") {
  ConfigFile file;
  file.write(configText(1.5));
  ConfigReload reload(file.path, file.load());

  SECTION("Should report nothing while the file is unchanged") {
    REQUIRE_FALSE(reload.poll());
  }
  SECTION("Should hand over new tuning and name the keys that need a restart") {
    file.write(R"({ "listen": "127.0.0.1:0", "tick_hz": 20, "definitions_poll_s": 0.1,
                    "status_interval_s": 0, "log_level": "warn",
                    "perception": { "som_speed": 1.2, "suspicious_threshold": 4,
                                    "memory": { "base_s": 6 } } })");
    const std::optional<ConfigChange> change = reload.poll();
    REQUIRE(change);
    REQUIRE(change->errors.empty());
    REQUIRE(change->tuning);
    CHECK(change->tuning->som_speed == 1.2f);
    CHECK(change->tuning->suspicious_threshold == 4.f);
    CHECK_FALSE(change->tuning->decay_per_update);
    CHECK(change->needs_restart == std::vector<std::string>{"tick_hz", "perception/memory"});
    REQUIRE_FALSE(reload.poll());  // taken once
  }
  SECTION("Should refuse a broken file, naming it, and compare the next one with the last good") {
    file.write(R"({ "tick_hz": -3 })");
    std::optional<ConfigChange> change = reload.poll();
    REQUIRE(change);
    REQUIRE(change->errors.size() == 1);
    CHECK(change->errors[0].find(file.path) == 0);
    CHECK(change->errors[0].find("tick_hz") != std::string::npos);
    CHECK_FALSE(change->tuning);
    REQUIRE_FALSE(reload.poll());  // reported once, not on every poll
    file.write(configText(0.9));
    change = reload.poll();
    REQUIRE(change);
    REQUIRE(change->errors.empty());
    CHECK(change->needs_restart.empty());
    REQUIRE(change->tuning);
    CHECK(change->tuning->som_speed == 0.9f);
  }
}

TEST_CASE("A running daemon takes new perception tuning from its config file",
          "[config][reload][daemon]") {
  ConfigFile file;

  SECTION("Should apply an edit on its own poll") {
    file.write(configText(1.5));
    Daemon daemon(file.load());
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    REQUIRE(somSpeedOf(daemon) == 1.5f);
    file.write(configText(0.6));
    REQUIRE(test::waitFor([&] { return somSpeedOf(daemon) == 0.6f; }));
    daemon.shutdown();
  }
  SECTION("Should apply an edit on request (SIGHUP) when it does not poll") {
    file.write(configText(1.5, 50, 0));
    Daemon daemon(file.load());
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    file.write(configText(2.5, 50, 0));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    REQUIRE(somSpeedOf(daemon) == 1.5f);  // no poll: unchanged until asked
    daemon.requestConfigReload();
    REQUIRE(test::waitFor([&] { return somSpeedOf(daemon) == 2.5f; }));
    daemon.shutdown();
  }
}
