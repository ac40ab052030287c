// SchedulingPhase: step 7 of the tick (ARCHITECTURE.md "One tick"). Each awake agent with
// something programmed takes its turn with the ActionScheduler (seed 004's four cases):
// intentions start, daemon-side ones perform, client-side ones are addressed to the agent's
// owner, and those without a result within the archetype's timeout fail.
//
// Reads: the agents' bodies (owner, place) and the archetypes' timeouts.
// Writes: each agent's own IntentAgentState, and the tick's start and intention-event
// buffers, which the simulation empties through `flush` whenever one might not hold a
// whole turn, and once more at the end (their consumers cross agents: trees, plan steps,
// clients). Thread: the tick thread, in row order.
#pragma once

#include <functional>
#include <span>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "intent/action_scheduler.h"
#include "intent/bounded_buffer.h"
#include "sim/tick_profile.h"
#include "world/world.h"

namespace npc {

struct SchedulingPhaseContext {
  std::span<Agent> agents;                 // awake agents; their intention state is written
  const World& world;                      // their bodies
  const ArchetypeSet& archetypes;          // client action timeouts
  ActionScheduler& scheduler;
  BoundedBuffer<ClientActionStart>& starts;
  BoundedBuffer<IntentionEvent>& events;
  TickProfile& profile;
  double now_s = 0.0;
  float quantum_s = 0.f;                   // simulated seconds a daemon-side action advances
  std::function<ClientId(ClientId owner)> addressee;  // who a client-side action goes to
  std::function<void()> flush;             // empties `starts` and `events`
};

class SchedulingPhase {
 public:
  void run(const SchedulingPhaseContext& ctx);
};

}  // namespace npc
