#include "token_gate.h"

#include <string_view>

namespace npc {

namespace {

// Compares in time independent of where the strings differ, so response timing does not
// reveal how much of a guessed token was right.
bool sameSecret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

}  // namespace

bool TokenGate::allows(const grpc::CallbackServerContext& context) const {
  if (token_.empty()) return true;
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return false;
  constexpr std::string_view kBearer = "Bearer ";
  const std::string_view value(it->second.data(), it->second.size());
  if (value.substr(0, kBearer.size()) != kBearer) return false;
  return sameSecret(value.substr(kBearer.size()), token_);
}

const grpc::Status& TokenGate::refusal() {
  static const grpc::Status kRefusal(grpc::StatusCode::UNAUTHENTICATED,
                                     "missing or invalid bearer token (metadata "
                                     "\"authorization: Bearer <token>\")");
  return kRefusal;
}

}  // namespace npc
