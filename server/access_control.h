// AccessControl: who is calling and what they may do. Every NpcSim call is identified first
// (README.md "Security"):
//   - a bearer token (metadata "authorization: Bearer <token>") that matches a credential, or
//   - a TLS client certificate verified against tls_client_ca whose subject CN or one of its
//     subject alternative names matches a credential's `certificate`.
// With no credential configured the daemon is open (loopback only, see Daemon::start) and
// every caller is an anonymous admin.
//
// Roles, each including the one before:
//   observer  GetAgent, GetStats, GetPlanTrace (without switching tracing), GetStealthMeter,
//             Connect read-only (its updates may only subscribe), and the debug page
//   game      Connect, SpawnAgent and DespawnAgent of the agents it owns
//   admin     every call, and switching plan tracing (GetPlanTrace's trace, the debug
//             page's trace=on|off); what it spawns is shared, what it changes needs no
//             ownership
// A named credential is a client identity: its streams and calls share one ClientId, so a
// game server that reconnects with the same credential gets its entities back. The legacy
// `auth_token` is an anonymous admin: each of its streams is a client of its own.
//
// The check lives in the service rather than in an AuthMetadataProcessor because gRPC 1.51
// runs processors only on secure credentials; this way plaintext loopback and TLS behave
// the same. The standard health service is not gated, so probes need no secret.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <grpcpp/grpcpp.h>

namespace npc {

enum class Role : uint8_t { kObserver, kGame, kAdmin };

// Compares in time independent of where the strings differ, so response timing does not
// reveal how much of a guessed secret was right.
bool sameSecret(std::string_view a, std::string_view b);

std::string_view toString(Role role);
std::optional<Role> parseRole(std::string_view text);

struct ClientCredential {
  std::string name;         // the client identity; "" = anonymous (each stream its own client)
  std::string token;        // bearer token; "" = none
  std::string certificate;  // client certificate subject CN or SAN; "" = none
  Role role = Role::kGame;
};

class AccessControl {
 public:
  // No credentials: open, every caller is an anonymous admin.
  explicit AccessControl(std::vector<ClientCredential> credentials = {});

  bool open() const { return credentials_.empty(); }

  // The caller's credential, or null when it presented none that matches (thread-safe).
  const ClientCredential* identify(const grpc::ServerContextBase& context) const;
  // The same for other transports (the debug page's HTTP): the credential whose token is
  // `token` (the part after "Bearer "), or null; the anonymous admin when open().
  const ClientCredential* identifyToken(std::string_view token) const;

  // UNAUTHENTICATED: no matching token or certificate.
  static const grpc::Status& unauthenticated();
  // PERMISSION_DENIED: `call` needs a role above the caller's.
  static grpc::Status denied(const ClientCredential& caller, std::string_view call);

 private:
  std::vector<ClientCredential> credentials_;
  ClientCredential anonymous_admin_{"", "", "", Role::kAdmin};
};

}  // namespace npc
