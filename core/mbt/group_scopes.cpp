#include "mbt/group_scopes.h"

#include <cassert>

namespace npc {

bool MbtGroupScopes::tryEnter(GroupScopeId scope, uint64_t group, uint32_t allowed) {
  uint32_t& count = lane(group)[Key{group, scope}];
  if (count >= allowed) return false;
  ++count;
  return true;
}

void MbtGroupScopes::leave(GroupScopeId scope, uint64_t group) {
  Users& counts = lane(group);
  auto it = counts.find(Key{group, scope});
  assert(it != counts.end() && it->second > 0);
  if (it != counts.end() && it->second > 0) --it->second;
}

uint32_t MbtGroupScopes::users(GroupScopeId scope, uint64_t group) const {
  const Users& counts = lane(group);
  auto it = counts.find(Key{group, scope});
  return it == counts.end() ? 0 : it->second;
}

uint64_t MbtGroupScopes::totalUsers() const {
  uint64_t total = 0;
  for (const Users& counts : users_) {
    for (const auto& entry : counts) total += entry.second;
  }
  return total;
}

}  // namespace npc
