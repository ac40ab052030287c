#include "hibernation_codec.h"

#include "agent/archetype.h"
#include "intent/action_registry.h"
#include "bst_codec.h"
#include "world/world.h"
#include "world_codec.h"

namespace npc {

void encodeInventory(const Inventory& inventory, NameList items, pb::InventoryState& out) {
  for (uint8_t slot = 0; slot < inventory.size(); ++slot) {
    pb::ItemCount& item = *out.add_items();
    item.set_item(nameAt(items, inventory.itemAt(slot)));
    item.set_count(inventory.countAt(slot));
  }
}

Inventory decodeInventory(const pb::InventoryState& in, SimStateAccess& access) {
  Inventory inventory;
  for (const pb::ItemCount& item : in.items()) {
    const uint16_t id = access.internItem(item.item());
    // add() of 0 keeps no slot; an emptied slot is not worth keeping across a restore.
    if (id != NameTable::kNone) inventory.add(id, item.count());
  }
  return inventory;
}

void encodeLongAction(const LongActionRun& run, bool for_hibernation, NameList long_actions,
                      pb::LongActionState& out) {
  if (!run.running()) return;
  out.set_action(long_actions[run.action]);
  out.set_started_s(run.started_s);
  out.set_turns_done(run.turns_done);
  out.set_for_hibernation(for_hibernation);
}

LongActionRun decodeLongAction(const pb::LongActionState& in, const LongActionLibrary& library) {
  LongActionRun run;
  if (in.action().empty()) return run;
  run.action = library.find(in.action());
  run.started_s = in.started_s();
  run.turns_done = in.turns_done();
  return run;
}

void encodeHibernation(const SimStateCopy& copy, pb::HibernationState& out) {
  for (size_t i = 0; i < copy.places.size(); ++i) {
    const PlaceCopy& p = copy.places[i];
    pb::PlaceState& o = *out.add_places();
    o.set_index(static_cast<uint32_t>(i));
    if (!p.name.empty()) o.set_name(p.name);
    o.set_state(static_cast<uint32_t>(p.state));
    o.set_last_activity_s(p.last_activity_s);
    o.set_asleep_since_s(p.asleep_since_s);
    o.set_wake_at_s(p.wake_at_s);
  }
  out.mutable_dormant()->Reserve(static_cast<int>(copy.dormant.size()));
  for (const DormantAgent& d : copy.dormant) {
    pb::DormantAgentState& o = *out.add_dormant();
    encodeEntity(d.body, copy.species_names, *o.mutable_body());
    o.set_rng_state(d.rng_state);
    encodeBst(d.bst, d.behavior_def, behaviorName(copy, d.bst.behavior), *o.mutable_bst());
    encodeLongAction(d.work, d.work_is_hibernation, copy.long_action_names, *o.mutable_work());
    for (ActionListId list : d.actions.influences()) o.add_influences(static_cast<uint32_t>(list));
    encodeInventory(d.inventory, copy.item_names, *o.mutable_inventory());
    encodeVec3(d.home, *o.mutable_home());
    o.set_actions_completed(d.actions_completed);
    o.set_actions_failed(d.actions_failed);
    o.set_archetype(copy.archetype_names[d.archetype]);
  }
}

bool restoreHibernation(const pb::HibernationState& in, SimStateAccess& access, std::string& error) {
  for (const pb::PlaceState& p : in.places()) {
    access.setPlace(static_cast<PlaceIndex>(p.index()), static_cast<PlaceState>(p.state()),
                    p.last_activity_s(), p.asleep_since_s(), p.wake_at_s());
  }
  for (const pb::DormantAgentState& o : in.dormant()) {
    const std::optional<uint16_t> archetype = access.archetypes().find(o.archetype());
    if (!archetype) {
      error = "sleeping agent " + std::to_string(o.body().id()) + ": archetype \"" +
              o.archetype() + "\" is unknown";
      return false;
    }
    DormantAgent d;
    d.body = decodeEntity(o.body(), access);
    d.rng_state = o.rng_state();
    d.bst = decodeBst(o.bst(), access.selectionTrees());
    d.behavior_def = static_cast<uint8_t>(o.bst().behavior_def());
    d.work = decodeLongAction(o.work(), access.longActions());
    d.work_is_hibernation = o.work().for_hibernation();
    d.actions.setOwn(access.ownActions(*archetype));
    for (uint32_t list : o.influences()) {
      access.registry().addInfluence(d.actions, static_cast<ActionListId>(list));
    }
    d.inventory = decodeInventory(o.inventory(), access);
    d.home = decodeVec3(o.home());
    d.actions_completed = o.actions_completed();
    d.actions_failed = o.actions_failed();
    d.archetype = *archetype;
    access.addDormant(d.body.place, d);
  }
  return true;
}

}  // namespace npc
