#include "rpc_observer.h"

#include <array>

#include <spdlog/fmt/fmt.h>

namespace npc {

namespace {

using grpc::experimental::InterceptionHookPoints;

std::string_view typeName(grpc::experimental::ServerRpcInfo::Type type) {
  using Type = grpc::experimental::ServerRpcInfo::Type;
  switch (type) {
    case Type::UNARY: return "unary";
    case Type::CLIENT_STREAMING: return "client_stream";
    case Type::SERVER_STREAMING: return "server_stream";
    case Type::BIDI_STREAMING: return "bidi_stream";
  }
  return "unknown";
}

class RpcObserver : public grpc::experimental::Interceptor {
 public:
  RpcObserver(grpc::experimental::ServerRpcInfo* info, const RpcObserverFactory::Sink& sink)
      : info_(info), sink_(sink), start_(std::chrono::steady_clock::now()) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      RpcRecord record;
      record.method = info_->method() != nullptr ? info_->method() : "";
      record.type = typeName(info_->type());
      record.code = methods->GetSendStatus().error_code();
      record.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      record.context = info_->server_context();
      sink_(record);
    }
    methods->Proceed();
  }

 private:
  grpc::experimental::ServerRpcInfo* info_;
  const RpcObserverFactory::Sink& sink_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

RpcName splitRpcName(std::string_view full) {
  if (!full.empty() && full.front() == '/') full.remove_prefix(1);
  const size_t slash = full.rfind('/');
  if (slash == std::string_view::npos) return {"", full};
  return {full.substr(0, slash), full.substr(slash + 1)};
}

std::string_view statusCodeName(int code) {
  static constexpr std::array<std::string_view, 17> kNames = {
      "OK",                 "CANCELLED",           "UNKNOWN",
      "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",   "NOT_FOUND",
      "ALREADY_EXISTS",     "PERMISSION_DENIED",   "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION", "ABORTED",            "OUT_OF_RANGE",
      "UNIMPLEMENTED",      "INTERNAL",            "UNAVAILABLE",
      "DATA_LOSS",          "UNAUTHENTICATED"};  // by grpc::StatusCode value, 0..16
  return code >= 0 && static_cast<size_t>(code) < kNames.size() ? kNames[code] : "UNKNOWN";
}

std::string accessLogLine(const RpcRecord& rpc, std::string_view client, std::string_view peer) {
  return fmt::format("rpc {} client={} peer={} code={} {:.2f} ms", rpc.method, client, peer,
                     statusCodeName(rpc.code), rpc.seconds * 1000.0);
}

grpc::experimental::Interceptor* RpcObserverFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new RpcObserver(info, sink_);  // gRPC owns and deletes it with the call
}

}  // namespace npc
