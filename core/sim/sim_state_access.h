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
// Exact restore: with the records' exact parts (AgentRecord::exact, planner rows, squad
// memory, the name tables, the planning cursor) a restored simulation fed the same
// commands ticks like the one captured, tick for tick: running behavior tree nodes carry
// on mid-node, plans mid-step, intentions mid-action. Without them (a snapshot of another
// build: its runtime layout differs) trees start again at their roots and agents plan
// afresh. RestoreMode::kRestart (a daemon coming back after a stop) ends the intentions
// that were in flight: each running one is reported INTERRUPTED on the first tick (the
// game's connections, and so the results of those actions, are gone); queued ones go too.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "agent/agent.h"
#include "hibernation/dormant_agent.h"
#include "hibernation/sleeper_list.h"
#include "sim/client_directory.h"
#include "hibernation/place_dispatcher.h"
#include "intent/intention_queue.h"
#include "mbt/instance.h"
#include "nav/nav_obstacle_change.h"
#include "nav/sliced_path_queue.h"
#include "perception/signals.h"
#include "perception/sounds.h"
#include "perception/stealth_meter.h"
#include "perception/visibility.h"
#include "sim/commands.h"
#include "sim/place_custody.h"
#include "sim/planner_memory.h"

namespace npc {

class Simulation;
class PerceptionSystem;
class World;
class ArchetypeSet;
class LongActionLibrary;
template <class Id>
class NameTable;
class SelectionTreeLibrary;
class ActionRegistry;
struct PlannerRun;

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
  std::optional<LuaEnvImage> mbt_lua;  // what its scripts kept of their own
  // Intentions running at the snapshot: reported INTERRUPTED on the first tick.
  struct Interrupted {
    IntentionId id = IntentionId::kNone;
    ActionNameId action{0};  // interned in names()
    float progress = 0.f;
  };
  std::vector<Interrupted> interrupted;
  // What an exact restore adds: the run carried on where it was.
  struct Exact {
    IntentionQueue queue;  // running intention included
    uint32_t access_version = 0;
    uint32_t access_refused = 0;
    std::array<Agent::Outcome, 8> recent_outcomes{};
    uint8_t next_outcome = 0;
    std::array<Agent::SentAction, 4> sent_actions{};
    uint8_t next_sent = 0;
    std::optional<MbtInstance::RunImage> mbt;  // when its tree ran
    std::vector<std::string> planner_runs;     // plannerRuns()' rows, by planner index
  };
  std::optional<Exact> exact;
};

// How a restored simulation treats the intentions in flight at the snapshot.
enum class RestoreMode : uint8_t {
  kExact,    // they carry on (replaying a journal from the snapshot)
  kRestart,  // the running one of each agent is reported INTERRUPTED, queued ones dropped
};

// The name tables whose indices the runtime state holds (action names, species, items),
// in index order: restored first, so every index means the same name again.
enum class NameTableKind : uint8_t { kActions, kSpecies, kItems, kSignals, kGroups };

class SimStateAccess {
 public:
  explicit SimStateAccess(Simulation& sim) : sim_(sim) {}

  // Identifies the layout of the records an exact snapshot keeps as native bytes (the
  // intention queue, planner rows; behavior tree node data is checked node by node): a
  // snapshot with another value comes from a build that lays them out differently.
  static uint64_t runtimeLayout();
  // A fresh planner row's bytes: plannerRuns()' rows are mostly as it is.
  static const std::string& freshPlannerRow();

  // --- reading ------------------------------------------------------------------------
  uint64_t tick() const;
  double timeS() const;
  uint64_t nextIntentionId() const;
  uint64_t nextDroppedObject() const;
  const World& world() const;
  // The navmesh's obstacles (held boxes by id, waiting changes in order) when it follows
  // obstacle changes (a tile cache); false, and the lists emptied, when it does not.
  bool navObstacles(std::vector<nav::NavObstacleChange>& held,
                    std::vector<nav::NavObstacleChange>& queued) const;
  // The MoveTo checks searched on over ticks (SlicedPathQueue): waiting requests, oldest
  // first, and the iterations the open one has had. Empty without a navmesh.
  void navLongSearches(std::vector<nav::SlicedPathRequest>& waiting, int& open_iterations) const;
  std::span<const Agent> agents() const;
  const Agent* agent(EntityId id) const;  // an awake agent; null if none
  const PlaceDispatcher& places() const;
  const PlaceCustody& custody() const;
  std::span<const SleeperList> dormant() const;  // by place
  const ArchetypeSet& archetypes() const;
  const LongActionLibrary& longActions() const;
  const NameTable<ActionNameId>& names() const;  // action names (intentions)
  const SelectionTreeLibrary& selectionTrees() const;
  // Perception's daemon-wide state: tuning, registered visibility types, attribute links.
  const PerceptionSystem& perception() const;
  // A planning agent's memory, awake (its planner row) or asleep; nullopt if it does not plan.
  std::optional<PlannerMemory> planner(EntityId id) const;
  // Ids of the sleeping planning agents, ascending.
  std::vector<EntityId> sleepingPlanners() const;
  // An awake planning agent's planner rows as plain bytes, by planner index (exact restore).
  std::vector<std::string> plannerRuns(EntityId id) const;
  // The same three, into storage the caller reuses (a snapshot's copy on the tick thread):
  // false when the agent does not plan; appends the planner rows to `rows`, runners
  // unbound as in plannerRuns(), and returns how many (none when one is missing, as
  // plannerRuns()); `out` overwritten with each place's sleeping planners, shared as the
  // sleepers are (null for a place with none; rows in the order they fell asleep).
  bool copyPlanner(const Agent& agent, PlannerMemory& out) const;
  uint8_t appendPlannerRuns(const Agent& agent, std::vector<PlannerRun>& rows) const;
  void shareSleepingPlanners(std::vector<SleepingPlanners::Shared>& out) const;
  // Squad memory (blackboard and pacing) by perception group, and the planning budget's
  // round-robin cursor.
  std::vector<PlannerMemory> groupPlannerMemory() const;
  uint64_t planningCursor() const;
  // Identified clients with no stream open (their agents' actions go to every subscriber).
  std::span<const ClientId> awayClients() const;
  // The names of a table, in index order.
  std::vector<std::string> names(NameTableKind kind) const;

  // --- restoring ----------------------------------------------------------------------
  // Removes every entity, agent, sleeper, plan, queued output and command not yet applied
  // (the world file's, which describe the state being replaced); no events.
  void clear();
  void setCounters(uint64_t tick, uint64_t next_intention_id, uint64_t next_dropped_object);
  // A place adopted from another node (state/place_handoff.h) into a simulation that runs
  // on: its agents here, awake or asleep, go first, without a word to clients. Then
  // addPlanner / addAgent / addDormant / setPlace and finishRestore() as for a whole restore.
  void unloadPlace(PlaceIndex place);
  // Wakes a sleeping place (agents arriving from another node are activity), with `cause`
  // in its wake event.
  void wakePlace(PlaceIndex place, std::string_view cause);
  // Before any entity is added: the entity table's rows in this order (ids, as captured),
  // which is the order perception and the spatial index visit them in — floating-point sums
  // and ties then come out as they did. Rows not filled by addEntity/addAgent are dropped
  // by finishRestore().
  void setEntityOrder(std::span<const EntityId> ids);
  // A non-agent entity (players, objects, attributes) as it was.
  void addEntity(const Entity& entity);
  void addObstacle(const Obstacle& obstacle);
  // The navmesh's obstacles as captured (held boxes, waiting changes): finishRestore()
  // rebuilds the mesh with them. Without this call after clear(), the mesh is rebuilt to
  // show the restored obstacles.
  void setNavObstacles(std::vector<nav::NavObstacleChange> held,
                       std::vector<nav::NavObstacleChange> queued);
  // The long MoveTo checks as captured: finishRestore() queues them again, after the mesh
  // is the captured one, and replays the open search's iterations.
  void setNavLongSearches(std::vector<nav::SlicedPathRequest> waiting, int open_iterations);
  // A planning agent's memory: adopted by the agent when it is added (awake or asleep);
  // dropped by finishRestore() when no agent of that id came.
  void addPlanner(EntityId id, const PlannerMemory& memory);
  // An awake agent; its behavior tree binds with the record's variables and timestamps and
  // starts at its root, or carries on (record.exact). False when its archetype index is
  // unknown or its exact parts do not fit the definitions.
  bool addAgent(const AgentRecord& record, RestoreMode mode);
  // An agent asleep in `place` (asleep itself in the snapshot).
  void addDormant(PlaceIndex place, const DormantAgent& record);
  void setPlace(PlaceIndex place, PlaceState state, double last_activity_s, double asleep_since_s,
                double wake_at_s);
  // A place's custody (leased places: held, the epoch it is or was last held at, and who
  // holds it when this daemon does not).
  void setCustody(PlaceIndex place, bool held, uint64_t epoch, std::string holder);
  // Interns `names` in order into the table; false when one lands on another index than
  // its position (the tables began differently: the snapshot is not of these definitions).
  bool restoreNames(NameTableKind kind, std::span<const std::string> names);
  void setGroupPlannerMemory(std::span<const PlannerMemory> groups);
  void setPlanningCursor(uint64_t cursor);
  void setAwayClients(std::vector<ClientId> clients);  // any order
  // Perception's daemon-wide state as captured (what admin calls and config reloads
  // changed since start): the tuning, every registered visibility type (replacing the
  // config's) and the attribute-principal links.
  // The tuning goes through the admin command's checks: an error changes nothing.
  Status setPerceptionTuning(const SetPerceptionTuning& tuning);
  void setVisibilityTypes(std::span<const std::pair<std::string, VisibilityType>> types);
  void setAttributePrincipals(std::vector<std::pair<EntityId, EntityId>> links);
  // The stealth meter's readings and the values last reported to clients (sorted by player).
  void setStealth(std::vector<StealthReading> readings, std::vector<float> reported);
  // Signals and sounds the last tick left for the next one, in their order.
  void addPending(std::span<const SignalRequest> signals, std::span<const Sound> sounds);
  // Sorts the sleepers' index and queues the INTERRUPTED reports for the first tick.
  void finishRestore();

  // Interns names as the restored state refers to them: an action (intention reports), a
  // species, an inventory item.
  ActionNameId internAction(std::string_view name);
  SpeciesId internSpecies(std::string_view name);
  ItemId internItem(std::string_view name);
  // A signal group's number (0 when the table is full) and a number's name ("" if none).
  GroupNumber internGroup(std::string_view name);
  const std::string& groupName(GroupNumber group) const;
  const NameTable<GroupNameId>& groups() const;
  const ClientDirectory& clients() const;
  void restoreClients(std::vector<ClientBinding> bindings, uint32_t highest);
  // The number of the group named after the archetype (where its agents spawn by default);
  // 0 when no agent ever joined it.
  GroupNumber archetypeGroup(uint16_t archetype) const;
  const ActionRegistry& registry() const;
  // The archetype's own action list (what a restored agent's ActionAccess starts from).
  ActionListId ownActions(uint16_t archetype) const;

 private:
  bool restoreExact(Agent& agent, const AgentRecord::Exact& exact, RestoreMode mode);
  void reportInterrupted(const Agent& agent, const AgentRecord& record);
  void restoreNavigation();

  Simulation& sim_;
  std::vector<EntityId> reserved_;  // setEntityOrder's rows
  std::unordered_map<EntityId, PlannerMemory> planners_;  // addPlanner's, until the agent comes
  // A whole restore (clear() was called): finishRestore() rebuilds the navmesh's obstacles,
  // from setNavObstacles' lists or else from the restored world's.
  bool whole_restore_ = false;
  std::optional<std::pair<std::vector<nav::NavObstacleChange>, std::vector<nav::NavObstacleChange>>>
      nav_obstacles_;
  std::vector<nav::SlicedPathRequest> nav_long_searches_;
  int nav_long_open_iterations_ = 0;
};

}  // namespace npc
