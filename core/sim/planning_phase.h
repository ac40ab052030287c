// PlanningPhase: step 6 of the tick (ARCHITECTURE.md "One tick"). Each awake agent whose
// current behavior plans (mode "plan", no tree of its own) lets each of its planners' runners
// move on: goals are chosen, a plan is searched for when the runner asks (within the tick's
// search budget), and the plan's steps are programmed or stopped as intentions. Agents are
// visited round-robin from the first one the budget left waiting last tick, so that a
// search postponed by the budget goes first.
//
// Reads: the world (bodies, places' states) and the archetypes' behaviors.
// Writes: each agent's own planner runs, its group's planner memory, the search budget and
// cursor; through `program_step` and `stop_step`, what the simulation does with a plan
// (intentions, counters and events), shared with behavior trees' <Plan> and <ExecutePlan>.
// So the phase runs in three steps, and its outcome does not depend on the thread count:
//   1. The tick thread walks the agents in round-robin order and moves each runner on. A
//      runner that asks for a plan while the budget lasts takes one search from it and is
//      set aside (in walk order) with the round it stopped at.
//   2. The searches set aside run on the pool's workers, each with its own planner
//      (SimPlanning::scratchFor); a search reads the world and the agent's own planner
//      state, frozen since step 1, and hands its plan to the agent's own runner. Which
//      worker searches does not matter: a planner's caches answer what a search would.
//      Searches that count statistics or fill a trace run on the tick thread.
//   3. The tick thread goes on with each runner set aside, in walk order, from the round
//      after its search: its first step is programmed there.
// Thread: run() on the tick thread; step 2 on the pool (or the tick thread alone).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "hibernation/place_dispatcher.h"
#include "sim/tick_profile.h"
#include "world/world.h"

namespace npc {

struct AgentPlanner;  // sim/sim_planner.h
struct PlannerRun;
struct SimPlanning;
class WorkerPool;
namespace goap {
struct PlanResult;
}

// What one search gave, as the simulation counts it (on the tick thread, in walk order).
struct SearchCount {
  bool has_plan = false;  // a plan to run (found, partial or the previous one kept)
  bool found = false;
  bool partial = false;
  uint64_t elapsed_ns = 0;

  static SearchCount of(const goap::PlanResult& result, uint64_t elapsed_ns);
};

struct PlanningPhaseContext {
  std::span<Agent> agents;                 // awake agents
  const World& world;                      // their bodies
  const PlaceDispatcher& places;           // a draining place's agents do not plan
  const ArchetypeSet& archetypes;          // which behaviors plan
  SimPlanning& planning;                   // bindings, runs, group memories, budget, cursor
  TickProfile& profile;
  WorkerPool* pool = nullptr;              // null: the tick thread alone
  double now_s = 0.0;
  // Searches for a plan for the run's goals with worker w's planner (0: the tick thread's)
  // and returns its result, or nullptr when the agent has nothing to search from. Called on
  // the pool: it may write only the run and worker w's scratch.
  std::function<const goap::PlanResult*(unsigned worker, const Agent&, AgentPlanner&,
                                        uint8_t index, PlannerRun&, uint64_t& elapsed_ns)>
      search;
  // Counts a search that returned a result (tick thread, in walk order).
  std::function<void(PlannerRun&, const SearchCount&)> searched;
  // Programs the run's current step (or its fallback) as intentions.
  std::function<void(Agent&, uint8_t index, PlannerRun&, bool fallback)> program_step;
  // Cancels the intentions of the run's running step.
  std::function<void(Agent&, PlannerRun&)> stop_step;
};

class PlanningPhase {
 public:
  void run(const PlanningPhaseContext& ctx);

 private:
  static constexpr int kRounds = 4;  // runner commands per planner per tick, at most

  // A search set aside in step 1 and what it gave in step 2.
  // Rows and runs stay where they are for the whole phase, so the run is kept by pointer.
  struct Search {
    uint32_t row = 0;
    uint8_t index = 0;      // the agent's planner
    uint8_t round = 0;      // the round it asked in
    AgentPlanner* planner = nullptr;
    PlannerRun* run = nullptr;
    bool returned = false;  // the search returned a result (handed to the runner)
    SearchCount counted;
  };

  // One planner of one agent from round `first`: at most kRounds runner commands (a plan
  // found this tick starts its first step at once; a stopped step may be followed by a
  // search). In step 1 (`defer`) a search is set aside; in step 3 it runs there and then.
  void runPlanner(const PlanningPhaseContext& ctx, uint32_t row, AgentPlanner& ap, uint8_t index,
                  PlannerRun& run, int first, bool defer);
  void search(const PlanningPhaseContext& ctx, Search& s, unsigned worker);
  void searchAll(const PlanningPhaseContext& ctx);
  static void count(const PlanningPhaseContext& ctx, const Search& s);

  std::vector<Search> searches_;  // this tick's, in walk order (capacity kept)
};

}  // namespace npc
