#include "mbt/group_scopes.h"

#include <cassert>

namespace npc {

bool MbtGroupScopes::tryEnter(GroupScopeId scope, uint64_t group, uint32_t allowed) {
  uint32_t& count = users_[Key{group, scope}];
  if (count >= allowed) return false;
  ++count;
  return true;
}

void MbtGroupScopes::leave(GroupScopeId scope, uint64_t group) {
  auto it = users_.find(Key{group, scope});
  assert(it != users_.end() && it->second > 0);
  if (it != users_.end() && it->second > 0) --it->second;
}

uint32_t MbtGroupScopes::users(GroupScopeId scope, uint64_t group) const {
  auto it = users_.find(Key{group, scope});
  return it == users_.end() ? 0 : it->second;
}

uint64_t MbtGroupScopes::totalUsers() const {
  uint64_t total = 0;
  for (const auto& entry : users_) total += entry.second;
  return total;
}

}  // namespace npc
