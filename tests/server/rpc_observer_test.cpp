// The pieces RpcObserver reports calls with: method names, status code names, the access
// log's line. The interceptor itself runs in the daemon ("The daemon counts every gRPC
// call by method and code" in daemon_test.cpp).
#include <catch2/catch.hpp>

#include "rpc_observer.h"

using namespace npc;

TEST_CASE("splitRpcName parts a method path into service and method", "[rpc_observer]") {
  const RpcName name = splitRpcName("/npc.v1.NpcSim/GetStats");
  CHECK(name.service == "npc.v1.NpcSim");
  CHECK(name.method == "GetStats");
  const RpcName health = splitRpcName("/grpc.health.v1.Health/Check");
  CHECK(health.service == "grpc.health.v1.Health");
  CHECK(health.method == "Check");
  const RpcName bare = splitRpcName("Check");
  CHECK(bare.service.empty());
  CHECK(bare.method == "Check");
}

TEST_CASE("statusCodeName names every gRPC code as gRPC does", "[rpc_observer]") {
  CHECK(statusCodeName(grpc::StatusCode::OK) == "OK");
  CHECK(statusCodeName(grpc::StatusCode::INVALID_ARGUMENT) == "INVALID_ARGUMENT");
  CHECK(statusCodeName(grpc::StatusCode::NOT_FOUND) == "NOT_FOUND");
  CHECK(statusCodeName(grpc::StatusCode::RESOURCE_EXHAUSTED) == "RESOURCE_EXHAUSTED");
  CHECK(statusCodeName(grpc::StatusCode::UNAVAILABLE) == "UNAVAILABLE");
  CHECK(statusCodeName(grpc::StatusCode::UNAUTHENTICATED) == "UNAUTHENTICATED");
  CHECK(statusCodeName(42) == "UNKNOWN");
  CHECK(statusCodeName(-1) == "UNKNOWN");
}

TEST_CASE("The access log line says method, client, peer, code and duration", "[rpc_observer]") {
  RpcRecord r;
  r.method = "/npc.v1.NpcSim/GetAgent";
  r.code = grpc::StatusCode::NOT_FOUND;
  r.seconds = 0.00412;
  CHECK(accessLogLine(r, "game-eu1", "ipv4:127.0.0.1:4711") ==
        "rpc /npc.v1.NpcSim/GetAgent client=game-eu1 peer=ipv4:127.0.0.1:4711 code=NOT_FOUND "
        "4.12 ms");
}
