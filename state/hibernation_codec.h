// Hibernation codec: inventories, running long actions, the places' dispatcher state and
// the agents asleep in sleeping places, to npc.state.v1.HibernationState and its parts.
#pragma once

#include "npc/state/v1/hibernation.pb.h"
#include "name_list.h"
#include "sim/sim_state_access.h"
#include "sim_state_copy.h"

namespace npc {

namespace pb = ::npc::state::v1;

void encodeInventory(const Inventory& inventory, NameList items, pb::InventoryState& out);
Inventory decodeInventory(const pb::InventoryState& in, SimStateAccess& access);

void encodeLongAction(const LongActionRun& run, bool for_hibernation, NameList long_actions,
                      pb::LongActionState& out);
// An unknown action name gives no running action (the definitions hash rules that out).
LongActionRun decodeLongAction(const pb::LongActionState& in, const LongActionLibrary& library);

// Places and sleepers; the sleepers' archetype names must be known (else `error` says which).
void encodeHibernation(const SimStateCopy& copy, pb::HibernationState& out);
// One sleeper (hibernation.proto DormantAgentState); `previous_id`: the body id of the
// sleeper written before it (0 for the first); `archetype_group`: the number of the group
// named after its archetype (SimStateAccess::archetypeGroup), which is left out.
void encodeDormant(const DormantAgent& d, uint64_t previous_id, GroupNumber archetype_group,
                   pb::DormantAgentState& out);

// What a snapshot's interned indices name in the simulation restoring it: a sleeper's
// species and items index SimState.species_names / item_names, its group number
// SimState.group_names (sim_state_codec.h sleeperNames()). After restoreNames() every
// entry maps to itself; a place adopted from another node maps through the names.
struct SleeperNames {
  std::vector<SpeciesId> species;  // by snapshot index
  std::vector<ItemId> items;       // by snapshot index
  std::vector<GroupNumber> groups;  // by snapshot group number ([0] unused)
};
// Every place's dispatcher state and custody, then every sleeper.
bool restoreHibernation(const pb::HibernationState& in, const SleeperNames& names,
                        SimStateAccess& access, std::string& error);
struct SleeperCounts {
  size_t added = 0;
  size_t skipped = 0;  // adopting one place: its id is an entity here already
};
// The sleepers of `only` (PlaceIndex::kNone: of every place, into a cleared simulation).
bool restoreSleepers(const pb::HibernationState& in, const SleeperNames& names, PlaceIndex only,
                     SimStateAccess& access, std::string& error, SleeperCounts* counts = nullptr);

}  // namespace npc
