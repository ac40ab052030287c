// MbtGroupScopes: how many agents of a group are inside each named scope, across every
// agent of the library (CryEngine's group scopes, behind <GroupScope> and the seed's
// <LimitConcurrentUsers>). A scope is (scope name, group key): the key comes from
// MbtAgentView::group, so the caller decides what a group is (perception group, place,
// species...). Counts survive reloads: a node releases exactly what it took.
//
// Entries are never erased, so after the first use of a (scope, group) pair entering and
// leaving allocate nothing. The counts are kept per lane (mbtLaneOf of the group): calls
// for groups of different lanes may run on different threads at once; calls within one
// lane never may (the tick's pool gives a lane to one worker at a time).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "mbt/mbt_types.h"
#include "world/name_table.h"

namespace npc {

class MbtGroupScopes {
 public:
  GroupScopeId intern(std::string_view scope) { return names_.intern(scope); }
  GroupScopeId find(std::string_view scope) const { return names_.find(scope); }
  const std::string& name(GroupScopeId scope) const { return names_.name(scope); }

  // Enters when fewer than `allowed` agents of `group` are inside `scope`.
  bool tryEnter(GroupScopeId scope, uint64_t group, uint32_t allowed);
  void leave(GroupScopeId scope, uint64_t group);
  // A snapshot restored an agent inside the scope: counted again whatever the limit (it
  // was counted when it entered).
  void reenter(GroupScopeId scope, uint64_t group) { ++lane(group)[Key{group, scope}]; }
  uint32_t users(GroupScopeId scope, uint64_t group) const;
  // Sum over every scope and group (leak checks in tests).
  uint64_t totalUsers() const;

 private:
  struct Key {
    uint64_t group;
    GroupScopeId scope;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return static_cast<size_t>(k.group * 0x9E3779B97F4A7C15ull) ^ raw(k.scope);
    }
  };
  using Users = std::unordered_map<Key, uint32_t, KeyHash>;  // never iterated for output
  Users& lane(uint64_t group) { return users_[mbtLaneOf(group)]; }
  const Users& lane(uint64_t group) const { return users_[mbtLaneOf(group)]; }

  NameTable<GroupScopeId> names_;
  std::array<Users, kMbtLanes> users_;
};

}  // namespace npc
