#include "sim/sim_state_access.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>

#include "nav/nav_tile_cache.h"
#include "sim/sim_navigation.h"
#include "sim/sim_planner.h"
#include "sim/simulation.h"

namespace npc {

uint64_t SimStateAccess::runtimeLayout() {
  // Bump on a change that keeps these sizes (fields reordered or retyped in place).
  constexpr uint64_t kLayoutRevision = 2;
  uint64_t h = kLayoutRevision;
  for (uint64_t size : {sizeof(IntentionQueue), sizeof(Intention), sizeof(ActionArg),
                        sizeof(ActionState), sizeof(PlannerRun), sizeof(goap::PlanRunner),
                        sizeof(goap::PlanResult), alignof(PlannerRun)}) {
    h = (h ^ size) * 0x100000001B3ull;
  }
  return h;
}

const std::string& SimStateAccess::freshPlannerRow() {
  static const std::string fresh = [] {
    alignas(PlannerRun) unsigned char storage[sizeof(PlannerRun)] = {};
    new (storage) PlannerRun();  // over zeroed storage: padding stays zero
    return std::string(reinterpret_cast<const char*>(storage), sizeof(PlannerRun));
  }();
  return fresh;
}

uint64_t SimStateAccess::tick() const { return sim_.tick_; }
double SimStateAccess::timeS() const { return sim_.timeS(); }
const Agent* SimStateAccess::agent(EntityId id) const { return sim_.agents_.get(id); }
uint64_t SimStateAccess::nextIntentionId() const { return sim_.intention_ids_.peek(); }
uint64_t SimStateAccess::nextDroppedObject() const { return sim_.next_dropped_object_; }
const World& SimStateAccess::world() const { return sim_.world_; }
std::span<const Agent> SimStateAccess::agents() const { return sim_.agents_.rows(); }
const PlaceDispatcher& SimStateAccess::places() const { return sim_.places_; }
const PlaceCustody& SimStateAccess::custody() const { return sim_.custody_; }
std::span<const SleeperList> SimStateAccess::dormant() const { return sim_.dormant_; }
const ArchetypeSet& SimStateAccess::archetypes() const { return sim_.archetypes_; }
const LongActionLibrary& SimStateAccess::longActions() const { return sim_.long_actions_; }
const NameTable<ActionNameId>& SimStateAccess::names() const { return sim_.names_; }
const SelectionTreeLibrary& SimStateAccess::selectionTrees() const { return sim_.trees_; }
const PerceptionSystem& SimStateAccess::perception() const { return sim_.perception_; }
const ActionRegistry& SimStateAccess::registry() const { return sim_.registry_; }
ActionListId SimStateAccess::ownActions(uint16_t archetype) const {
  return sim_.own_actions_[archetype];
}
ActionNameId SimStateAccess::internAction(std::string_view name) {
  return sim_.names_.intern(name);
}
SpeciesId SimStateAccess::internSpecies(std::string_view name) {
  return sim_.world_.species().intern(name);
}
ItemId SimStateAccess::internItem(std::string_view name) {
  return sim_.long_actions_.items().intern(name);
}

const std::string& SimStateAccess::groupName(GroupNumber group) const {
  return sim_.groupName(group);
}

const NameTable<GroupNameId>& SimStateAccess::groups() const { return sim_.groups_; }

const ClientDirectory& SimStateAccess::clients() const { return sim_.clients_; }

void SimStateAccess::restoreClients(std::vector<ClientBinding> bindings, uint32_t highest) {
  sim_.clients_.restore(std::move(bindings), highest);
}

GroupNumber SimStateAccess::archetypeGroup(uint16_t archetype) const {
  return groupNumber(sim_.groups_.find(sim_.archetypes_.at(archetype).name));
}

GroupNumber SimStateAccess::internGroup(std::string_view name) {
  const GroupNameId at = sim_.groups_.intern(name);
  return raw(at) >= 0xfffe ? GroupNumber::kNone : groupNumber(at);
}

std::optional<PlannerMemory> SimStateAccess::planner(EntityId id) const {
  if (!sim_.planning_) return std::nullopt;
  return sim_.plannerMemory(id);
}

std::vector<EntityId> SimStateAccess::sleepingPlanners() const {
  std::vector<EntityId> ids;
  if (!sim_.planning_) return ids;
  for (const SleepingPlanners& place : sim_.planning_->sleeping) {
    for (const SleepingPlanner& p : place) ids.push_back(p.id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<std::string> SimStateAccess::plannerRuns(EntityId id) const {
  std::vector<std::string> rows;
  if (!sim_.planning_) return rows;
  const AgentPlanner* ap = sim_.planning_->agents.get(sim_.planning_->agents.find(id));
  if (!ap) return rows;
  static_assert(std::is_trivially_copyable_v<PlannerRun>, "planner rows are copied as bytes");
  for (uint8_t i = 0; i < ap->count; ++i) {
    const PlannerRun* run = sim_.planning_->runs[i].get(ap->runs[i]);
    if (!run) return {};
    PlannerRun row = *run;
    row.runner.rebind(nullptr);  // an address means nothing in another process
    rows.emplace_back(reinterpret_cast<const char*>(&row), sizeof row);
  }
  return rows;
}

bool SimStateAccess::copyPlanner(const Agent& agent, PlannerMemory& out) const {
  if (!sim_.planning_) return false;
  const SimPlanning& P = *sim_.planning_;
  // The agent's handle first (no hashing); then as planner(id) looks it up.
  const AgentPlanner* ap = agent.planner.isNull() ? nullptr : P.agents.get(agent.planner);
  if (ap && ap->id != agent.id) ap = nullptr;
  if (!ap) ap = P.agents.get(agent.id);
  if (!ap) return false;
  out.planners = ap->count;
  for (uint8_t i = 0; i < ap->count; ++i) out.facts[i] = P.runs[i].get(ap->runs[i])->facts;
  for (size_t i = ap->count; i < out.facts.size(); ++i) out.facts[i] = {};
  out.blackboard = ap->blackboard;
  out.pacing = ap->pacing;
  return true;
}

uint8_t SimStateAccess::appendPlannerRuns(const Agent& agent, std::vector<PlannerRun>& rows) const {
  if (!sim_.planning_) return 0;
  const SimPlanning& P = *sim_.planning_;
  const AgentPlanner* ap = agent.planner.isNull() ? nullptr : P.agents.get(agent.planner);
  if (ap && ap->id != agent.id) ap = nullptr;
  if (!ap) ap = P.agents.get(P.agents.find(agent.id));
  if (!ap) return 0;
  const size_t begin = rows.size();
  for (uint8_t i = 0; i < ap->count; ++i) {
    const PlannerRun* run = sim_.planning_->runs[i].get(ap->runs[i]);
    if (!run) {
      rows.resize(begin);
      return 0;
    }
    rows.push_back(*run);  // one copy, straight into the caller's storage
    rows.back().runner.rebind(nullptr);  // as plannerRuns()
  }
  return ap->count;
}

void SimStateAccess::shareSleepingPlanners(std::vector<SleepingPlanners::Shared>& out) const {
  out.clear();
  if (!sim_.planning_) return;
  for (const SleepingPlanners& place : sim_.planning_->sleeping) out.push_back(place.share());
}

std::vector<PlannerMemory> SimStateAccess::groupPlannerMemory() const {
  std::vector<PlannerMemory> groups;
  if (!sim_.planning_) return groups;
  for (const GroupPlannerMemory& g : sim_.planning_->groups) {
    PlannerMemory& m = groups.emplace_back();
    m.planners = 0;
    m.blackboard = g.blackboard;
    m.pacing = g.pacing;
  }
  return groups;
}

uint64_t SimStateAccess::planningCursor() const {
  return sim_.planning_ ? sim_.planning_->cursor : 0;
}

std::vector<std::string> SimStateAccess::names(NameTableKind kind) const {
  std::vector<std::string> out;
  if (kind == NameTableKind::kSignals) {
    const SignalNames& signals = sim_.perception_.signalNames();
    for (size_t i = 0; i < signals.size(); ++i) out.push_back(signals.name(static_cast<SignalId>(i)));
    return out;
  }
  const std::span<const std::string> table =
      kind == NameTableKind::kActions   ? sim_.names_.names()
      : kind == NameTableKind::kSpecies ? sim_.world_.species().names()
      : kind == NameTableKind::kGroups  ? sim_.groups_.names()
                                        : sim_.long_actions_.items().names();
  out.assign(table.begin(), table.end());
  return out;
}

bool SimStateAccess::restoreNames(NameTableKind kind, std::span<const std::string> names) {
  for (size_t i = 0; i < names.size(); ++i) {
    uint16_t at = 0;
    switch (kind) {
      case NameTableKind::kActions: at = raw(sim_.names_.intern(names[i])); break;
      case NameTableKind::kSpecies: at = raw(sim_.world_.species().intern(names[i])); break;
      case NameTableKind::kItems: at = raw(sim_.long_actions_.items().intern(names[i])); break;
      case NameTableKind::kSignals: at = raw(sim_.perception_.signalNames().intern(names[i])); break;
      case NameTableKind::kGroups: at = raw(sim_.groups_.intern(names[i])); break;
    }
    if (at != i) return false;
  }
  return true;
}

void SimStateAccess::setGroupPlannerMemory(std::span<const PlannerMemory> groups) {
  if (!sim_.planning_) return;
  SimPlanning& P = *sim_.planning_;
  P.groups.assign(groups.size(), {});
  for (size_t g = 0; g < groups.size(); ++g) {
    P.groups[g].blackboard = groups[g].blackboard;
    P.groups[g].pacing = groups[g].pacing;
  }
}

std::span<const ClientId> SimStateAccess::awayClients() const { return sim_.away_clients_; }

void SimStateAccess::setAwayClients(std::vector<ClientId> clients) {
  std::sort(clients.begin(), clients.end());
  clients.erase(std::unique(clients.begin(), clients.end()), clients.end());
  sim_.away_clients_ = std::move(clients);
}

void SimStateAccess::setPlanningCursor(uint64_t cursor) {
  if (sim_.planning_) sim_.planning_->cursor = static_cast<size_t>(cursor);
}

Status SimStateAccess::setPerceptionTuning(const SetPerceptionTuning& tuning) {
  return sim_.setPerceptionTuning(tuning);
}

void SimStateAccess::setVisibilityTypes(
    std::span<const std::pair<std::string, VisibilityType>> types) {
  VisibilityRegistry& registry = sim_.perception_.visibility();
  registry.clearTypes();
  for (const auto& [species, settings] : types) {
    const SpeciesId type = sim_.world_.species().intern(species);
    if (type != SpeciesId::kNone) registry.registerType(type, settings);
  }
}

void SimStateAccess::setAttributePrincipals(std::vector<std::pair<EntityId, EntityId>> links) {
  sim_.perception_.visibility().restorePrincipals(std::move(links));
}

void SimStateAccess::setStealth(std::vector<StealthReading> readings, std::vector<float> reported) {
  sim_.perception_.stealth().restore(std::move(readings), std::move(reported));
}

void SimStateAccess::addPending(std::span<const SignalRequest> signals,
                                std::span<const Sound> sounds) {
  for (const SignalRequest& request : signals) sim_.perception_.postSignal(request);
  for (const Sound& sound : sounds) sim_.perception_.addSound(sound);
}

void SimStateAccess::clear() {
  // Commands queued before the restore (the world file's) describe the state replaced.
  sim_.inbox_.clear();
  std::vector<EntityId> ids;
  for (const Agent& agent : sim_.agents_.rows()) ids.push_back(agent.id);
  for (EntityId id : ids) {
    sim_.agents_.remove(id);  // its tree terminates without a host: nothing is emitted
    sim_.detachPlanner(id);
  }
  ids.clear();
  for (const Entity& e : sim_.world_.entities().rows()) ids.push_back(e.id);
  for (EntityId id : ids) {
    sim_.world_.entities().remove(id);
    sim_.perception_.visibility().forgetEntity(id);
  }
  std::vector<ObstacleId> obstacles;
  for (const Obstacle& o : sim_.world_.obstacles()) obstacles.push_back(o.id);
  for (ObstacleId id : obstacles) sim_.world_.removeObstacle(id);
  whole_restore_ = true;
  if (sim_.planning_) sim_.planning_->sleeping.clear();
  sim_.groups_ = NameTable<GroupNameId>{};  // the snapshot's own names replace the world file's
  sim_.dormant_.assign(sim_.world_.places().size(), {});
  sim_.dormant_index_.clear();
  sim_.dormant_count_ = 0;
  sim_.places_.resize(sim_.world_.places().size(), sim_.timeS());
  sim_.custody_.resize(0);  // held by nobody until setCustody()
  sim_.custody_.resize(sim_.world_.places().size());
  sim_.lifetimes_.clear();
  sim_.leaving_.clear();
  sim_.crossing_sounds_.clear();
  sim_.visiting_players_.clear();
  sim_.crossing_signals_.clear();
  sim_.perception_.clearPending();
  sim_.starts_.clear();
  sim_.intention_events_.clear();
  sim_.output_.clear();
  sim_.world_.markMoved();
}

void SimStateAccess::setCounters(uint64_t tick, uint64_t next_intention_id,
                                 uint64_t next_dropped_object) {
  sim_.tick_ = tick;
  sim_.intention_ids_ = IntentionIdSource(next_intention_id);
  sim_.next_dropped_object_ = next_dropped_object;
  // Places were sized at the clock of the world file; their times come from setPlace().
}

void SimStateAccess::unloadPlace(PlaceIndex place) { sim_.unloadPlace(place); }

void SimStateAccess::wakePlace(PlaceIndex place, std::string_view cause) {
  if (sim_.places_.asleep(place)) sim_.wakePlace(place, cause);
}

void SimStateAccess::setEntityOrder(std::span<const EntityId> ids) {
  EntityTable& table = sim_.world_.entities();
  for (EntityId id : ids) {
    if (id == EntityId::kNone || !table.find(id).isNull()) continue;
    table.get(table.insert(id))->id = EntityId::kNone;  // a placeholder until filled
    reserved_.push_back(id);
  }
}

// The entity's row: the one setEntityOrder() reserved, or a new one.
static EntityHandle rowFor(EntityTable& table, EntityId id) {
  const EntityHandle reserved = table.find(id);
  return reserved.isNull() ? table.insert(id) : reserved;
}

void SimStateAccess::addEntity(const Entity& entity) {
  const EntityHandle handle = rowFor(sim_.world_.entities(), entity.id);
  *sim_.world_.entities().get(handle) = entity;
  sim_.noteLifetime(entity);  // attributes and visitors
  sim_.world_.markMoved();
}

void SimStateAccess::addObstacle(const Obstacle& obstacle) { sim_.world_.upsertObstacle(obstacle); }

void SimStateAccess::setNavObstacles(std::vector<nav::NavObstacleChange> held,
                                     std::vector<nav::NavObstacleChange> queued) {
  nav_obstacles_.emplace(std::move(held), std::move(queued));
}

bool SimStateAccess::navObstacles(std::vector<nav::NavObstacleChange>& held,
                                  std::vector<nav::NavObstacleChange>& queued) const {
  held.clear();
  queued.clear();
  const nav::NavTileCache* cache = sim_.navigation_ ? sim_.navigation_->mesh.tileCache() : nullptr;
  if (!cache) return false;
  held = cache->held();
  queued = cache->queued();
  return true;
}

void SimStateAccess::navLongSearches(std::vector<nav::SlicedPathRequest>& waiting,
                                     int& open_iterations) const {
  waiting.clear();
  open_iterations = 0;
  if (!sim_.navigation_) return;
  const nav::SlicedPathQueue& q = sim_.navigation_->long_searches;
  waiting.assign(q.waiting().begin(), q.waiting().end());
  open_iterations = q.openIterations();
}

void SimStateAccess::setNavLongSearches(std::vector<nav::SlicedPathRequest> waiting, int open_iterations) {
  nav_long_searches_ = std::move(waiting);
  nav_long_open_iterations_ = open_iterations;
}

void SimStateAccess::addPlanner(EntityId id, const PlannerMemory& memory) {
  if (sim_.planning_) planners_[id] = memory;
}

bool SimStateAccess::addAgent(const AgentRecord& r, RestoreMode mode) {
  if (r.archetype >= sim_.archetypes_.size()) return false;
  const EntityId id = r.body.id;
  const EntityHandle handle = rowFor(sim_.world_.entities(), id);
  *sim_.world_.entities().get(handle) = r.body;
  Agent* agent = sim_.agents_.get(sim_.agents_.insert(id));
  agent->entity = handle;
  agent->archetype = r.archetype;
  agent->home = r.home;
  agent->rng = Rng(r.rng_state);
  agent->perception = r.perception;  // track handles are found again in finishRestore()
  agent->bst = r.bst;
  agent->bst.generation = sim_.trees_.generation();  // same definitions, same indices
  agent->behavior_def = r.behavior_def;
  agent->intent.access.setOwn(sim_.own_actions_[r.archetype]);
  for (ActionListId list : r.influences) sim_.registry_.addInfluence(agent->intent.access, list);
  agent->work = r.work;
  agent->work_is_hibernation = r.work_is_hibernation;
  agent->inventory = r.inventory;
  agent->actions_completed = r.actions_completed;
  agent->actions_failed = r.actions_failed;
  agent->idle_until_s = r.idle_until_s;
  agent->greet_ready_s = r.greet_ready_s;
  agent->attack_ready_s = r.attack_ready_s;
  agent->faced = r.faced;
  agent->investigated = r.investigated;
  agent->looked_around = r.looked_around;
  const auto memory = planners_.find(id);  // addPlanner()'s, when it plans
  sim_.attachPlanner(*agent, memory == planners_.end() ? nullptr : &memory->second);
  if (memory != planners_.end()) planners_.erase(memory);
  sim_.bindTree(*agent);
  if (agent->mbt.bound()) {
    agent->mbt.restoreRuntime(r.mbt_variables, r.mbt_timestamps.data(), r.mbt_timestamps.size(),
                              r.mbt_stopped);
    agent->mbt.setRestoredLua(r.mbt_lua);
  }
  if (r.exact && !restoreExact(*agent, *r.exact, mode)) return false;
  if (!r.exact || mode == RestoreMode::kRestart) reportInterrupted(*agent, r);
  sim_.world_.markMoved();
  return true;
}

bool SimStateAccess::restoreExact(Agent& agent, const AgentRecord::Exact& x, RestoreMode mode) {
  agent.intent.access.restoreCounters(x.access_version, x.access_refused);
  if (mode == RestoreMode::kExact) agent.intent.queue = x.queue;
  agent.recent_outcomes = x.recent_outcomes;
  agent.next_outcome = x.next_outcome;
  agent.sent_actions = x.sent_actions;
  agent.next_sent = x.next_sent;
  if (x.mbt && agent.mbt.bound() && !agent.mbt.restoreRun(*x.mbt)) return false;
  if (x.planner_runs.empty() || !sim_.planning_) return true;
  SimPlanning& P = *sim_.planning_;
  AgentPlanner* ap = P.agents.get(P.agents.find(agent.id));
  if (!ap || ap->count != x.planner_runs.size()) return false;
  const auto bound = P.bindingsOf(agent.archetype);
  for (uint8_t i = 0; i < ap->count; ++i) {
    const std::string& bytes = x.planner_runs[i];
    PlannerRun* run = P.runs[i].get(ap->runs[i]);
    if (!run || bytes.size() != sizeof(PlannerRun)) return false;
    std::memcpy(static_cast<void*>(run), bytes.data(), sizeof(PlannerRun));
    run->id = agent.id;
    run->runner.rebind(&P.domainOf(bound[i]));  // the row's pointer is of the captured process
  }
  return true;
}

void SimStateAccess::reportInterrupted(const Agent& agent, const AgentRecord& r) {
  if (!r.exact) {
    for (const AgentRecord::Interrupted& in : r.interrupted) {
      sim_.queueRestoredInterruption(agent.id, in.id, in.action, in.progress);
    }
    return;
  }
  if (const Intention* running = r.exact->queue.current()) {
    sim_.queueRestoredInterruption(agent.id, running->id, running->action, running->progress,
                                   running->handle);
  }
}

void SimStateAccess::addDormant(PlaceIndex place, const DormantAgent& record) {
  if (sim_.dormant_.size() <= raw(place)) sim_.dormant_.resize(raw(place) + 1u);
  sim_.dormant_[raw(place)].edit().push_back(record);
  sim_.dormant_index_.emplace_back(raw(record.body.id), place);
  ++sim_.dormant_count_;
  const auto memory = planners_.find(record.body.id);  // addPlanner()'s, when it plans
  if (memory == planners_.end()) return;
  sim_.planning_->sleepingIn(place).edit().push_back({record.body.id, memory->second});
  planners_.erase(memory);
}

void SimStateAccess::setPlace(PlaceIndex place, PlaceState state, double last_activity_s,
                              double asleep_since_s, double wake_at_s) {
  if (raw(place) >= sim_.places_.size()) return;
  sim_.places_.restore(place, state, last_activity_s, asleep_since_s, wake_at_s);
}

void SimStateAccess::setCustody(PlaceIndex place, bool held, uint64_t epoch, std::string holder) {
  if (raw(place) >= sim_.custody_.size()) return;
  sim_.custody_.restore(place, held, epoch, std::move(holder));
}

void SimStateAccess::finishRestore() {
  EntityTable& table = sim_.world_.entities();
  for (EntityId id : reserved_) {  // reserved by setEntityOrder, never added
    const Entity* e = table.get(table.find(id));
    if (e && e->id == EntityId::kNone) table.remove(id);
  }
  reserved_.clear();
  planners_.clear();  // memories no agent came for
  std::sort(sim_.dormant_index_.begin(), sim_.dormant_index_.end());
  for (Agent& agent : sim_.agents_.rows()) {
    for (TargetTrack& track : agent.perception.activeTracks()) {
      track.handle = sim_.world_.entities().find(track.target);
    }
  }
  sim_.world_.markMoved();
  if (whole_restore_) restoreNavigation();
}

// The mesh must be the captured one before the first tick (not rebuilt over later ticks on
// the budget), and the long searches where they were, or paths, and so decisions, would
// differ from the live run's.
void SimStateAccess::restoreNavigation() {
  if (!sim_.navigation_) return;
  if (!nav_obstacles_) {
    std::vector<nav::NavObstacleChange> held;
    for (const Obstacle& o : sim_.world_.obstacles()) held.push_back({o.id, false, o.box});
    nav_obstacles_.emplace(std::move(held), std::vector<nav::NavObstacleChange>{});
  }
  sim_.navigation_->mesh.restoreObstacles(nav_obstacles_->first, nav_obstacles_->second);
  // The open search replays on the mesh it ran on, so it must come after the obstacles.
  sim_.navigation_->long_searches.restore(std::move(nav_long_searches_), nav_long_open_iterations_);
}

}  // namespace npc
