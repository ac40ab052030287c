// BehaviorPhase: step 5 of the tick (ARCHITECTURE.md "One tick"). An agent whose behavior
// names a modular behavior tree ticks it (its action nodes program intentions through
// SimMbtHost); any other idle agent's built-in behavior mode programs its next action.
// Agents on a reduced rate skip their off ticks; agents of a draining place wind down.
//
// Reads: the world and the places' states (frozen: nothing moves during the phase).
// Writes: each agent's own tree instance, behavior memory and intention queue; through the
// tree host and the intention context, what trees reach across agents (signals, plans,
// shared slots, intention events) — so the phase runs on the tick thread, in row order.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "agent/builtin_behaviors.h"
#include "hibernation/place_dispatcher.h"
#include "intent/decision_tree.h"
#include "sim/tick_profile.h"
#include "world/world.h"

namespace npc {

class SimMbtHost;

// True when the agent's current behavior runs a modular behavior tree (it then programs
// its own actions; the built-in modes leave it alone).
bool runsBehaviorTree(const Agent& agent, const ArchetypeSet& archetypes);

struct BehaviorPhaseContext {
  std::span<Agent> agents;                 // awake agents
  std::span<const uint8_t> runs;           // by agent row: 0 = off tick (empty: all run)
  const World& world;
  const PlaceDispatcher& places;           // a draining place's agents do not start anything
  const ArchetypeSet& archetypes;
  const BuiltinBehaviors& behaviors;
  SimMbtHost& trees;                       // the simulation as behavior trees see it
  const TreeContext& intentions;           // where programmed intentions are numbered and told
  TickProfile& profile;
  double now_s = 0.0;
  // A built-in behavior's action could not be programmed: tell the agent's owner.
  std::function<void(ClientId owner, EntityId agent, std::string text)> error;
};

class BehaviorPhase {
 public:
  void run(const BehaviorPhaseContext& ctx);
};

}  // namespace npc
