#include "access_control.h"

#include <grpcpp/security/auth_context.h>

namespace npc {

namespace {

std::optional<std::string_view> bearerToken(const grpc::ServerContextBase& context) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return std::nullopt;
  constexpr std::string_view kBearer = "Bearer ";
  const std::string_view value(it->second.data(), it->second.size());
  if (value.substr(0, kBearer.size()) != kBearer) return std::nullopt;
  return value.substr(kBearer.size());
}

// gRPC fills these only for a certificate that passed verification against the client CA.
bool certificateNames(const grpc::ServerContextBase& context, std::string_view name) {
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (!auth || !auth->IsPeerAuthenticated()) return false;
  for (const char* property : {"x509_common_name", "x509_subject_alternative_name"}) {
    for (const grpc::string_ref& value : auth->FindPropertyValues(property)) {
      if (std::string_view(value.data(), value.size()) == name) return true;
    }
  }
  return false;
}

}  // namespace

bool sameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

std::string_view toString(Role role) {
  switch (role) {
    case Role::kObserver: return "observer";
    case Role::kGame: return "game";
    case Role::kAdmin: return "admin";
  }
  return "?";
}

std::optional<Role> parseRole(std::string_view text) {
  if (text == "observer") return Role::kObserver;
  if (text == "game") return Role::kGame;
  if (text == "admin") return Role::kAdmin;
  return std::nullopt;
}

AccessControl::AccessControl(std::vector<ClientCredential> credentials)
    : credentials_(std::move(credentials)) {}

const ClientCredential* AccessControl::identifyToken(std::string_view token) const {
  if (open()) return &anonymous_admin_;
  // Every credential is compared, so timing does not reveal which one came close.
  const ClientCredential* match = nullptr;
  for (const ClientCredential& c : credentials_) {
    if (!c.token.empty() && sameSecret(token, c.token) && match == nullptr) match = &c;
  }
  return match;
}

const ClientCredential* AccessControl::identify(const grpc::ServerContextBase& context) const {
  if (open()) return &anonymous_admin_;
  if (const auto token = bearerToken(context)) {
    if (const ClientCredential* match = identifyToken(*token)) return match;
  }
  for (const ClientCredential& c : credentials_) {
    if (!c.certificate.empty() && certificateNames(context, c.certificate)) return &c;
  }
  return nullptr;
}

const grpc::Status& AccessControl::unauthenticated() {
  static const grpc::Status kRefusal(grpc::StatusCode::UNAUTHENTICATED,
                                     "missing or invalid bearer token (metadata "
                                     "\"authorization: Bearer <token>\") or client certificate");
  return kRefusal;
}

grpc::Status AccessControl::denied(const ClientCredential& caller, std::string_view call) {
  const std::string who = caller.name.empty() ? "" : " (client \"" + caller.name + "\")";
  return {grpc::StatusCode::PERMISSION_DENIED,
          std::string(call) + ": role " + std::string(toString(caller.role)) + who +
              " may not call it"};
}

}  // namespace npc
