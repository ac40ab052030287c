// Daemon-side inventory actions (seed 004, Example 1 "pick up the flowers", Example 2 "the
// flower is removed from the place, the cut flower is added to the character's inventory").
// The daemon owns inventories (InventoryModel), so these run inside the daemon: every
// archetype has them unless its data gives the name another definition (a game that
// performs Take itself declares "Take": { "side": "client" }).
//
//   Take [object]                   the object leaves the world model; one item named
//                                   after its species enters the agent's inventory
//   Drop [item, count]              items leave the agent's inventory and become objects
//                                   (one per item) at the agent's feet in the world model;
//                                   the game, told by the Completed event (subject: the
//                                   first object), puts them in its scene and may move them
//   Give [receiver, item, count]    items go to another agent within reach
//
// Arguments: the object or receiver is the first receiver entity, else the first entity
// parameter; the item is the first message (else entity-type) parameter, e.g. "flowers";
// the count is the first value parameter, a whole number >= 1 (default 1). Initialisation
// fails without them or without an inventory model (ActionContext::inventories). At
// submission (checkArgs) a count outside 1..kMaxItemCount or not whole is refused.
//
// Failures carry a reason (PerformResult::detail, shown in the Failed event as "the action
// failed (out_of_reach)"):
//   item_gone       Take: the object is not in the world any more (taken, removed)
//   not_takeable    Take: not an object (npcs, players and attributes cannot be taken), an
//                   object with no species to name its item, or one marked not takeable
//   not_seen        Take: the agent neither sees nor remembers the object (seed 004: Raoul
//                   takes the flowers he remembers; not seen, the action fails)
//   too_many        Drop: more than kMaxDroppedObjects items at once
//   out_of_reach    Take, Give: farther than kReachM from the agent
//   inventory_full  Take, Give: no slot for a new item (the receiver's, for Give)
//   not_carried     Drop, Give: the agent holds fewer than the count
//   receiver_gone   Give: the receiver is not an awake agent (unknown, an object, asleep)
// Completed and failed events name what they concern in `subject`: the object for Take (so
// the game removes it from its scene), the receiver for Give.
//
// Nothing allocates, except interning a species no inventory held before (once per name).
#pragma once

#include <cstdint>

#include "intent/action_impl.h"

namespace npc {

class Inventory;

// How far an agent reaches to take an object or hand something over [metres, 3-D].
inline constexpr float kReachM = 2.f;
// Most objects one Drop puts into the world (one per item).
inline constexpr int32_t kMaxDroppedObjects = 16;

// What the inventory actions share: their reasons, interned once, and argument reading.
class InventoryAction : public ActionImpl {
 public:
  explicit InventoryAction(NameTable<ActionNameId>& names);
  std::string checkArgs(std::span<const ActionArg> args,
                        const NameTable<ActionNameId>& names) const override;

 protected:
  // The intention's first receiver entity, else its first entity parameter; kNone if none.
  static EntityId target(const Intention& intention);
  // The first message (else entity-type) parameter; kNone if none.
  static ActionNameId itemName(const Intention& intention);
  // The first value parameter as a whole number >= 1; 1 without one; 0 when it is not valid.
  static int32_t count(const Intention& intention);
  // The agent's inventory and whether `other` is within kReachM of the agent's body.
  static Inventory* own(const ActionContext& ctx);
  static bool inReach(const ActionContext& ctx, Vec3 other);

  ActionNameId item_gone_, not_takeable_, out_of_reach_, inventory_full_, not_carried_,
      receiver_gone_, not_seen_, too_many_;
};

// Take: 1 s, the seed's constant time.
class TakeAction final : public InventoryAction {
 public:
  static constexpr float kDurationS = 1.f;
  using InventoryAction::InventoryAction;
  bool initialize(ActionContext& ctx, Intention& intention) const override;
  PerformResult perform(ActionContext& ctx, Intention& intention) const override;
};

// Drop: 0.5 s.
class DropAction final : public InventoryAction {
 public:
  static constexpr float kDurationS = 0.5f;
  using InventoryAction::InventoryAction;
  bool initialize(ActionContext& ctx, Intention& intention) const override;
  PerformResult perform(ActionContext& ctx, Intention& intention) const override;
};

// Give: 1 s.
class GiveAction final : public InventoryAction {
 public:
  static constexpr float kDurationS = 1.f;
  using InventoryAction::InventoryAction;
  bool initialize(ActionContext& ctx, Intention& intention) const override;
  PerformResult perform(ActionContext& ctx, Intention& intention) const override;
};

}  // namespace npc
