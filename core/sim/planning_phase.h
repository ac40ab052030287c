// PlanningPhase: step 6 of the tick (ARCHITECTURE.md "One tick"). Each awake agent whose
// current behavior plans (mode "plan", no tree of its own) lets each of its planners' runners
// move on: goals are chosen, a plan is searched for when the runner asks (within the tick's
// search budget), and the plan's steps are programmed or stopped as intentions. Agents are
// visited round-robin from the first one the budget left waiting last tick, so that a
// search postponed by the budget goes first.
//
// Reads: the world (bodies, places' states) and the archetypes' behaviors.
// Writes: each agent's own planner runs, its group's planner memory, the search budget and
// cursor; through `search`, `program_step` and `stop_step`, what the simulation does with
// a plan (the planner, intentions, counters and events) — those are shared with behavior
// trees' <Plan> and <ExecutePlan>, so the phase runs on the tick thread, in row order.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "hibernation/place_dispatcher.h"
#include "sim/tick_profile.h"
#include "world/world.h"

namespace npc {

struct AgentPlanner;  // sim/sim_planner.h
struct PlannerRun;
struct SimPlanning;

struct PlanningPhaseContext {
  std::span<Agent> agents;                 // awake agents
  const World& world;                      // their bodies
  const PlaceDispatcher& places;           // a draining place's agents do not plan
  const ArchetypeSet& archetypes;          // which behaviors plan
  SimPlanning& planning;                   // bindings, runs, group memories, budget, cursor
  TickProfile& profile;
  double now_s = 0.0;
  // Searches for a plan for the run's goals; true when the planner's result is the search's.
  std::function<bool(Agent&, AgentPlanner&, uint8_t index, PlannerRun&)> search;
  // Programs the run's current step (or its fallback) as intentions.
  std::function<void(Agent&, uint8_t index, PlannerRun&, bool fallback)> program_step;
  // Cancels the intentions of the run's running step.
  std::function<void(Agent&, PlannerRun&)> stop_step;
};

class PlanningPhase {
 public:
  void run(const PlanningPhaseContext& ctx);

 private:
  // One planner of one agent: at most a few runner commands (a plan found this tick starts
  // its first step at once; a stopped step may be followed by a search).
  void runPlanner(const PlanningPhaseContext& ctx, Agent& agent, AgentPlanner& ap, uint8_t index,
                  PlannerRun& run);
};

}  // namespace npc
