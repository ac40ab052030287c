// InventoryModel: the inventories and item objects of the daemon's world model, as
// daemon-side actions see them (seed 004, "Action consequences": the cut flower is removed
// from the place and added to the character's inventory). The daemon owns inventories, so
// actions change them here rather than asking the game: Take, Drop and Give
// (inventory_actions.h), and any daemon-side action that consumes or produces items
// (cooking: inventoryOf(agent)->remove(flour, 1), ->add(internItem(dough), 1)).
//
// The simulation implements it over its agents and world (ActionContext::inventories);
// tests implement it over a few inventories. Called on the tick thread, inside
// ActionScheduler::update.
#pragma once

#include <cstdint>

#include "hibernation/inventory.h"
#include "world/entity.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

class InventoryModel {
 public:
  virtual ~InventoryModel() = default;

  // The inventory of an awake agent; null for any other entity (an object, a player, an
  // agent whose place sleeps).
  virtual Inventory* inventoryOf(EntityId agent) = 0;
  // Inventory items are interned in their own table. `name` is an interned action name (a
  // message or entity-type argument). findItem: kNone for a name no inventory ever held
  // (so a mistyped name does not grow the table); internItem: adds it (allocates once per
  // new name), kNone only when the table is full.
  virtual ItemId findItem(ActionNameId name) const = 0;
  virtual ItemId internItem(ActionNameId name) = 0;
  // The item an object becomes once taken: its species; kNone when it has none.
  virtual ItemId itemOf(const Entity& object) = 0;
  // Takes an object out of the world model: it is carried now. `object` and pointers to
  // entities are invalid afterwards.
  virtual void removeFromWorld(EntityId object) = 0;
  // Whether `agent` sees or remembers `object` (its perception memory): Take works only on
  // objects the agent knows are there. Objects perception does not track count as known.
  virtual bool remembers(EntityId agent, const Entity& object) const { return true; }
  // Puts one object of item `item` (its species) into the world model at `position`;
  // kNone when the model keeps no dropped objects (or has no room): the items just leave
  // the inventory.
  virtual EntityId placeInWorld(ItemId item, Vec3 position) { return EntityId::kNone; }
};

}  // namespace npc
