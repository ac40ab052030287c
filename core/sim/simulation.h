// Simulation: owns the world, the agents and everything that decides what they do, and
// runs one tick at a time. The narrow facade the server talks to:
//   submit(commands)  — any thread; queued until the next tick
//   tick()            — tick thread; advances simulated time by exactly tick_dt_s
//   output()          — tick thread, between ticks; what the last tick emitted
//   stats(), describeAgent() — tick thread; read-only views for debugging
// No wall clock, no unordered iteration, no unseeded randomness: the same seed and the
// same commands in the same order give the same outputs (see core/sim/README.md).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "agent/builtin_behaviors.h"
#include "base/dense_table.h"
#include "base/latency_histogram.h"
#include "bst/selection_tree_library.h"
#include "hibernation/dormant_agent.h"
#include "hibernation/sleeper_list.h"
#include "hibernation/long_action.h"
#include "hibernation/place_dispatcher.h"
#include "intent/action_registry.h"
#include "intent/action_scheduler.h"
#include "intent/decision_tree.h"
#include "intent/inventory_model.h"
#include "mbt/host.h"
#include "mbt/library.h"
#include "perception/perception_system.h"
#include "sim/command_inbox.h"
#include "sim/commands.h"
#include "sim/definition_set.h"
#include "sim/behavior_phase.h"
#include "sim/planning_phase.h"
#include "sim/perception_phase.h"
#include "sim/scheduling_phase.h"
#include "sim/selection_phase.h"
#include "sim/detail_tiers.h"
#include "sim/client_directory.h"
#include "sim/place_custody.h"
#include "sim/tick_output.h"
#include "sim/tick_profile.h"
#include "sim/upsert_coalescer.h"
#include "world/world.h"

namespace npc {

class SimMbtHost;
class WorkerPool;
struct SimPlanning;
struct SimNavigation;
namespace nav {
class NavMesh;
struct NavConfig;
enum class NavResult : uint8_t;
}  // namespace nav
struct AgentPlanner;
struct PlannerRun;
struct PlannerMemory;
namespace goap {
struct PlanResult;
}  // namespace goap

struct SimConfig {
  double tick_dt_s = 0.1;        // simulated seconds per tick [Limit: > 0]
  uint64_t seed = 1;             // world seed: per-agent random streams derive from it
  WorldOptions world;
  size_t max_queued_commands = 1 << 20;  // submit() refuses beyond this (back-pressure)
  size_t max_agents = 100000;            // spawns beyond this fail with kResourceExhausted
  PerceptionConfig perception;           // global perception tuning (difficulty)
  bool derive_footsteps = true;          // moving players make footstep sounds each tick
  HibernationConfig hibernation;         // quiet places sleep (core/hibernation/README.md)
  uint32_t max_plans_per_tick = 256;     // planner searches per tick; the rest wait a tick
  // Threads of the tick's per-agent phases (config tick.threads): 1 = the tick thread alone,
  // no pool; more = a WorkerPool of that many (the tick thread included). Results do not
  // depend on it (ARCHITECTURE.md "Threads"). [Limit: 1..256]
  unsigned threads = 1;
  // Awake agents far from every player run at a reduced, staggered rate (detail_tiers.h).
  DetailConfig detail;
  // Places are held by lease (a cluster, server/cluster/): they start held by nobody and
  // HoldPlace commands give and take them (place_custody.h). Off: every place is held.
  bool leased_places = false;
  // Upserts of one entity from one sender queued for the same tick apply only the last one
  // where that is exact (upsert_coalescer.h). Off: every upsert applies (for comparing).
  bool coalesce_upserts = true;
};

struct SimStats {
  uint64_t tick = 0;
  double sim_time_s = 0.0;
  size_t entities = 0;
  size_t agents = 0;
  size_t agents_awake = 0;
  size_t agents_asleep = 0;
  size_t agents_reduced = 0;  // awake, on the reduced rate (no player near; tick.lod)
  size_t places = 0;
  size_t places_awake = 0;
  size_t places_asleep = 0;
  size_t places_held = 0;  // every place unless places are leased (a cluster)
  size_t obstacles = 0;
  uint64_t commands_applied = 0;
  uint64_t upserts_coalesced = 0;  // of them, upserts a later one of the same tick superseded
  uint64_t actions_emitted = 0;     // client-side actions sent to clients
  uint64_t actions_completed = 0;
  uint64_t actions_failed = 0;
  uint64_t errors = 0;  // commands refused
  uint64_t late_results = 0;  // client results for intentions the daemon had just ended
  uint64_t behavior_changes = 0;
  uint64_t signals_delivered = 0;
  uint64_t perception_rays = 0;
  uint64_t perception_full_updates = 0;
  uint64_t plans = 0;          // planner searches run
  uint64_t plans_failed = 0;   // searches that found no plan
  uint64_t plans_partial = 0;  // searches cut by a limit (counted in plans_failed too unless
                               // the domain accepts partial plans)
  uint64_t plan_steps_failed = 0;
  LatencyHistogram plan_latency;  // wall time of each planner search (measured, never used)
  // The navmesh's obstacle changes (a mesh with a tile cache): tile layers the ticks rebuilt,
  // changes waiting for the next ticks' budget, and changes a mesh that never changes (a
  // file's) could not follow.
  uint64_t nav_tile_rebuilds = 0;
  size_t nav_obstacle_changes_waiting = 0;
  uint64_t nav_obstacle_changes_ignored = 0;
  // MoveTo checks a query gave up on (search_limit), searched again a slice per tick: waiting,
  // answered, and refused because the queue was full (those MoveTos go out unchecked).
  size_t nav_long_searches_waiting = 0;
  uint64_t nav_long_searches_done = 0;
  uint64_t nav_long_searches_refused = 0;
};

class Simulation {
 public:
  Simulation(const SimConfig& config, ArchetypeSet archetypes);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Set-up (before the first tick, or on the tick thread): where the behavior definitions
  // come from, and loading them from there — the one way the daemon loads them
  // (definition_set.h: order, all-or-nothing rule, report).
  void setDefinitionSources(DefinitionSources sources);
  DefinitionReport loadDefinitions(DefinitionLoad how);
  // New definitions of the running archetypes (the poll, ReloadDefinitions): all or nothing.
  // Live changes (agent/archetype_change.h: sensors, spawn inventory, reflex and behavior
  // timings) take effect at once, agents' sensors included; a set that adds, removes or
  // rewires an archetype is refused, each such archetype named with what needs a restart.
  DefinitionReport reloadArchetypes(const ArchetypeSet& fresh);

  // The same from in-memory files, one kind at a time (tests, tools):
  // Selection trees. Every archetype's selection_tree must exist and every behavior a tree
  // selects should be defined by the archetypes using it (missing ones are warnings: such
  // agents face their target). Agents already spawned are bound again. A failed load keeps
  // what was loaded.
  DefinitionReport loadSelectionTrees(const std::vector<BstSourceFile>& files);
  // Set-up: the long actions archetypes name (behaviors of mode long_action, hibernation
  // actions). Returns one message per unknown name; empty when everything resolved.
  std::vector<std::string> setLongActions(LongActionLibrary library);
  // A new library taking over live (the poll, ReloadDefinitions; `fresh` loaded with the
  // running library's item table, so items keep their numbers): all or nothing. Refused,
  // messages starting with `source`, when an archetype names an action it lacks or an
  // agent, awake or asleep, is running one it lacks. Work of a changed action is settled
  // under the old definition and carries on under the new one (LongActionLibrary::adopt).
  DefinitionReport reloadLongActions(LongActionLibrary fresh, const std::string& source);
  const LongActionLibrary& longActions() const { return long_actions_; }
  // Set-up: registers the influences agents can be put under (AddInfluence) with their
  // actions. Returns one message per problem (a name already used by an archetype or
  // influence, a full registry); the others are registered.
  std::vector<std::string> setInfluences(const InfluenceSet& influences);
  // A new influence set taking over live (the poll, ReloadDefinitions): all or nothing,
  // messages starting with `source`. New influences are registered; a changed one is
  // redefined in place: agents under it keep it, with its new priority and actions (an
  // action running from it finishes as it began). Removing or renaming one takes a
  // restart (agents may be under it), and is refused.
  DefinitionReport reloadInfluences(const InfluenceSet& fresh, const std::string& source);
  PlaceState placeState(PlaceIndex place) const { return places_.state(place); }
  // Which places this daemon runs (all, unless SimConfig::leased_places).
  const PlaceCustody& custody() const { return custody_; }
  // Cluster: appends the npcs the game moved from a place held here into a place held
  // elsewhere since the last call (ascending by when). They run on here, their actions
  // fenced off by the server, until a HandOver takes them away once the place's holder has
  // their state. Tick thread, between ticks.
  void takeLeaving(std::vector<EntityId>& out);
  // Cluster: appends the sounds made here since the last call (by the game or by actions)
  // that reach places held elsewhere, once per such place; the server relays them to those
  // places' holders (SoundEvent::relayed). Tick thread, between ticks.
  void takeCrossingSounds(std::vector<std::pair<PlaceIndex, Sound>>& out);
  // Cluster: the same for the game's signals: one to a place held elsewhere (its agents are
  // there), or within a radius that reaches places held elsewhere, once per such place.
  void takeCrossingSignals(std::vector<std::pair<PlaceIndex, SignalEvent>>& out);
  // Cluster: the players the game sends here (not visitors) that agents of places held
  // elsewhere could see or hear: within the archetypes' largest sight range of such a
  // place, or their footsteps' reach. Each one's state every kVisitorRelayS, once per such
  // place; the server relays them (EntityState::relayed), and the place's holder keeps
  // each as a visitor, so its agents see it and hear its footsteps.
  void takeVisitingPlayers(std::vector<std::pair<PlaceIndex, EntityState>>& out);
  // The place an agent is in, awake or asleep; kNone for an id that is not an agent here.
  PlaceIndex agentPlace(EntityId id) const;
  // Heap bytes held for sleeping agents (records, index, spare capacity).
  size_t dormantBytes() const;

  // Modular behavior trees that archetypes' behaviors name ("tree"). Every named tree must
  // load; a failed load keeps what was loaded.
  DefinitionReport loadBehaviorTrees(const std::vector<MbtSourceFile>& files);
  MbtLibrary& behaviorTrees() { return mbt_; }
  // Where behavior trees' log messages go besides each agent's history (e.g. spdlog).
  void setTreeLogSink(std::function<void(const MbtLogMessage&)> sink) { tree_log_ = std::move(sink); }

  // GOAP domains (core/goap), all or nothing, binding every archetype with a "planner" to
  // its domain (buckets, targets, blackboard, facts). `statistics_dir` ("" = off):
  // per-domain action/condition statistics are loaded from <dir>/<domain>.stats.json
  // (conditions re-ordered cheapest-most-failing first), counted while planning and written
  // back by savePlannerStatistics(). On a reload agents move to the new domains: running
  // plans stop, facts and blackboard values carry over by name.
  DefinitionReport loadPlannerDomains(const std::vector<std::pair<std::string, std::string>>& files,
                                      const std::string& statistics_dir = {});
  Status savePlannerStatistics() const;

  // Thread-safe. Queues commands for the next tick, in order. Returns false (queuing
  // nothing) when the queue is full; the caller reports RESOURCE_EXHAUSTED.
  bool submit(Command command);
  // Moves from and empties `commands`, leaving it an earlier batch's buffer to refill.
  bool submit(std::vector<Command>& commands);
  // The same, but `commands` is left an earlier, applied batch with its commands still in
  // it, for the caller to overwrite or clear (CommandInbox::pushExchanging); `digests`
  // holds CommandDigest::of each command, written by the caller while it wrote them, and
  // is left an earlier batch's digest buffer.
  bool submitExchanging(std::vector<Command>& commands, std::vector<CommandDigest>& digests);
  // Tick thread, between ticks: `recorder` is called with each command as a tick applies
  // it, in order, just before it applies (the input journal; a cluster node's place
  // inputs). Recorders are called in the order they were added. A recorder may wrap the
  // command's `reply` (a cluster node holds the answer until Redis has the input) and
  // must change nothing else.
  using CommandRecorder = std::function<void(uint64_t tick, Command& command)>;
  void addCommandRecorder(CommandRecorder recorder) { recorders_.push_back(std::move(recorder)); }
  void clearCommandRecorders() { recorders_.clear(); }
  size_t queuedCommands() const;

  // Tick thread. Applies queued commands, then runs every phase once.
  void tick();
  const TickOutput& output() const { return output_; }
  // Wall time per phase of the last tick and where the tick is now (always on; the server
  // adds its emit phase and reads progress from its watchdog thread).
  TickProfile& profile() { return profile_; }
  // The clock that times planner searches (stats().plan_latency); tests inject a counter.
  void setPlanClock(PhaseClock clock) { plan_clock_ = clock; }
  const TickProfile& profile() const { return profile_; }

  // Tick thread: direct access for set-up (places, obstacles) and read-only queries.
  World& world() { return world_; }
  const World& world() const { return world_; }
  const ArchetypeSet& archetypes() const { return archetypes_; }
  // Interned action, parameter, unit and text names used in TickOutput.
  const NameTable<ActionNameId>& names() const { return names_; }
  // Signal groups by name: a group's number (PerceptionState::group, Signal.group) is its
  // entry's groupNumber(). An npc joins its EntityState::group, or its archetype's name.
  const NameTable<GroupNameId>& groups() const { return groups_; }
  // Client identities' ids and the highest client id used (restores keep ownership).
  const ClientDirectory& clients() const { return clients_; }
  // Group `group`'s name; empty for kNone (no group) or an unknown number.
  const std::string& groupName(GroupNumber group) const {
    return groups_.name(groupNameOf(group));
  }
  const PerceptionSystem& perception() const { return perception_; }
  const SelectionTreeLibrary& selectionTrees() const { return trees_; }
  SimStats stats() const;
  double timeS() const { return static_cast<double>(tick_) * config_.tick_dt_s; }
  uint64_t tickCount() const { return tick_; }
  const SimConfig& config() const { return config_; }

  // Set-up: the world's navmesh (core/nav; world files build or load it). With one, the
  // planner prunes unreachable smart objects and prices travel by path length, and MoveTo
  // targets are snapped to the mesh, or failed ("unreachable: ...") when no path reaches
  // them. Replaces any previous mesh. A mesh with a tile cache follows the world's obstacle
  // changes, rebuilding at most `max_tile_rebuilds_per_tick` tile layers a tick; the
  // world's current obstacles are brought into it here. `config`: the world file's navmesh
  // block (query limits, rebuild budget, long searches).
  void setNavMesh(nav::NavMesh mesh, const nav::NavConfig& config);
  const SimNavigation* navigation() const { return navigation_.get(); }

  // JSON debug view of one agent; kNotFound for an unknown id.
  Status describeAgent(EntityId id, std::string& json_out) const;
  // The map of the world for the debug page (see DescribeWorld in commands.h).
  Status describeWorld(const DescribeWorld& query, std::string& json_out) const;
  // The last trace of one of the agent's planners (`planner`: its name, "" = the first) as
  // JSON (kNotFound: unknown agent or planner; kFailedPrecondition: it has no planner).
  // `trace` switches tracing of that planner's next searches.
  Status planTrace(EntityId id, std::string_view planner, std::optional<bool> trace,
                   std::string& json_out);

 private:
  // Tick phases, in order (ARCHITECTURE.md "One tick").
  void ingest();
  void updatePlaces();
  void perceive();
  void select();
  void decide();
  void planning();
  void schedule();

  // Whether the upserts of `chain` but its last may be skipped (upsert_coalescer.h): its
  // entity is as they find it, awake, theirs to change, and they change nothing but fields
  // its last upsert sets again.
  bool mayCoalesce(const UpsertCoalescer::Chain& chain) const;
  // Command handlers; each returns the error to report, if any.
  void apply(Command& command);
  Status upsertEntity(const EntityState& state, ClientId origin, bool must_be_new) {
    return upsertEntity(state, origin, must_be_new, world_.entities().find(state.id));
  }
  // `awake`: the entity's handle in the world table as found by the caller (null when it is
  // not there), so that an update looks its entity up once.
  Status upsertEntity(const EntityState& state, ClientId origin, bool must_be_new,
                      EntityHandle awake);
  // `announce`: an AgentDespawned event says so (not when a released place unloads).
  Status removeEntity(EntityId id, bool must_be_agent, bool announce = true);
  // Custody (sim_custody.cpp, place_custody.h).
  Status holdPlaceCommand(const HoldPlace& command);
  Status notePlaceHolder(const NotePlaceHolder& command);
  Status handOver(const HandOver& command);
  void noteLeaving(const Entity& e);
  void noteCrossing(const Sound& sound);
  void noteCrossing(const SignalEvent& signal);
  // An agent's own signal within a radius (an action's stimulus), as the game's signal
  // the places it reaches elsewhere are sent.
  void noteCrossing(const SignalRequest& request);
  // Cluster: the game's players near places held elsewhere, each one's every
  // kVisitorRelayS (staggered by id), for takeVisitingPlayers.
  void relayPlayers();
  void unloadPlace(PlaceIndex place);
  // An npc update that would put it in a place held elsewhere (or outside every place, in a
  // cluster) is refused; `current`: the entity as it is now, if it exists.
  Status checkCustody(const EntityState& state, const Entity* current) const;
  Status applyActionResult(const ActionResult& result, ClientId origin, uint32_t item);
  Status postSignal(const SignalEvent& signal);
  Status addSound(const SoundEvent& sound);
  Status setSensors(const SetSensors& command);
  Status setBehaviorVariable(const SetBehaviorVariable& command);
  Status registerVisibilityType(const RegisterVisibilityType& command);
  Status setPerceptionTuning(const SetPerceptionTuning& command);
  BstLoadReport finishTreeLoad(BstLoadReport report);
  void bindBehavior(Agent& agent);
  void enterBehavior(Agent& agent, BehaviorId behavior);
  void enterBehaviorDef(Agent& agent, int def);  // -1: no definition (face target)
  // Cancels the agent's running intention and drops pending ones (not the game's).
  void dropIntentions(Agent& agent);
  // Behavior trees (sim_behavior_trees.cpp).
  MbtLoadReport finishMbtLoad(MbtLoadReport report);
  // Adds the client-side actions of the standard MBT action nodes to an archetype's list.
  void registerTreeActions(ActionListId list, const Archetype& type);
  void bindTree(Agent& agent);         // to its current behavior's tree, if any
  void leaveTree(Agent& agent);        // terminates a running tree (actions cancelled)
  void treeEvent(Agent& agent, const Signal& signal);  // with its data (MbtEvent)
  friend class SimMbtHost;
  friend class SimInventories;  // ActionContext::inventories (sim_intentions.cpp)
  friend class SimStateAccess;  // snapshots read and rebuild the runtime state
  // Ownership (sim_ownership.cpp, README.md "Ownership"). `list`/`item` name the item of
  // the sender's update in the error ("upserts[1] (id 17): owned by another client");
  // a null list names the entity alone (unary calls).
  // Whether `origin` may change `e` (the rule checkOwner reports).
  bool mayChange(const Entity& e, ClientId origin) const;
  Status checkOwner(EntityId id, ClientId origin, const char* list, uint32_t item) const {
    return checkOwner(id, world_.entities().find(id), origin, list, item);
  }
  Status checkOwner(EntityId id, EntityHandle awake, ClientId origin, const char* list,
                    uint32_t item) const;
  Status checkResultSender(const Agent& agent, IntentionId intention, ClientId origin,
                           uint32_t item) const;
  void recordSent(EntityId agent, IntentionId intention, ClientId to);
  // Where an owner's agents' actions go: the owner, or every subscriber while it is away.
  ClientId addresseeOf(ClientId owner) const;
  void releaseClient(ClientId client, bool keeps_ownership);
  void clientBack(ClientId client);
  void interruptInFlight();
  // A restored agent's intention that was running: INTERRUPTED (kRestored) at the next flush.
  // `handle`: what its tree calls it (Intention::handle); kNone: the same as `intention`.
  void queueRestoredInterruption(EntityId agent, IntentionId intention, ActionNameId action,
                                 float progress, IntentionId handle = IntentionId::kNone);
  // Hibernation (core/hibernation/README.md).
  Status wakePlaceCommand(const WakePlace& command);
  void sleepPlace(PlaceIndex place);
  void hibernateAgent(EntityId id, PlaceIndex place);  // then mergeDormantIndex()
  void mergeDormantIndex(size_t sorted_prefix);
  void wakePlace(PlaceIndex place, std::string_view cause);
  void wakeAgentPlace(EntityId id, std::string_view cause);  // if `id` is dormant
  // OnPlaceHibernating / OnPlaceAwake to every agent of the place (through perception).
  void signalPlace(PlaceIndex place, std::string_view signal, float value);
  void wakePlacesReachedBy(Vec3 center, float radius_m, std::string_view cause);
  // Where a dormant agent is: its place and index in dormant_[place]; nullopt if awake/none.
  std::optional<std::pair<PlaceIndex, size_t>> findDormant(EntityId id) const;
  void startWork(Agent& agent, uint16_t long_action, bool for_hibernation);
  void stopWork(Agent& agent, Settlement* settled);
  // Planning (sim_planning.cpp).
  // False (nothing changed) when `errors` has any, or binding the archetypes adds some.
  bool installPlanning(std::unique_ptr<SimPlanning> fresh, std::vector<std::string>& errors,
                       const std::string& statistics_dir);
  void bindPlanners(SimPlanning& planning, std::vector<std::string>& errors,
                    const std::string& statistics_dir);
  // Spawn / wake / restore: planner rows if its archetype plans, with the memory it slept
  // with (facts, blackboard, pacing) when there is one.
  void attachPlanner(Agent& agent, const PlannerMemory* slept = nullptr);
  void detachPlanner(EntityId id);     // an awake agent's despawn
  void forgetSleepingPlanner(PlaceIndex place, EntityId id);  // a sleeper's despawn
  void sleepPlanner(EntityId id, PlaceIndex place);  // its place sleeps: its memory kept there
  void carryOverSleepingPlanners(const SimPlanning& old, PlaceIndex place);  // domains reloaded
  size_t reprioritiseInfluences(std::span<const ActionListId> lists);  // influences reloaded
  std::optional<PlannerMemory> plannerMemory(EntityId id) const;  // awake or asleep
  size_t sleepingPlannerBytes() const;
  void resetPlanner(Agent& agent);     // behavior changed: the old plans are dropped
  // A tree's search, on the tick thread: counted, its result or nullptr.
  const goap::PlanResult* searchPlan(Agent& agent, AgentPlanner& ap, uint8_t index, PlannerRun& p,
                                     std::string_view goal);
  // The search itself with worker w's planner and scratch (PlanningPhase step 2 calls it on
  // the pool): reads the world and the agent's planner state, writes the run's target
  // entities and worker w's scratch. The result lives in that planner until its next search.
  const goap::PlanResult* searchPlanOn(unsigned worker, const Agent& agent, AgentPlanner& ap,
                                       uint8_t index, PlannerRun& p, std::string_view goal,
                                       uint64_t& elapsed_ns);
  void countSearch(PlannerRun& p, const SearchCount& counted);
  bool programPlanStep(Agent& agent, uint8_t index, PlannerRun& p, bool fallback);
  void stopPlanStep(Agent& agent, PlannerRun& p);
  void onPlanIntentionEnded(Agent& agent, IntentionId intention, bool completed);
  void onPlanStepEnded(Agent& agent, AgentPlanner& ap, uint8_t index, PlannerRun& p, bool completed);
  Status setPlannerValue(const SetPlannerValue& command);
  Status setPlannerFact(Agent& agent, AgentPlanner& ap, int only, const std::string& name,
                        const std::string& value);
  void describePlanner(const Agent& agent, nlohmann::json& out) const;
  void describeNavMesh(const DescribeWorld& query, nlohmann::json& out) const;  // sim_world_view.cpp
  nlohmann::json plannerView(const Agent& agent, uint8_t index) const;
  AgentPlanner* plannerOf(const Agent& agent);
  PlannerRun* runOf(const AgentPlanner& ap, uint8_t index);
  // The planner named `name` ("" = the first) and its index; nullptr when the agent has no
  // planner or its archetype none of that name (`report`: an error event says so).
  PlannerRun* namedPlanner(Agent& agent, std::string_view name, uint8_t& index, bool report);
  // <Plan> / <ExecutePlan> (SimMbtHost); `planner` as in namedPlanner.
  MbtPlanState treeRequestPlan(Agent& agent, std::string_view planner, std::string_view goal);
  MbtPlanState treeExecutePlan(Agent& agent, std::string_view planner);
  void treeStopPlan(Agent& agent, std::string_view planner);
  // Intentions (sim_intentions.cpp).
  void registerActions();
  TreeContext treeContext();
  // Turns buffered client starts into actions and intention events into events and
  // behavior bookkeeping; `client_reason` is appended to a Failed event's text.
  void flushIntentions(const std::string* client_reason = nullptr);
  // sim_navigation.cpp: false when a MoveTo's target cannot be reached (queued for
  // failRefusedMoves); otherwise snaps its target onto the navmesh.
  bool navigateMove(ClientActionStart& start);
  void failRefusedMoves();
  // "unreachable: ..." for a MoveTo from `from` to `to` that a search answered kUnreachable
  // or kOffMesh, naming the point off the mesh.
  std::string unreachableReason(nav::NavResult result, Vec3 from, Vec3 to);
  // The navmesh follows obstacle upserts and removals (a tile-cache mesh; others ignore
  // them, counted). Returns an error when the mesh cannot take the box.
  Status navigateObstacle(const Obstacle& obstacle);
  void navigateObstacleRemoval(ObstacleId id);
  void updateNavMesh();  // tick: rebuild tiles touched by obstacle changes, on its budget
  // tick, after updateNavMesh: MoveTo checks cut short by the query's limits are searched on,
  // a budget of iterations per tick; a walk found to be impossible fails its MoveTo.
  void searchLongPaths();
  void describeNavigation(const Agent& agent, nlohmann::json& out) const;
  bool endedRecently(const Agent& agent, IntentionId intention) const;
  void onIntentionEvent(const IntentionEvent& event, const std::string* client_reason);
  // Intention commands (sim_intentions.cpp); each flushes the events it caused.
  Agent* awakeAgent(EntityId id, Status& error);  // null with kNotFound / kFailedPrecondition
  // Adds actions defined in data (archetype "actions", influences) to `list`.
  void addDataActions(ActionListId list, const std::vector<ActionDef>& actions,
                      std::vector<std::string>& errors);
  // Programs `name` on an awake agent's queue: a controller intention, or (game_coercive
  // set) a game-scheduled one, coercive or not. Shared by the admin and game paths.
  // A controller intention may depend on another (kNone: none).
  Status programOn(EntityId agent, const std::string& name,
                   const std::vector<IntentionParam>& params, double delay_s,
                   std::optional<bool> game_coercive, IntentionId depends_on, IntentionId& id);
  Status programIntention(const ProgramIntention& command, IntentionId& id);
  Status gameAction(const GameAction& command, IntentionId& id);
  Status externalAction(const ExternalAction& command);
  Status cancelIntention(const CancelIntention& command);
  Status changeInfluence(EntityId agent, const std::string& influence, bool add);
  // Stimuli of actions (sim_action_stimuli.cpp): what others perceive of a completed
  // action (archetype "emits"; Take / Drop / Give tell witnesses), and the receiver's
  // OnExternalAction.
  void resolveActionStimuli();
  void emitActionStimuli(const Agent& agent, const IntentionEvent& event);
  void signalExternalAction(EntityId agent, EntityId from, const std::string& action);
  // The world model's own changes (sim_world_model.cpp): objects Drop puts down, attribute
  // entities that vanish when their lifetime ends.
  EntityId placeDroppedObject(ItemId item, Vec3 position);
  void noteLifetime(const Entity& entity);
  void expireEntities();
  void emitError(ClientId to, uint64_t seq, EntityId agent, std::string text);
  void emitEvent(EventKind kind, EntityId agent, PlaceIndex place, std::string text);

  SimConfig config_;
  ArchetypeSet archetypes_;
  World world_;
  NameTable<ActionNameId> names_;
  NameTable<GroupNameId> groups_;  // see groups()
  ClientDirectory clients_;
  BehaviorVocabulary vocabulary_;
  BuiltinBehaviors behaviors_;
  ActionRegistry registry_;                 // action implementations, by interned name
  ActionScheduler scheduler_;
  std::unique_ptr<InventoryModel> inventories_;  // what Take, Drop, Give change
  std::vector<ActionListId> own_actions_;   // per archetype
  std::vector<ClientActionStart> start_storage_;
  std::vector<IntentionEvent> event_storage_;
  BoundedBuffer<ClientActionStart> starts_;
  BoundedBuffer<IntentionEvent> intention_events_;
  // OnIntentionStarted / Completed / Failed / Interrupted, by IntentionEventKind: intention
  // events reach the agent's selection tree as these signals.
  std::array<SignalId, 4> intention_signals_{};
  PerceptionSystem perception_;
  SelectionTreeLibrary trees_;
  MbtLibrary mbt_;                        // declared before agents_: instances need it alive
  std::unique_ptr<SimMbtHost> mbt_host_;  // the simulation as seen by behavior trees
  std::vector<std::unique_ptr<SimMbtHost>> worker_trees_;  // the same, per pool worker
  std::function<void(const MbtLogMessage&)> tree_log_;
  DenseTable<Agent, EntityId> agents_;
  std::unique_ptr<SimPlanning> planning_;  // GOAP domains, planner, per-agent plan state
  std::unique_ptr<SimNavigation> navigation_;  // null without a navmesh (sim_navigation.cpp)
  // Where the behavior definitions load from (setDefinitionSources); null = in memory only.
  std::unique_ptr<DefinitionSet> definitions_;
  // BehaviorDef::set_when_done resolved to variable ids, for every archetype's behaviors.
  struct DoneAssignment {
    uint16_t archetype;
    uint8_t behavior_def;
    SelectionVariableId variable;
    bool value;
  };
  std::vector<DoneAssignment> done_assignments_;
  // ActionStimulus resolved: archetype index (kAnyArchetype: every one) and action name.
  struct ResolvedStimulus {
    static constexpr uint16_t kAnyArchetype = 0xffff;
    uint16_t archetype = kAnyArchetype;
    ActionNameId action = ActionNameId::kNone;
    float sound_radius_m = 0.f;
    SoundKind sound_kind = SoundKind::kGeneric;
    SignalId signal = SignalId::kNone;
    float signal_radius_m = 0.f;
  };
  std::vector<ResolvedStimulus> action_stimuli_;
  SignalId external_action_signal_ = SignalId::kNone;  // OnExternalAction
  // Attributes and visitors, which have a lifetime: (expires_s, id), a min-heap on expires_s.
  std::vector<std::pair<double, EntityId>> lifetimes_;
  uint64_t next_dropped_object_ = 0;  // Drop's objects take ids from kDroppedObjectIdBase

  LongActionLibrary long_actions_;
  std::vector<InfluenceDef> influences_;                    // as registered, for reloads
  std::vector<uint16_t> hibernation_action_;               // per archetype
  std::vector<std::vector<uint16_t>> behavior_long_action_; // per archetype, per BehaviorDef
  PlaceDispatcher places_;
  PlaceCustody custody_;
  std::vector<SleeperList> dormant_;                        // by place
  std::vector<ClientId> away_clients_;  // sorted: identified clients with no stream open
  std::vector<std::pair<uint64_t, PlaceIndex>> dormant_index_;  // sorted by id
  size_t dormant_count_ = 0;
  std::vector<EntityId> scratch_ids_;
  std::vector<EntityId> leaving_;  // takeLeaving()
  std::vector<std::pair<PlaceIndex, Sound>> crossing_sounds_;  // takeCrossingSounds()
  std::vector<std::pair<PlaceIndex, SignalEvent>> crossing_signals_;  // takeCrossingSignals()
  std::vector<std::pair<PlaceIndex, EntityId>> visiting_players_;     // takeVisitingPlayers()
  std::vector<uint32_t> busy_by_place_;
  std::vector<PlaceIndex> scratch_places_;
  std::unique_ptr<WorkerPool> pool_;  // null when config_.threads is 1
  PerceptionPhase perception_phase_;
  SelectionPhase selection_phase_;
  BehaviorPhase behavior_phase_;
  PlanningPhase planning_phase_;
  SchedulingPhase scheduling_phase_;
  DetailTiers detail_;
  SignalQueue signals_;

  std::vector<CommandRecorder> recorders_;
  CommandInbox inbox_;
  UpsertCoalescer coalescer_;
  std::vector<std::span<const CommandDigest>> digests_;  // ingest(): the drain's, per batch

  uint64_t tick_ = 0;
  IntentionIdSource intention_ids_;
  TickOutput output_;
  TickProfile profile_;
  SimStats totals_;
  PhaseClock plan_clock_ = &steadyClockNs;
};

}  // namespace npc
