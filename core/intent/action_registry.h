// The action registry (seed 004, "Interaction system", "Performing an Action"): every
// action implementation, addressed by interned name, and the action lists that group them
// — entity types' own lists and influences (spell, profession, vehicle) with priorities.
//
// Set-up happens before the first tick (or between ticks, on the tick thread): add
// implementations, create lists, put implementations in lists. Adding never invalidates an
// id, so lists and implementations can also be added at run time. During a tick the
// registry is read-only; resolve() allocates nothing (a binary search per list).
//
// Several implementations of one name coexist in different lists; within one list a name
// has at most one implementation. An agent's ActionAccess says which lists it sees.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "intent/action_access.h"
#include "intent/action_impl.h"
#include "intent/intent_types.h"
#include "world/name_table.h"

namespace npc {

// The outcome of a lookup. impl == kNone: the agent cannot perform this name.
struct ActionResolution {
  ActionImplId impl = ActionImplId::kNone;
  ActionListId source = ActionListId::kNone;  // the list it was found in
  bool found() const { return impl != ActionImplId::kNone; }
};

// Interned names toActionOut (action_out.h) uses for arguments that have none.
struct ClientParamNames {
  ActionNameId param = ActionNameId::kNone;
  ActionNameId invoker = ActionNameId::kNone;
  ActionNameId receiver = ActionNameId::kNone;
  ActionNameId group_unit = ActionNameId::kNone;  // unit of a group id sent as a number
};

class ActionRegistry {
 public:
  // Interns action names in `names` (the table ActionOut names come from), which must
  // outlive the registry.
  explicit ActionRegistry(NameTable<ActionNameId>& names);
  ActionRegistry(const ActionRegistry&) = delete;
  ActionRegistry& operator=(const ActionRegistry&) = delete;

  // --- Set-up ------------------------------------------------------------------------
  // Takes ownership of an implementation of action `name`. Returns its id, or kNone when
  // `name` is empty, `impl` is null or a table is full (65534 names / implementations).
  ActionImplId add(std::string_view name, std::unique_ptr<ActionImpl> impl);
  // Creates an entity type's own action list ("Baker"); an influence ("spell:levitate")
  // with a priority (higher is looked up first). kNone when the name is already a list or
  // empty.
  ActionListId createOwnList(std::string_view name);
  ActionListId createInfluence(std::string_view name, int16_t priority);
  // A reload: influence `list` empties (its implementations stay, for intentions running
  // from them) and takes `priority`; its new actions are then added again. False when
  // `list` is not an influence. Agents holding it must be given the new priority
  // (ActionAccess keeps lookup order by priority).
  bool resetInfluence(ActionListId list, int16_t priority);
  // Puts `impl` in `list`. kInvalidArgument for unknown ids; kAlreadyExists when the list
  // already has an implementation of the same name (naming both).
  Status addToList(ActionListId list, ActionImplId impl);
  // Convenience: add() then addToList().
  ActionImplId addTo(ActionListId list, std::string_view name, std::unique_ptr<ActionImpl> impl);

  // Adds influence `list` to one agent with its registered priority. kNotInfluence when
  // `list` is not an influence; otherwise as ActionAccess::addInfluence.
  IntentStatus addInfluence(ActionAccess& access, ActionListId list) const;

  // --- Tick-time lookups (no allocation) ---------------------------------------------
  // Looks `action` up in `access`'s own list, then its influences in priority order.
  ActionResolution resolve(const ActionAccess& access, ActionNameId action) const;
  // The implementation of `action` in one list, or kNone.
  ActionImplId findInList(ActionListId list, ActionNameId action) const;
  const ActionImpl& impl(ActionImplId id) const { return *impls_[raw(id)].impl; }
  ActionNameId implName(ActionImplId id) const { return impls_[raw(id)].name; }
  // Facts about a name over all its implementations: some implementation exists; any is
  // game-only (then controllers may not program it); any is coercive.
  bool known(ActionNameId action) const { return flagsOf(action) != 0; }
  bool gameOnly(ActionNameId action) const { return hasFlag(action, kGameOnlyFlag); }
  bool coercive(ActionNameId action) const { return hasFlag(action, kCoerciveFlag); }

  // --- Names and cold data -----------------------------------------------------------
  NameTable<ActionNameId>& names() const { return names_; }
  // The interned name of `action` (kNone if never interned), for callers holding text.
  ActionNameId findAction(std::string_view action) const { return names_.find(action); }
  ActionListId findList(std::string_view name) const;
  const std::string& listName(ActionListId list) const;  // empty for kNone / unknown
  bool isInfluence(ActionListId list) const;
  int16_t priority(ActionListId list) const;
  size_t implCount() const { return impls_.size(); }
  // Implementations and lists that can still be added (a reload checks before it changes
  // anything, so a full registry refuses it whole).
  size_t implRoom() const;
  size_t listRoom() const;
  size_t listCount() const { return lists_.size(); }
  const ClientParamNames& clientParamNames() const { return param_names_; }

 private:
  static constexpr uint8_t kKnownFlag = 1, kGameOnlyFlag = 2, kCoerciveFlag = 4;
  struct Impl {
    ActionNameId name;
    std::unique_ptr<ActionImpl> impl;
  };
  struct List {
    std::string name;
    bool influence = false;
    int16_t priority = 0;
    std::vector<std::pair<ActionNameId, ActionImplId>> entries;  // sorted by action name
  };
  uint8_t flagsOf(ActionNameId action) const {
    return raw(action) < flags_.size() ? flags_[raw(action)] : 0;
  }
  bool hasFlag(ActionNameId action, uint8_t flag) const { return (flagsOf(action) & flag) != 0; }
  ActionListId createList(std::string_view name, bool influence, int16_t priority);

  NameTable<ActionNameId>& names_;
  std::vector<Impl> impls_;
  std::vector<List> lists_;
  std::vector<uint8_t> flags_;  // per interned name: k*Flag
  ClientParamNames param_names_;
};

}  // namespace npc
