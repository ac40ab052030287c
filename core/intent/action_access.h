// Which actions one agent can perform (seed 004, "Performing an Action", step 2): its own
// action list (usually its archetype's) and the influences it is under — a spell, a
// profession, a vehicle — each an action list with a priority. ActionRegistry::resolve
// looks a name up in the own list first, then in the influences, highest priority first;
// the first implementation found wins.
//
// Per agent, 36 bytes, no heap, trivially copyable. Influences are kept sorted (priority
// descending, then list id ascending) so lookup order is deterministic. Every change bumps
// version(); the scheduler compares it to detect that the influence behind a running action
// was removed ("you can't fly anymore because the spell ended").
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "intent/intent_types.h"

namespace npc {

class ActionAccess {
 public:
  ActionListId own() const { return own_; }
  // Influence lists, in lookup order.
  std::span<const ActionListId> influences() const { return {influences_.data(), count_}; }
  bool has(ActionListId list) const;
  // Adds to version() on every change.
  uint32_t version() const { return version_; }
  // Influences refused because kMaxInfluences were already present.
  uint32_t refused() const { return refused_; }

  // Sets the agent's own action list (kNone: no own actions).
  void setOwn(ActionListId list);
  // Adds influence `list` with its `priority` (ActionRegistry::addInfluence passes the
  // registered one). kOk; kQueueFull when kMaxInfluences are present (counted in
  // refused()); adding one already present is kOk and changes nothing.
  IntentStatus addInfluence(ActionListId list, int16_t priority);
  // Removes influence `list`; false when it was not present.
  bool removeInfluence(ActionListId list);
  // Snapshot restore, after the lists were added again: the counters as they were, so the
  // scheduler sees no change that did not happen.
  void restoreCounters(uint32_t version, uint32_t refused) {
    version_ = version;
    refused_ = refused;
  }

 private:
  ActionListId own_ = ActionListId::kNone;
  uint8_t count_ = 0;
  uint32_t version_ = 0;
  uint32_t refused_ = 0;
  std::array<ActionListId, kMaxInfluences> influences_{};
  std::array<int16_t, kMaxInfluences> priorities_{};
};

}  // namespace npc
