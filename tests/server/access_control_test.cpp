// Per-client credentials and roles (server/access_control.cpp) over real gRPC: who a caller
// is, what its role lets it call, and that a named client keeps its entities across streams.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "daemon.h"
#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

ServerSetup withCredentials() {
  ServerSetup setup;
  setup.credentials = {{"game-a", "token-a", "", Role::kGame},
                       {"game-b", "token-b", "", Role::kGame},
                       {"dashboard", "token-o", "", Role::kObserver},
                       {"ops", "token-x", "", Role::kAdmin}};
  return setup;
}

v1::WorldUpdate npcAt(uint64_t seq, uint64_t id, float x) {
  v1::WorldUpdate update;
  update.set_seq(seq);
  addEntity(update, id, v1::ENTITY_KIND_NPC, x, 0.f, "statue");
  return update;
}

v1::SendSignalRequest signalTo(uint64_t agent) {
  v1::SendSignalRequest request;
  request.mutable_signal()->set_name("Alarm");
  request.mutable_signal()->set_target(agent);
  return request;
}

}  // namespace

TEST_CASE("A call is identified by its credential and allowed by its role", "[auth][roles]") {
  TestServer server(withCredentials());
  Admin observer(server.channel(), "token-o");
  Admin game_a(server.channel(), "token-a");
  Admin game_b(server.channel(), "token-b");
  Admin ops(server.channel(), "token-x");

  SECTION("Should refuse a missing or unknown token with UNAUTHENTICATED") {
    v1::GetStatsResponse stats;
    const grpc::Status none = Admin(server.channel()).stats(&stats);
    CHECK(none.error_code() == grpc::StatusCode::UNAUTHENTICATED);
    CHECK(none.error_message() ==
          "missing or invalid bearer token (metadata \"authorization: Bearer <token>\") or "
          "client certificate");
    CHECK(Admin(server.channel(), "token-z").stats(&stats).error_code() ==
          grpc::StatusCode::UNAUTHENTICATED);
  }
  SECTION("Should let an observer read, and nothing else") {
    v1::GetStatsResponse stats;
    CHECK(observer.stats(&stats).ok());
    CHECK(observer.get(1).error_code() == grpc::StatusCode::NOT_FOUND);
    const grpc::Status spawn = observer.spawn(10, "statue", v1::ENTITY_KIND_NPC);
    CHECK(spawn.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(spawn.error_message() ==
          "SpawnAgent: role observer (client \"dashboard\") may not call it");
  }
  SECTION("Should let an observer read a plan trace but not switch tracing") {
    v1::GetPlanTraceRequest read;
    read.set_agent(1);
    CHECK(observer.call(&v1::NpcSim::Stub::GetPlanTrace, read).error_code() ==
          grpc::StatusCode::NOT_FOUND);  // allowed: the tick thread looked for agent 1
    v1::GetPlanTraceRequest toggle = read;
    toggle.set_trace(true);
    const grpc::Status refused = observer.call(&v1::NpcSim::Stub::GetPlanTrace, toggle);
    CHECK(refused.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(refused.error_message() ==
          "GetPlanTrace with trace: role observer (client \"dashboard\") may not call it");
    CHECK(game_a.call(&v1::NpcSim::Stub::GetPlanTrace, toggle).error_code() ==
          grpc::StatusCode::PERMISSION_DENIED);
    CHECK(ops.call(&v1::NpcSim::Stub::GetPlanTrace, toggle).error_code() ==
          grpc::StatusCode::NOT_FOUND);
  }
  SECTION("Should let a game spawn and despawn its own agents, not call admin RPCs") {
    REQUIRE(game_a.spawn(11, "statue", v1::ENTITY_KIND_NPC).ok());
    const int64_t a = game_a.owner(11);
    CHECK(a != kUnownedRaw);
    CHECK(a > 0);
    const grpc::Status foreign = game_b.despawn(11);
    CHECK(foreign.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(foreign.error_message() == "entity 11: owned by another client");
    const grpc::Status signal = game_a.call(&v1::NpcSim::Stub::SendSignal, signalTo(11));
    CHECK(signal.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(signal.error_message() == "SendSignal: role game (client \"game-a\") may not call it");
    const grpc::Status snapshot = game_a.call(&v1::NpcSim::Stub::Snapshot, v1::SnapshotRequest());
    CHECK(snapshot.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(snapshot.error_message() == "Snapshot: role game (client \"game-a\") may not call it");
    CHECK(game_a.despawn(11).ok());
    CHECK(game_a.get(11).error_code() == grpc::StatusCode::NOT_FOUND);
  }
  SECTION("Should let an admin change any agent; what it spawns is shared") {
    REQUIRE(game_a.spawn(12, "statue", v1::ENTITY_KIND_NPC).ok());
    CHECK(ops.call(&v1::NpcSim::Stub::SendSignal, signalTo(12)).ok());
    REQUIRE(ops.spawn(13, "statue", v1::ENTITY_KIND_NPC).ok());
    CHECK(ops.owner(13) == kUnownedRaw);
    CHECK(ops.despawn(12).ok());
  }
}

TEST_CASE("An observer's stream may only subscribe", "[auth][roles]") {
  TestServer server(withCredentials());
  StreamClient watcher(server.channel(), true, "token-o");
  REQUIRE(watcher.waitWelcome() != 0);
  v1::WorldUpdate update = npcAt(3, 20, 1.f);
  update.mutable_subscribe()->set_observe_all_actions(true);
  REQUIRE(watcher.send(update));
  CHECK(watcher.waitError(3, "update 3 refused: an observer's stream may only subscribe"));
  CHECK(Admin(server.channel(), "token-x").get(20).error_code() == grpc::StatusCode::NOT_FOUND);
}

TEST_CASE("A named client gets its entities back when it reconnects", "[auth][roles]") {
  TestServer server(withCredentials());
  Admin ops(server.channel(), "token-x");
  uint32_t first_id = 0;
  {
    StreamClient a(server.channel(), true, "token-a");
    first_id = a.waitWelcome();
    REQUIRE(first_id != 0);
    REQUIRE(a.send(npcAt(1, 30, 1.f)));
    REQUIRE(eventually([&] { return ops.owner(30) == first_id; }));
    a.vanish();
  }
  REQUIRE(eventually([&] { return server.hub().clientCount() == 0; }));

  SECTION("Should keep it owned while away: another client cannot move it") {
    StreamClient b(server.channel(), true, "token-b");
    REQUIRE(b.waitWelcome() != 0);
    REQUIRE(b.send(npcAt(2, 30, 9.f)));
    CHECK(b.waitError(2, "upserts[0] (id 30): owned by another client"));
    CHECK(ops.owner(30) == first_id);
    CHECK(ops.view(30)["position"][0] == 1.0);
  }
  SECTION("Should give the same client id back and accept its updates") {
    StreamClient again(server.channel(), true, "token-a");
    CHECK(again.waitWelcome() == first_id);
    REQUIRE(again.send(npcAt(3, 30, 4.f)));
    CHECK(eventually([&] { return ops.view(30)["position"][0] == 4.0; }));
    CHECK(ops.owner(30) == first_id);
  }
}

namespace {

// A throw-away CA, a server certificate for localhost and client certificates, made with
// openssl in a temporary directory.
class Certificates {
 public:
  Certificates()
      : dir_(std::filesystem::temp_directory_path() /
             ("npcd-mtls-" +
              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()))) {
    std::filesystem::create_directories(dir_);
    run("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=npcd-test-ca -keyout " +
        path("ca.key") + " -out " + path("ca.pem"));
    issue("server", "localhost", "DNS:localhost");
    issue("client", "game-eu", "DNS:eu.game.example");
  }
  ~Certificates() { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name));
    return {std::istreambuf_iterator<char>(in), {}};
  }

 private:
  static void run(const std::string& command) {
    REQUIRE(std::system((command + " > /dev/null 2>&1").c_str()) == 0);
  }
  void issue(const std::string& name, const std::string& cn, const std::string& san) {
    std::ofstream(path(name + ".ext")) << "subjectAltName=" << san << "\n";
    run("openssl req -newkey rsa:2048 -nodes -subj /CN=" + cn + " -keyout " +
        path(name + ".key") + " -out " + path(name + ".csr"));
    run("openssl x509 -req -days 1 -in " + path(name + ".csr") + " -CA " + path("ca.pem") +
        " -CAkey " + path("ca.key") + " -CAcreateserial -extfile " + path(name + ".ext") +
        " -out " + path(name + ".pem"));
  }

  std::filesystem::path dir_;
};

std::shared_ptr<grpc::Channel> tlsChannel(const Certificates& certs, int port,
                                          bool with_client_certificate) {
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = certs.read("ca.pem");
  if (with_client_certificate) {
    options.pem_private_key = certs.read("client.key");
    options.pem_cert_chain = certs.read("client.pem");
  }
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride("localhost");
  return grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(port),
                                   grpc::SslCredentials(options), args);
}

DaemonConfig mutualTls(const Certificates& certs, const std::string& mode) {
  DaemonConfig c = quietDaemonConfig();
  c.tls_cert = certs.path("server.pem");
  c.tls_key = certs.path("server.key");
  c.tls_client_ca = certs.path("ca.pem");
  c.tls_client_auth = mode;
  c.clients = {{"eu", "", "eu.game.example", Role::kGame},
               {"ops", "ops-token", "", Role::kAdmin}};
  return c;
}

}  // namespace

TEST_CASE("TLS client certificates identify a client", "[auth][tls]") {
  Certificates certs;

  SECTION("Should map a required certificate's SAN to its client and role") {
    Daemon daemon(mutualTls(certs, "require"));
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    Admin eu(tlsChannel(certs, daemon.port(), true));
    v1::GetStatsResponse stats;
    CHECK(eu.stats(&stats).ok());
    const grpc::Status signal = eu.call(&v1::NpcSim::Stub::SendSignal, signalTo(1));
    CHECK(signal.error_code() == grpc::StatusCode::PERMISSION_DENIED);
    CHECK(signal.error_message() == "SendSignal: role game (client \"eu\") may not call it");
    // No certificate: the TLS handshake itself fails.
    Admin anonymous(tlsChannel(certs, daemon.port(), false), "ops-token");
    CHECK(anonymous.stats(&stats).error_code() == grpc::StatusCode::UNAVAILABLE);
    daemon.shutdown();
  }
  SECTION("Should accept a token instead when certificates are only requested") {
    Daemon daemon(mutualTls(certs, "request"));
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    v1::GetStatsResponse stats;
    CHECK(Admin(tlsChannel(certs, daemon.port(), false), "ops-token").stats(&stats).ok());
    CHECK(Admin(tlsChannel(certs, daemon.port(), false)).stats(&stats).error_code() ==
          grpc::StatusCode::UNAUTHENTICATED);
    CHECK(Admin(tlsChannel(certs, daemon.port(), true)).stats(&stats).ok());
    daemon.shutdown();
  }
}

TEST_CASE("A restored daemon gives each named client its id again and new clients fresh ids",
          "[auth][roles][state]") {
  // The simulation as a restore leaves it: game-a was client 4, an anonymous client 12.
  Simulation sim(SimConfig{}, ArchetypeSet{});
  sim.submit({ClientId{4}, 0, BindClient{"game-a"}});
  sim.submit({ClientId{12}, 0, InterruptInFlight{}});
  sim.tick();
  ClientHub hub(sim, HubLimits{});
  CHECK(hub.identityClient("game-a") == ClientId{4});
  const ClientId b = hub.identityClient("game-b");
  CHECK(raw(b) == 13);  // above every id used before
  sim.tick();           // the new binding reaches the simulation (and the journal)
  CHECK(sim.clients().find("game-b") == b);
  CHECK(hub.identityClient("game-b") == b);
}
