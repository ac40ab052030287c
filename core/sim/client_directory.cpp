#include "sim/client_directory.h"

#include <algorithm>

namespace npc {

namespace {

// The first binding whose name is not below `name` (bindings are sorted by name).
template <class Bindings>
auto byName(Bindings& bindings, std::string_view name) {
  return std::lower_bound(bindings.begin(), bindings.end(), name,
                          [](const ClientBinding& b, std::string_view n) { return b.name.compare(n) < 0; });
}

}  // namespace

void ClientDirectory::bind(std::string_view name, ClientId id) {
  noteUsed(id);
  auto at = byName(bindings_, name);
  if (at != bindings_.end() && at->name == name) {
    at->id = id;
    return;
  }
  bindings_.insert(at, ClientBinding{std::string(name), id});
}

std::optional<ClientId> ClientDirectory::find(std::string_view name) const {
  const auto at = byName(bindings_, name);
  if (at == bindings_.end() || at->name != name) return std::nullopt;
  return at->id;
}

bool ClientDirectory::isBound(ClientId id) const {
  return std::any_of(bindings_.begin(), bindings_.end(),
                     [id](const ClientBinding& b) { return b.id == id; });
}

void ClientDirectory::restore(std::vector<ClientBinding> bindings, uint32_t highest) {
  bindings_ = std::move(bindings);
  std::sort(bindings_.begin(), bindings_.end(),
            [](const ClientBinding& a, const ClientBinding& b) { return a.name < b.name; });
  highest_ = highest;
  for (const ClientBinding& b : bindings_) noteUsed(b.id);
}

}  // namespace npc
