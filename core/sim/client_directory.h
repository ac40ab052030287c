// ClientDirectory: which ClientId each configured client identity ("game-eu") was given,
// and the highest id any client has used — what a daemon restored from a snapshot needs so
// that a named client gets its NPCs back under the same id and no new client is given an
// id that still owns something.
//
// The server allocates ids; it tells the simulation of a named one with the BindClient
// command, so the binding is journaled and replayed like any input, and the directory is in
// every snapshot. Tick thread.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "world/ids.h"

namespace npc {

struct ClientBinding {
  std::string name;
  ClientId id = ClientId::kDaemon;
};

class ClientDirectory {
 public:
  // Records `name` -> `id` (a repeated binding replaces the old id) and notes the id.
  void bind(std::string_view name, ClientId id);
  // Notes that a client id was used (a command's origin).
  void noteUsed(ClientId id) {
    if (isClientId(id) && raw(id) > highest_) highest_ = raw(id);
  }
  std::optional<ClientId> find(std::string_view name) const;
  bool isBound(ClientId id) const;
  std::span<const ClientBinding> bindings() const { return bindings_; }  // sorted by name
  uint32_t highest() const { return highest_; }  // 0: none yet

  // Restoring: replaces everything.
  void restore(std::vector<ClientBinding> bindings, uint32_t highest);

  // A client's own id, not kDaemon / kUnowned / kAllClients.
  static bool isClientId(ClientId id) {
    return id != ClientId::kDaemon && raw(id) < raw(ClientId::kUnowned);
  }

 private:
  std::vector<ClientBinding> bindings_;
  uint32_t highest_ = 0;
};

}  // namespace npc
