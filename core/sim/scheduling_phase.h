// SchedulingPhase: step 7 of the tick (ARCHITECTURE.md "One tick"). Each awake agent with
// something programmed takes its turn with the ActionScheduler (seed 004's four cases):
// intentions start, daemon-side ones perform, client-side ones are addressed to the agent's
// owner, and those without a result within the archetype's timeout fail.
//
// Reads: the agents' bodies (owner, place) and the archetypes' timeouts.
// Writes: each agent's own IntentAgentState, and the tick's start and intention-event
// buffers, which the simulation empties through `flush` whenever one might not hold a
// whole turn, and once more at the end (their consumers cross agents: trees, plan steps,
// clients; daemon-side actions change inventories and post signals).
// The events earlier phases of the tick left are handled first, so that what they wake (a
// tree's next action, a plan's next step) is due this tick.
// Thread: most agents wait, and finding the few whose turn is due reads every agent's
// queue: with a pool, worker w sorts out the w-th contiguous slice of rows (ActionScheduler::
// due reads the agent alone). The turns then run on the tick thread, in row order: a turn,
// and the handling of its events, changes no other agent's queue or influences, so the
// agents found due are the ones a serial pass would find, whatever the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "intent/action_scheduler.h"
#include "intent/bounded_buffer.h"
#include "sim/tick_profile.h"
#include "world/world.h"

namespace npc {

class WorkerPool;

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
  WorkerPool* pool = nullptr;              // null or one thread: the tick thread alone
};

class SchedulingPhase {
 public:
  void run(const SchedulingPhaseContext& ctx);

 private:
  // Rows [begin, end) with something programmed and a turn due, into due_[worker].
  void findDue(const SchedulingPhaseContext& ctx, size_t begin, size_t end, unsigned worker);
  void takeTurn(const SchedulingPhaseContext& ctx, Agent& agent);

  std::vector<std::vector<uint32_t>> due_;  // by worker: rows, ascending; capacity reused
  std::vector<uint64_t> skipped_;           // by worker: turns found not due
};

}  // namespace npc
