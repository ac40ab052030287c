// TokenGate: the bearer-token check every NpcSim call passes first. Clients send metadata
// "authorization: Bearer <token>". An empty token disables the check (loopback only: the
// daemon refuses to listen elsewhere without one, see Daemon::start).
//
// The check lives in the service rather than in an AuthMetadataProcessor because gRPC 1.51
// runs processors only on secure credentials; this way plaintext loopback and TLS behave
// the same. The standard health service is not gated, so probes need no secret.
#pragma once

#include <string>
#include <string_view>

#include <grpcpp/grpcpp.h>

namespace npc {

class TokenGate {
 public:
  explicit TokenGate(std::string token) : token_(std::move(token)) {}

  bool enabled() const { return !token_.empty(); }
  // True when the gate is off or the call carries the right bearer token.
  bool allows(const grpc::CallbackServerContext& context) const;
  // The same check for other transports (the debug page's HTTP): an Authorization header
  // value "Bearer <token>", or the bare token (a URL parameter, for browsers).
  bool allowsBearer(std::string_view authorization) const;
  bool allowsToken(std::string_view token) const;

  static const grpc::Status& refusal();

 private:
  std::string token_;
};

}  // namespace npc
