// TokenGate: the debug page's bearer-token check (`auth_token`). The gRPC API checks
// credentials and roles in AccessControl (access_control.h); the page accepts the admin
// token only. An empty token disables the check (loopback only: the daemon refuses to
// serve the page elsewhere without one, see Daemon::start).
#pragma once

#include <string>
#include <string_view>

#include <grpcpp/grpcpp.h>

namespace npc {

// Compares in time independent of where the strings differ, so response timing does not
// reveal how much of a guessed token was right. Shared with AccessControl.
bool sameSecret(std::string_view a, std::string_view b);

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
