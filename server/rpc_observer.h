// RpcObserver: a gRPC server interceptor that reports every call as it ends — its method,
// status code, duration and server context — to one sink. The daemon's sink feeds the
// per-method metrics (grpc_server_handled_total, grpc_server_handling_seconds) and, with
// config "access_log", one log line per call. Interceptors see every service on the server
// (NpcSim, health, reflection) without touching their handlers.
//
// A call is reported when its status is sent (PRE_SEND_STATUS); its duration runs from the
// interceptor's creation, when gRPC starts the call. For a Connect stream that is the
// stream's whole life.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include <grpcpp/support/server_interceptor.h>
#include <grpcpp/support/status.h>

namespace npc {

struct RpcRecord {
  std::string_view method;   // "/npc.v1.NpcSim/GetStats"
  std::string_view type;     // "unary", "client_stream", "server_stream", "bidi_stream"
  int code = grpc::StatusCode::OK;  // a grpc::StatusCode as sent on the wire
  double seconds = 0.0;
  const grpc::ServerContextBase* context = nullptr;  // for the caller's identity and peer
};

// "/npc.v1.NpcSim/GetStats" -> service "npc.v1.NpcSim", method "GetStats".
struct RpcName {
  std::string_view service;
  std::string_view method;
};
RpcName splitRpcName(std::string_view full);

// "OK", "INVALID_ARGUMENT", ... as gRPC names its codes; "UNKNOWN" for a value out of range
// (an int: a value outside the enum's range may not be held in a grpc::StatusCode).
std::string_view statusCodeName(int code);

// The access log's line for one call made by `client` from `peer`:
// "rpc /npc.v1.NpcSim/GetStats client=admin peer=ipv4:127.0.0.1:4711 code=OK 0.41 ms".
std::string accessLogLine(const RpcRecord& rpc, std::string_view client, std::string_view peer);

class RpcObserverFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  using Sink = std::function<void(const RpcRecord&)>;  // any gRPC thread
  explicit RpcObserverFactory(Sink sink) : sink_(std::move(sink)) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  Sink sink_;
};

}  // namespace npc
