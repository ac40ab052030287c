// SimStateAccess: the door through which snapshots (state/, ARCHITECTURE.md "State that
// outlives the process") read a simulation's runtime state and rebuild it. Plain C++: the
// codecs that turn this state into protobuf messages live outside core/.
//
// Reading: tick thread, between ticks; the views are valid until the next tick.
// Restoring: tick thread, before the first tick, on a simulation whose definitions
// (archetypes, trees, domains, long actions, influences, places) are loaded exactly as when
// the snapshot was taken (the snapshot's definitions hash says so):
//   access.clear();                       // the world file's agents and entities go
//   access.setCounters(...);
//   access.addEntity(...) / addPlanner(...) / addAgent(...) / addDormant(...) / setPlace(...)
//   access.finishRestore();
// Perception's daemon-wide state (tuning, visibility types, attribute principals) is
// restored after the agents: access.setPerceptionTuning / setVisibilityTypes /
// setAttributePrincipals.
// What is not restored: running behavior tree nodes (a restored tree starts again at its
// root with its variables and timestamps), plans (agents plan afresh, as after waking) and
// intentions (those that were running are reported INTERRUPTED on the first tick).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "agent/agent.h"
#include "hibernation/dormant_agent.h"
#include "hibernation/place_dispatcher.h"
#include "mbt/instance.h"
#include "perception/visibility.h"
#include "sim/commands.h"
#include "sim/planner_memory.h"

namespace npc {

class Simulation;
class PerceptionSystem;
class World;
class ArchetypeSet;
class LongActionLibrary;
class NameTable;
class SelectionTreeLibrary;
class ActionRegistry;

// An awake agent as a snapshot keeps it (core/agent/agent.h minus what is not restored).
struct AgentRecord {
  Entity body;
  uint16_t archetype = 0;
  Vec3 home;
  uint64_t rng_state = 0;
  PerceptionState perception;
  BstAgentState bst;
  uint8_t behavior_def = Agent::kNoBehaviorDef;
  std::vector<ActionListId> influences;  // lookup order
  LongActionRun work;
  bool work_is_hibernation = false;
  Inventory inventory;
  uint32_t actions_completed = 0;
  uint32_t actions_failed = 0;
  double idle_until_s = 0.0;
  double greet_ready_s = 0.0;
  double attack_ready_s = 0.0;
  EntityId faced = EntityId::kNone;
  Vec3 investigated{1e30f, 1e30f, 1e30f};
  bool looked_around = false;
  // Its behavior tree's runtime (applied when its behavior binds a tree).
  VariableSet mbt_variables;
  std::vector<MbtTimestamp> mbt_timestamps;
  bool mbt_stopped = false;
  // Intentions running at the snapshot: reported INTERRUPTED on the first tick.
  struct Interrupted {
    IntentionId id = IntentionId::kNone;
    uint16_t action = 0;  // interned in names()
    float progress = 0.f;
  };
  std::vector<Interrupted> interrupted;
};

class SimStateAccess {
 public:
  explicit SimStateAccess(Simulation& sim) : sim_(sim) {}

  // --- reading ------------------------------------------------------------------------
  uint64_t tick() const;
  double timeS() const;
  uint64_t nextIntentionId() const;
  uint64_t nextDroppedObject() const;
  const World& world() const;
  std::span<const Agent> agents() const;
  const PlaceDispatcher& places() const;
  std::span<const std::vector<DormantAgent>> dormant() const;  // by place
  const ArchetypeSet& archetypes() const;
  const LongActionLibrary& longActions() const;
  const NameTable& names() const;              // action names (intentions)
  const SelectionTreeLibrary& selectionTrees() const;
  // Perception's daemon-wide state: tuning, registered visibility types, attribute links.
  const PerceptionSystem& perception() const;
  // A planning agent's memory, awake (its planner row) or asleep; nullopt if it does not plan.
  std::optional<PlannerMemory> planner(EntityId id) const;
  // Ids of the sleeping planning agents, ascending.
  std::vector<EntityId> sleepingPlanners() const;

  // --- restoring ----------------------------------------------------------------------
  // Removes every entity, agent, sleeper, plan and queued output (no events).
  void clear();
  void setCounters(uint64_t tick, uint64_t next_intention_id, uint64_t next_dropped_object);
  // A non-agent entity (players, objects, attributes) as it was.
  void addEntity(const Entity& entity);
  void addObstacle(const Obstacle& obstacle);
  // A planning agent's memory: adopted by the agent when it is added (awake or asleep).
  void addPlanner(EntityId id, const PlannerMemory& memory);
  // An awake agent; its behavior tree binds and starts at its root with the record's
  // variables and timestamps. False when its archetype index is unknown.
  bool addAgent(const AgentRecord& record);
  // An agent asleep in `place` (asleep itself in the snapshot).
  void addDormant(PlaceIndex place, const DormantAgent& record);
  void setPlace(PlaceIndex place, PlaceState state, double last_activity_s, double asleep_since_s,
                double wake_at_s);
  // Perception's daemon-wide state as captured (what admin calls and config reloads
  // changed since start): the tuning, every registered visibility type (replacing the
  // config's) and the attribute-principal links.
  // The tuning goes through the admin command's checks: an error changes nothing.
  Status setPerceptionTuning(const SetPerceptionTuning& tuning);
  void setVisibilityTypes(std::span<const std::pair<std::string, VisibilityType>> types);
  void setAttributePrincipals(std::vector<std::pair<EntityId, EntityId>> links);
  // Sorts the sleepers' index and queues the INTERRUPTED reports for the first tick.
  void finishRestore();

  // Interns names as the restored state refers to them: an action (intention reports), a
  // species, an inventory item.
  uint16_t internAction(std::string_view name);
  uint16_t internSpecies(std::string_view name);
  uint16_t internItem(std::string_view name);
  const ActionRegistry& registry() const;
  // The archetype's own action list (what a restored agent's ActionAccess starts from).
  ActionListId ownActions(uint16_t archetype) const;

 private:
  Simulation& sim_;
};

}  // namespace npc
