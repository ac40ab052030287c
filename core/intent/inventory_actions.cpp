#include "intent/inventory_actions.h"

#include <cmath>
#include <limits>

#include "hibernation/inventory.h"
#include "intent/inventory_model.h"
#include "world/limits.h"
#include "world/world.h"

namespace npc {

InventoryAction::InventoryAction(NameTable<ActionNameId>& names)
    : item_gone_(names.intern("item_gone")), not_takeable_(names.intern("not_takeable")),
      out_of_reach_(names.intern("out_of_reach")), inventory_full_(names.intern("inventory_full")),
      not_carried_(names.intern("not_carried")), receiver_gone_(names.intern("receiver_gone")),
      not_seen_(names.intern("not_seen")), too_many_(names.intern("too_many")) {}

std::string InventoryAction::checkArgs(std::span<const ActionArg> args,
                                       const NameTable<ActionNameId>&) const {
  const ActionArg* a = nthParam(args, ArgType::kValue);
  if (!a) return {};
  const double n = a->value;
  if (!(n >= 1.0 && n <= static_cast<double>(kMaxItemCount) && n == std::floor(n))) {
    return "params[" + std::to_string(a - args.data()) +
           "].number: a count must be a whole number within 1.." + std::to_string(kMaxItemCount) +
           " (got " + formatNumber(n) + ")";
  }
  return {};
}

EntityId InventoryAction::target(const Intention& intention) {
  if (const ActionArg* r = nthArg(intention.args(), ArgRole::kReceiver)) {
    if (r->type == ArgType::kEntity) return r->entity;
  }
  const ActionArg* p = nthParam(intention.args(), ArgType::kEntity);
  return p ? p->entity : EntityId::kNone;
}

ActionNameId InventoryAction::itemName(const Intention& intention) {
  const ActionArg* a = nthParam(intention.args(), ArgType::kMessage);
  if (!a) a = nthParam(intention.args(), ArgType::kEntityType);
  return a ? a->text() : ActionNameId::kNone;
}

int32_t InventoryAction::count(const Intention& intention) {
  const ActionArg* a = nthParam(intention.args(), ArgType::kValue);
  if (!a) return 1;
  const double n = a->value;
  const bool whole = std::isfinite(n) && n >= 1.0 && n == std::floor(n) &&
                     n <= static_cast<double>(std::numeric_limits<int32_t>::max());
  return whole ? static_cast<int32_t>(n) : 0;
}

Inventory* InventoryAction::own(const ActionContext& ctx) {
  return ctx.inventories ? ctx.inventories->inventoryOf(ctx.agent) : nullptr;
}

bool InventoryAction::inReach(const ActionContext& ctx, Vec3 other) {
  const Entity* body = ctx.world ? ctx.world->entities().get(ctx.entity) : nullptr;
  return body && distanceSq(body->position, other) <= kReachM * kReachM;
}

// --- Take -----------------------------------------------------------------------------------

bool TakeAction::initialize(ActionContext& ctx, Intention& intention) const {
  return ctx.world && own(ctx) && target(intention) != EntityId::kNone;
}

PerformResult TakeAction::perform(ActionContext& ctx, Intention& intention) const {
  const EntityId id = target(intention);
  const Entity* object = ctx.world->entities().get(id);
  // An inactive object is one the game took out of play: as gone as a removed one.
  if (!object || !object->active) return PerformResult::failed(0.f, item_gone_, id);
  if (object->kind != EntityKind::kObject || !object->takeable) {
    return PerformResult::failed(0.f, not_takeable_, id);
  }
  const ItemId item = ctx.inventories->itemOf(*object);
  if (item == ItemId::kNone) return PerformResult::failed(0.f, not_takeable_, id);
  if (!inReach(ctx, object->position)) return PerformResult::failed(0.f, out_of_reach_, id);
  if (!ctx.inventories->remembers(ctx.agent, *object)) {
    return PerformResult::failed(0.f, not_seen_, id);
  }
  // Into the inventory first: with no room the object stays where it is.
  if (!own(ctx)->add(item, 1)) return PerformResult::failed(0.f, inventory_full_, id);
  ctx.inventories->removeFromWorld(id);
  return PerformResult::completed(kDurationS, id);
}

// --- Drop -----------------------------------------------------------------------------------

bool DropAction::initialize(ActionContext& ctx, Intention& intention) const {
  return own(ctx) && itemName(intention) != ActionNameId::kNone && count(intention) > 0;
}

PerformResult DropAction::perform(ActionContext& ctx, Intention& intention) const {
  const ItemId item = ctx.inventories->findItem(itemName(intention));
  const int32_t n = count(intention);
  if (n > kMaxDroppedObjects) return PerformResult::failed(0.f, too_many_);
  if (item == ItemId::kNone || !own(ctx)->remove(item, n)) {
    return PerformResult::failed(0.f, not_carried_);
  }
  const Entity* body = ctx.world ? ctx.world->entities().get(ctx.entity) : nullptr;
  EntityId first = EntityId::kNone;
  for (int32_t i = 0; body && i < n; ++i) {
    const Vec3 at = body->position;  // copied: placing may move the entity table's rows
    const EntityId placed = ctx.inventories->placeInWorld(item, at);
    if (first == EntityId::kNone) first = placed;
    body = ctx.world->entities().get(ctx.entity);
  }
  return PerformResult::completed(kDurationS, first);
}

// --- Give -----------------------------------------------------------------------------------

bool GiveAction::initialize(ActionContext& ctx, Intention& intention) const {
  const EntityId to = target(intention);
  return ctx.world && own(ctx) && to != EntityId::kNone && to != ctx.agent &&
         itemName(intention) != ActionNameId::kNone && count(intention) > 0;
}

PerformResult GiveAction::perform(ActionContext& ctx, Intention& intention) const {
  const EntityId to = target(intention);
  Inventory* theirs = ctx.inventories->inventoryOf(to);
  const Entity* body = ctx.world->entities().get(to);
  if (!theirs || !body) return PerformResult::failed(0.f, receiver_gone_, to);
  if (!inReach(ctx, body->position)) return PerformResult::failed(0.f, out_of_reach_, to);
  const ItemId item = ctx.inventories->findItem(itemName(intention));
  const int32_t n = count(intention);
  Inventory* mine = own(ctx);
  if (item == ItemId::kNone || mine->count(item) < n) {
    return PerformResult::failed(0.f, not_carried_, to);
  }
  if (!theirs->fits(item)) return PerformResult::failed(0.f, inventory_full_, to);
  mine->remove(item, n);
  theirs->add(item, n);
  return PerformResult::completed(kDurationS, to);
}

}  // namespace npc
