// The whole simulation's runtime state as one npc.state.v1.SimState: each module's codec
// writes its part (world_codec, perception_codec, bst_codec, mbt_codec, goap_codec,
// intent_codec, hibernation_codec). Capture is split in two: the tick thread copies plain
// rows between ticks (sim_state_copy.h), any thread builds the messages from them; restore
// runs before the first tick on a simulation loaded
// with the same definitions (sim/sim_state_access.h says what comes back and what not).
#pragma once

#include <string>

#include "hibernation_codec.h"
#include "npc/state/v1/snapshot.pb.h"
#include "sim/sim_state_access.h"
#include "sim_state_copy.h"

namespace npc {

class Simulation;
namespace pb = ::npc::state::v1;

// Tick thread, between ticks: copySimState() then buildSimState().
void captureSimState(Simulation& sim, pb::SimState& out);
// Any thread: the messages of a copy taken by copySimState() (sim_state_copy.h); the same
// as captureSimState() would have built from the simulation at that point.
void buildSimState(const SimStateCopy& copy, pb::SimState& out);
// Replaces the simulation's agents, entities, places' state and counters with `state`.
// kExact: fed the same commands, the simulation then ticks as the captured one did;
// kRestart: the intentions in flight are reported INTERRUPTED (sim_state_access.h).
// False with `error` when the state names what these definitions lack (an archetype);
// the simulation must not be used then.
bool restoreSimState(const pb::SimState& state, Simulation& sim, std::string& error,
                     RestoreMode mode = RestoreMode::kRestart);

// One awake agent's record (its exact parts only with `exact`); false with `error` when
// its archetype is unknown here. Names (species, items, actions) are interned by name.
bool decodeAgent(const pb::AgentState& in, SimStateAccess& access, AgentRecord& record,
                 bool exact, std::string& error);
// The state's sleeper name tables interned here (hibernation_codec.h SleeperNames).
SleeperNames sleeperNames(const pb::SimState& state, SimStateAccess& access);

}  // namespace npc
