#include "hibernation_codec.h"

#include <cstring>
#include <limits>
#include <optional>

#include "agent/archetype.h"
#include "intent/action_registry.h"
#include "bst_codec.h"
#include "world/world.h"
#include "world_codec.h"

namespace npc {

void encodeInventory(const Inventory& inventory, NameList items, pb::InventoryState& out) {
  for (uint8_t slot = 0; slot < inventory.size(); ++slot) {
    pb::ItemCount& item = *out.add_items();
    item.set_item(nameAt(items, raw(inventory.itemAt(slot))));
    item.set_count(inventory.countAt(slot));
  }
}

Inventory decodeInventory(const pb::InventoryState& in, SimStateAccess& access) {
  Inventory inventory;
  for (const pb::ItemCount& item : in.items()) {
    const ItemId id = access.internItem(item.item());
    // add() of 0 keeps no slot; an emptied slot is not worth keeping across a restore.
    if (id != ItemId::kNone) inventory.add(id, item.count());
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

namespace {

// DormantAgentState.flags
constexpr uint32_t kInactive = 1, kPlaceFromClient = 2, kNotTakeable = 4, kWorkForHibernation = 8,
                   kSelectionDirty = 16;

void addVec3(Vec3 v, pb::DormantAgentState& o) {
  o.add_vectors(v.x);
  o.add_vectors(v.y);
  o.add_vectors(v.z);
}

Vec3 vec3At(const pb::DormantAgentState& o, int at) {
  return {o.vectors(at), o.vectors(at + 1), o.vectors(at + 2)};
}

bool isZero(Vec3 v) { return v.x == 0.f && v.y == 0.f && v.z == 0.f; }

bool isDefaultForward(Vec3 v) {
  const Vec3 fresh = Entity{}.forward;
  return v.x == fresh.x && v.y == fresh.y && v.z == fresh.z;
}

// Bit for bit: -0.f and NaN payloads come back as they were.
bool sameFloat(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

void encodeDormant(const DormantAgent& d, uint64_t previous_id, GroupNumber archetype_group,
                   pb::DormantAgentState& o) {
  const Entity& body = d.body;
  o.set_id_delta(static_cast<int64_t>(raw(body.id) - previous_id));
  o.set_archetype(d.archetype);
  if (body.species != SpeciesId::kNone) o.set_species(raw(body.species) + 1u);
  o.set_place(raw(body.place));
  o.set_flags((body.active ? 0 : kInactive) | (body.place_from_client ? kPlaceFromClient : 0) |
              (body.takeable ? 0 : kNotTakeable) | (d.work_is_hibernation ? kWorkForHibernation : 0) |
              (d.bst.dirty ? kSelectionDirty : 0));
  addVec3(body.position, o);
  addVec3(d.home, o);
  const bool velocity = !isZero(body.velocity);
  if (velocity || !isDefaultForward(body.forward)) addVec3(body.forward, o);
  if (velocity) addVec3(body.velocity, o);
  o.set_rng_state(d.rng_state);
  for (uint64_t word : d.bst.values.words) o.add_bst_variables(word);
  o.set_bst_behavior(raw(d.bst.behavior));
  o.set_bst_leaf(raw(d.bst.leaf));
  o.set_bst_tree(raw(d.bst.tree));
  o.set_behavior_def(d.behavior_def);
  if (d.work.running()) {
    o.set_work_action(d.work.action + 1u);
    o.set_work_started_s(d.work.started_s);
    o.set_work_turns_done(d.work.turns_done);
  }
  for (ActionListId list : d.actions.influences()) o.add_influences(static_cast<uint32_t>(list));
  for (uint8_t slot = 0; slot < d.inventory.size(); ++slot) {
    o.add_items(raw(d.inventory.itemAt(slot)));
    o.add_item_counts(d.inventory.countAt(slot));
  }
  o.set_actions_completed(d.actions_completed);
  o.set_actions_failed(d.actions_failed);
  o.set_kind(static_cast<uint32_t>(body.kind));
  o.set_owner(static_cast<uint32_t>(body.owner));
  if (!sameFloat(body.eye_height_m, kDefaultEyeHeightM)) o.set_eye_height_m(body.eye_height_m);
  if (body.expires_s != std::numeric_limits<double>::infinity()) o.set_expires_s(body.expires_s);
  if (d.group != archetype_group) o.set_group(raw(d.group));
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
    o.set_held(p.held);
    o.set_epoch(p.epoch);
    if (!p.holder.empty()) o.set_holder(p.holder);
  }
  for (const std::string& name : copy.archetype_names) out.add_archetype_names(name);
  for (const std::string& name : copy.long_action_names) out.add_long_action_names(name);
  out.mutable_dormant()->Reserve(static_cast<int>(sleeperCount(copy)));
  uint64_t previous_id = 0;
  for (const SleeperList::Shared& place : copy.dormant) {
    if (!place) continue;
    for (const DormantAgent& d : *place) {
      encodeDormant(d, previous_id, copy.archetype_groups[d.archetype], *out.add_dormant());
      previous_id = raw(d.body.id);
    }
  }
}

bool restoreHibernation(const pb::HibernationState& in, const SleeperNames& names,
                        SimStateAccess& access, std::string& error) {
  for (const pb::PlaceState& p : in.places()) {
    access.setPlace(static_cast<PlaceIndex>(p.index()), static_cast<PlaceState>(p.state()),
                    p.last_activity_s(), p.asleep_since_s(), p.wake_at_s());
    access.setCustody(static_cast<PlaceIndex>(p.index()), p.held(), p.epoch(), p.holder());
  }
  return restoreSleepers(in, names, PlaceIndex::kNone, access, error);
}

bool restoreSleepers(const pb::HibernationState& in, const SleeperNames& names, PlaceIndex only,
                     SimStateAccess& access, std::string& error, SleeperCounts* counts) {
  // The snapshot's tables resolved once; an archetype these definitions lack is refused
  // when a sleeper names it.
  std::vector<std::optional<uint16_t>> archetypes;
  for (const std::string& name : in.archetype_names()) archetypes.push_back(access.archetypes().find(name));
  std::vector<uint16_t> long_actions;
  for (const std::string& name : in.long_action_names()) {
    long_actions.push_back(access.longActions().find(name));
  }
  uint64_t id = 0;
  for (const pb::DormantAgentState& o : in.dormant()) {
    id += static_cast<uint64_t>(o.id_delta());
    const std::string who = "sleeping agent " + std::to_string(id);
    if (o.archetype() >= archetypes.size()) {
      error = who + ": archetype " + std::to_string(o.archetype()) + " is not in the snapshot's table of " +
              std::to_string(archetypes.size());
      return false;
    }
    if (!archetypes[o.archetype()]) {
      error = who + ": archetype \"" + in.archetype_names(static_cast<int>(o.archetype())) +
              "\" is unknown";
      return false;
    }
    if (o.vectors_size() != 6 && o.vectors_size() != 9 && o.vectors_size() != 12) {
      error = who + ": " + std::to_string(o.vectors_size()) + " vector components, not 6, 9 or 12";
      return false;
    }
    if (o.items_size() != o.item_counts_size()) {
      error = who + ": " + std::to_string(o.items_size()) + " items but " +
              std::to_string(o.item_counts_size()) + " counts";
      return false;
    }
    const uint16_t archetype = *archetypes[o.archetype()];
    DormantAgent d;
    Entity& body = d.body;
    body.id = EntityId{id};
    body.kind = static_cast<EntityKind>(o.kind());
    body.species = o.species() == 0 || o.species() > names.species.size()
                       ? SpeciesId::kNone
                       : names.species[o.species() - 1];
    body.place = static_cast<PlaceIndex>(o.place());
    if (only != PlaceIndex::kNone) {
      if (body.place != only) continue;
      if (!access.world().entities().find(body.id).isNull()) {
        if (counts) ++counts->skipped;
        continue;
      }
    }
    body.active = (o.flags() & kInactive) == 0;
    body.place_from_client = (o.flags() & kPlaceFromClient) != 0;
    body.takeable = (o.flags() & kNotTakeable) == 0;
    body.owner = static_cast<ClientId>(o.owner());
    body.position = vec3At(o, 0);
    d.home = vec3At(o, 3);
    if (o.vectors_size() >= 9) body.forward = vec3At(o, 6);
    if (o.vectors_size() == 12) body.velocity = vec3At(o, 9);
    if (o.has_eye_height_m()) body.eye_height_m = o.eye_height_m();
    if (o.has_expires_s()) body.expires_s = o.expires_s();
    d.rng_state = o.rng_state();
    for (int i = 0; i < o.bst_variables_size() && i < 2; ++i) d.bst.values.words[i] = o.bst_variables(i);
    d.bst.generation = access.selectionTrees().generation();
    d.bst.tree = static_cast<SelectionTreeId>(o.bst_tree());
    d.bst.behavior = static_cast<BehaviorId>(o.bst_behavior());
    d.bst.leaf = static_cast<BstNodeIndex>(o.bst_leaf());
    d.bst.dirty = (o.flags() & kSelectionDirty) != 0;
    d.behavior_def = static_cast<uint8_t>(o.behavior_def());
    if (o.work_action() != 0) {
      d.work.action = o.work_action() <= long_actions.size() ? long_actions[o.work_action() - 1]
                                                             : LongActionRun::kNone;
      d.work.started_s = o.work_started_s();
      d.work.turns_done = o.work_turns_done();
    }
    d.work_is_hibernation = (o.flags() & kWorkForHibernation) != 0;
    d.actions.setOwn(access.ownActions(archetype));
    for (uint32_t list : o.influences()) {
      access.registry().addInfluence(d.actions, static_cast<ActionListId>(list));
    }
    for (int i = 0; i < o.items_size(); ++i) {
      // add() of 0 keeps no slot; an emptied slot is not worth keeping across a restore.
      if (o.items(i) < names.items.size()) d.inventory.add(names.items[o.items(i)], o.item_counts(i));
    }
    d.actions_completed = o.actions_completed();
    d.actions_failed = o.actions_failed();
    d.archetype = archetype;
    // 0: the group named after its archetype (interned if the snapshot's table lacks it).
    d.group = o.group() == 0 ? access.internGroup(access.archetypes().at(archetype).name)
              : o.group() < names.groups.size() ? names.groups[o.group()]
                                                : GroupNumber::kNone;
    if (d.group == GroupNumber::kNone || access.groupName(d.group).empty()) {
      error = who + ": group " + std::to_string(o.group()) + " is not in the snapshot's group names";
      return false;
    }
    access.addDormant(body.place, d);
    if (counts) ++counts->added;
  }
  return true;
}

}  // namespace npc
