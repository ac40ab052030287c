#include "sim/sim_state_access.h"

#include <algorithm>

#include "sim/sim_planner.h"
#include "sim/simulation.h"

namespace npc {

uint64_t SimStateAccess::tick() const { return sim_.tick_; }
double SimStateAccess::timeS() const { return sim_.timeS(); }
uint64_t SimStateAccess::nextIntentionId() const { return sim_.intention_ids_.peek(); }
uint64_t SimStateAccess::nextDroppedObject() const { return sim_.next_dropped_object_; }
const World& SimStateAccess::world() const { return sim_.world_; }
std::span<const Agent> SimStateAccess::agents() const { return sim_.agents_.rows(); }
const PlaceDispatcher& SimStateAccess::places() const { return sim_.places_; }
std::span<const std::vector<DormantAgent>> SimStateAccess::dormant() const { return sim_.dormant_; }
const ArchetypeSet& SimStateAccess::archetypes() const { return sim_.archetypes_; }
const LongActionLibrary& SimStateAccess::longActions() const { return sim_.long_actions_; }
const NameTable& SimStateAccess::names() const { return sim_.names_; }
const SelectionTreeLibrary& SimStateAccess::selectionTrees() const { return sim_.trees_; }
const PerceptionSystem& SimStateAccess::perception() const { return sim_.perception_; }
const ActionRegistry& SimStateAccess::registry() const { return sim_.registry_; }
ActionListId SimStateAccess::ownActions(uint16_t archetype) const {
  return sim_.own_actions_[archetype];
}
uint16_t SimStateAccess::internAction(std::string_view name) { return sim_.names_.intern(name); }
uint16_t SimStateAccess::internSpecies(std::string_view name) {
  return sim_.world_.species().intern(name);
}
uint16_t SimStateAccess::internItem(std::string_view name) {
  return sim_.long_actions_.items().intern(name);
}

std::optional<PlannerMemory> SimStateAccess::planner(EntityId id) const {
  if (!sim_.planning_) return std::nullopt;
  return sim_.plannerMemory(id);
}

std::vector<EntityId> SimStateAccess::sleepingPlanners() const {
  std::vector<EntityId> ids;
  if (!sim_.planning_) return ids;
  for (const auto& entry : sim_.planning_->sleeping) ids.push_back(entry.first);
  return ids;  // std::map: ascending
}

Status SimStateAccess::setPerceptionTuning(const SetPerceptionTuning& tuning) {
  return sim_.setPerceptionTuning(tuning);
}

void SimStateAccess::setVisibilityTypes(
    std::span<const std::pair<std::string, VisibilityType>> types) {
  VisibilityRegistry& registry = sim_.perception_.visibility();
  registry.clearTypes();
  for (const auto& [species, settings] : types) {
    const uint16_t type = sim_.world_.species().intern(species);
    if (type != NameTable::kNone) registry.registerType(type, settings);
  }
}

void SimStateAccess::setAttributePrincipals(std::vector<std::pair<EntityId, EntityId>> links) {
  sim_.perception_.visibility().restorePrincipals(std::move(links));
}

void SimStateAccess::clear() {
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
  if (sim_.planning_) sim_.planning_->sleeping.clear();
  sim_.dormant_.assign(sim_.world_.places().size(), {});
  sim_.dormant_index_.clear();
  sim_.dormant_count_ = 0;
  sim_.places_.resize(sim_.world_.places().size(), sim_.timeS());
  sim_.lifetimes_.clear();
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

void SimStateAccess::addEntity(const Entity& entity) {
  const EntityHandle handle = sim_.world_.entities().insert(entity.id);
  *sim_.world_.entities().get(handle) = entity;
  if (entity.kind == EntityKind::kAttribute) sim_.noteLifetime(entity);
  sim_.world_.markMoved();
}

void SimStateAccess::addObstacle(const Obstacle& obstacle) { sim_.world_.upsertObstacle(obstacle); }

void SimStateAccess::addPlanner(EntityId id, const PlannerMemory& memory) {
  if (!sim_.planning_) return;
  sim_.planning_->sleeping[id] = memory;
}

bool SimStateAccess::addAgent(const AgentRecord& r) {
  if (r.archetype >= sim_.archetypes_.size()) return false;
  const EntityId id = r.body.id;
  const EntityHandle handle = sim_.world_.entities().insert(id);
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
  sim_.attachPlanner(*agent);  // adopts the memory addPlanner() left for it
  sim_.bindTree(*agent);
  if (agent->mbt.bound()) {
    agent->mbt.restoreRuntime(r.mbt_variables, r.mbt_timestamps.data(), r.mbt_timestamps.size(),
                              r.mbt_stopped);
  }
  for (const AgentRecord::Interrupted& in : r.interrupted) {
    IntentionEvent event;
    event.agent = id;
    event.intention = in.id;
    event.time_s = sim_.timeS();
    event.progress = in.progress;
    event.action = in.action;
    event.kind = IntentionEventKind::kInterrupted;
    event.reason = IntentionReason::kRestored;
    sim_.intention_events_.push(event);  // flushed (to clients, trees) by the first tick
  }
  sim_.world_.markMoved();
  return true;
}

void SimStateAccess::addDormant(PlaceIndex place, const DormantAgent& record) {
  if (sim_.dormant_.size() <= raw(place)) sim_.dormant_.resize(raw(place) + 1u);
  sim_.dormant_[raw(place)].push_back(record);
  sim_.dormant_index_.emplace_back(raw(record.body.id), place);
  ++sim_.dormant_count_;
}

void SimStateAccess::setPlace(PlaceIndex place, PlaceState state, double last_activity_s,
                              double asleep_since_s, double wake_at_s) {
  if (raw(place) >= sim_.places_.size()) return;
  sim_.places_.restore(place, state, last_activity_s, asleep_since_s, wake_at_s);
}

void SimStateAccess::finishRestore() {
  std::sort(sim_.dormant_index_.begin(), sim_.dormant_index_.end());
  for (Agent& agent : sim_.agents_.rows()) {
    for (TargetTrack& track : agent.perception.activeTracks()) {
      track.handle = sim_.world_.entities().find(track.target);
    }
  }
  sim_.world_.markMoved();
}

}  // namespace npc
