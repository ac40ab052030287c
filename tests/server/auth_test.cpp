// Bearer tokens, TLS, the loopback rule and per-stream rate limits, over real gRPC.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>

#include "daemon.h"
#include "grpc_fixture.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "npc/v1/npc.grpc.pb.h"

using namespace npc;
using namespace std::chrono_literals;

namespace {

DaemonConfig quietConfig() { return npc::test::quietDaemonConfig(); }

grpc::Status getStats(const std::shared_ptr<grpc::Channel>& channel, const std::string& token) {
  auto stub = v1::NpcSim::NewStub(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 5s);
  if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  v1::GetStatsResponse stats;
  return stub->GetStats(&ctx, v1::GetStatsRequest{}, &stats);
}

std::shared_ptr<grpc::Channel> plaintext(int port) {
  return grpc::CreateChannel("127.0.0.1:" + std::to_string(port),
                             grpc::InsecureChannelCredentials());
}

}  // namespace

TEST_CASE("A bearer token guards every call but the health check", "[auth]") {
  DaemonConfig c = quietConfig();
  c.auth_token = "s3cret";
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  auto channel = plaintext(daemon.port());

  SECTION("Should refuse a call without a token, or with a wrong one") {
    const grpc::Status none = getStats(channel, "");
    REQUIRE(none.error_code() == grpc::StatusCode::UNAUTHENTICATED);
    REQUIRE_THAT(none.error_message(), Catch::Contains("bearer token"));
    REQUIRE(getStats(channel, "s3cre").error_code() == grpc::StatusCode::UNAUTHENTICATED);
    REQUIRE(getStats(channel, "s3cret!").error_code() == grpc::StatusCode::UNAUTHENTICATED);
  }
  SECTION("Should accept the right token") { REQUIRE(getStats(channel, "s3cret").ok()); }
  SECTION("Should end a stream opened without the token with UNAUTHENTICATED") {
    auto stub = v1::NpcSim::NewStub(channel);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 5s);
    auto stream = stub->Connect(&ctx);
    v1::ServerMessage msg;
    REQUIRE_FALSE(stream->Read(&msg));
    REQUIRE(stream->Finish().error_code() == grpc::StatusCode::UNAUTHENTICATED);
  }
  SECTION("Should answer health probes without a token") {
    auto health = grpc::health::v1::Health::NewStub(channel);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 5s);
    grpc::health::v1::HealthCheckResponse response;
    REQUIRE(health->Check(&ctx, grpc::health::v1::HealthCheckRequest{}, &response).ok());
    REQUIRE(response.status() == grpc::health::v1::HealthCheckResponse::SERVING);
  }
  daemon.shutdown();
}

TEST_CASE("Listening beyond loopback needs a token", "[auth]") {
  DaemonConfig c = quietConfig();
  c.listen = "0.0.0.0:0";
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE_FALSE(daemon.start(errors));
  REQUIRE(errors == std::vector<std::string>{
                        "listening on 0.0.0.0:0 beyond loopback needs auth_token (config) or "
                        "NPCD_AUTH_TOKEN (env)"});
}

TEST_CASE("TLS with a token", "[auth][tls]") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("npcd-tls-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(dir);
  const std::string cert = (dir / "cert.pem").string(), key = (dir / "key.pem").string();
  const std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
                          "-addext subjectAltName=DNS:localhost -keyout " + key + " -out " + cert +
                          " > /dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  DaemonConfig c = quietConfig();
  c.auth_token = "tok";
  c.tls_cert = cert;
  c.tls_key = key;
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));

  SECTION("Should serve a TLS client that trusts the certificate and sends the token") {
    std::ifstream in(cert);
    grpc::SslCredentialsOptions options;
    options.pem_root_certs.assign(std::istreambuf_iterator<char>(in), {});
    grpc::ChannelArguments args;
    args.SetSslTargetNameOverride("localhost");
    auto channel = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(daemon.port()),
                                             grpc::SslCredentials(options), args);
    REQUIRE(getStats(channel, "tok").ok());
    REQUIRE(getStats(channel, "").error_code() == grpc::StatusCode::UNAUTHENTICATED);
  }
  SECTION("Should not serve a plaintext client") {
    REQUIRE(getStats(plaintext(daemon.port()), "tok").error_code() ==
            grpc::StatusCode::UNAVAILABLE);
  }
  daemon.shutdown();
  std::filesystem::remove_all(dir);
}

TEST_CASE("Per-stream rate limits refuse excess updates, naming them", "[auth][rate]") {
  DaemonConfig c = quietConfig();
  c.max_updates_per_s = 5;
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  auto stub = v1::NpcSim::NewStub(plaintext(daemon.port()));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 10s);
  auto stream = stub->Connect(&ctx);
  v1::ServerMessage msg;
  REQUIRE(stream->Read(&msg));  // welcome
  for (int i = 1; i <= 30; ++i) {
    v1::WorldUpdate update;
    update.set_seq(static_cast<uint64_t>(i));
    REQUIRE(stream->Write(update));
  }
  int refused = 0;
  while (refused < 20 && stream->Read(&msg)) {
    for (const auto& e : msg.events()) {
      if (e.kind() == v1::EVENT_KIND_ERROR &&
          e.text().find("more than 5 updates/s on this stream") != std::string::npos) {
        ++refused;
      }
    }
  }
  // A burst of 30 against 5/s with a bucket of 5: at least 20 must be refused.
  REQUIRE(refused >= 20);
  ctx.TryCancel();
  daemon.shutdown();
}
