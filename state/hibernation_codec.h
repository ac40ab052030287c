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
void encodeDormant(const DormantAgent& d, uint64_t previous_id, uint16_t archetype_group,
                   pb::DormantAgentState& out);
bool restoreHibernation(const pb::HibernationState& in, SimStateAccess& access, std::string& error);

}  // namespace npc
