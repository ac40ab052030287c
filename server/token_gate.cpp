#include "token_gate.h"

#include <string_view>

namespace npc {

bool sameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

bool TokenGate::allows(const grpc::CallbackServerContext& context) const {
  if (token_.empty()) return true;
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return false;
  return allowsBearer(std::string_view(it->second.data(), it->second.size()));
}

bool TokenGate::allowsBearer(std::string_view authorization) const {
  if (token_.empty()) return true;
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.substr(0, kBearer.size()) != kBearer) return false;
  return sameSecret(authorization.substr(kBearer.size()), token_);
}

bool TokenGate::allowsToken(std::string_view token) const {
  return token_.empty() || sameSecret(token, token_);
}

const grpc::Status& TokenGate::refusal() {
  static const grpc::Status kRefusal(grpc::StatusCode::UNAUTHENTICATED,
                                     "missing or invalid bearer token (metadata "
                                     "\"authorization: Bearer <token>\")");
  return kRefusal;
}

}  // namespace npc
