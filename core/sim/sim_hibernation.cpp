// Simulation: the places phase (hibernation). Split from simulation.cpp to keep one concept
// per file; see core/hibernation/README.md for the rules.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/sim_planner.h"
#include "sim/simulation.h"

namespace npc {

namespace {

// The memory `id` slept with, in a place's sleeping planners sorted by id (null: it does
// not plan).
const PlannerMemory* sleptWith(const std::vector<SleepingPlanner>& planners, EntityId id) {
  const auto at = std::lower_bound(planners.begin(), planners.end(), id,
                                   [](const SleepingPlanner& p, EntityId x) { return p.id < x; });
  return at != planners.end() && at->id == id ? &at->memory : nullptr;
}

}  // namespace

void Simulation::updatePlaces() {
  const double now = timeS();
  if (places_.size() != world_.places().size()) {
    places_.resize(world_.places().size(), now);
    dormant_.resize(world_.places().size());
  }
  if (!places_.config().enabled || places_.size() == 0) return;
  for (const Entity& e : world_.entities().rows()) {
    if (e.kind == EntityKind::kPlayer && e.active) places_.noteActivity(e.place, now);
  }
  // Draining places where something happened again are awake: their agents hear it
  // (OnPlaceAwake, 0 s slept) so a tree that wound down on OnPlaceHibernating picks up.
  scratch_places_.clear();
  places_.takeResumed(now, scratch_places_);
  for (PlaceIndex p : scratch_places_) signalPlace(p, "OnPlaceAwake", 0.f);
  scratch_places_.clear();
  places_.takeDueWakes(now, scratch_places_);
  for (PlaceIndex p : scratch_places_) {
    if (places_.asleep(p)) wakePlace(p, "a scheduled game event");
  }
  // Places that start to drain tell their agents (OnPlaceHibernating); they sleep at the
  // earliest next tick, so the agents' trees hear it while they still run and may wind
  // down or hand over what they were doing.
  scratch_places_.clear();
  for (size_t i = 0; i < places_.size(); ++i) {
    const auto p = static_cast<PlaceIndex>(i);
    if (places_.state(p) == PlaceState::kAwake) scratch_places_.push_back(p);
  }
  places_.beginDraining(now);
  std::erase_if(scratch_places_,
                [&](PlaceIndex p) { return places_.state(p) != PlaceState::kDraining; });
  for (PlaceIndex p : scratch_places_) signalPlace(p, "OnPlaceHibernating", 0.f);
  if (places_.count(PlaceState::kDraining) > 0) {
    // A draining place sleeps once none of its agents waits on a client-side action.
    busy_by_place_.assign(places_.size(), 0);
    for (const Agent& agent : agents_.rows()) {
      const Entity* e = world_.entities().get(agent.entity);
      if (agent.busy() && e && raw(e->place) < busy_by_place_.size()) ++busy_by_place_[raw(e->place)];
    }
    for (PlaceIndex p : scratch_places_) ++busy_by_place_[raw(p)];  // draining from this tick
    for (size_t i = 0; i < places_.size(); ++i) {
      const auto p = static_cast<PlaceIndex>(i);
      if (places_.state(p) == PlaceState::kDraining && busy_by_place_[i] == 0) sleepPlace(p);
    }
  }
  if (places_.count(PlaceState::kAsleep) > 0) {
    // Awake agents that walked into a sleeping place join its sleep once idle; not in a place
    // held by another node, which they are leaving for (takeLeaving): they go there awake.
    scratch_ids_.clear();
    for (const Agent& agent : agents_.rows()) {
      const Entity* e = world_.entities().get(agent.entity);
      if (e && !agent.busy() && places_.asleep(e->place) && custody_.held(e->place)) {
        scratch_ids_.push_back(agent.id);
      }
    }
    const size_t sorted = dormant_index_.size();
    for (EntityId id : scratch_ids_) hibernateAgent(id, world_.entities().get(id)->place);
    mergeDormantIndex(sorted);
    scratch_ids_.clear();
  }
}

void Simulation::sleepPlace(PlaceIndex place) {
  scratch_ids_.clear();
  for (const Agent& agent : agents_.rows()) {
    const Entity* e = world_.entities().get(agent.entity);
    if (e && e->place == place) scratch_ids_.push_back(agent.id);
  }
  const size_t sorted = dormant_index_.size();
  for (EntityId id : scratch_ids_) hibernateAgent(id, place);
  mergeDormantIndex(sorted);
  places_.setAsleep(place, timeS());
  EventOut ev;
  ev.kind = EventKind::kPlaceAsleep;
  ev.place = place;
  ev.value = static_cast<float>(scratch_ids_.size());
  ev.text = world_.place(place)->name + ": " + std::to_string(scratch_ids_.size()) +
            " agents hibernating";
  output_.events.push_back(std::move(ev));
  scratch_ids_.clear();
}

void Simulation::hibernateAgent(EntityId id, PlaceIndex place) {
  Agent* agent = agents_.get(id);
  const Entity* body = agent ? world_.entities().get(agent->entity) : nullptr;
  if (!body) return;
  // Callers only put idle agents to sleep (draining waits for intentions to end), so the
  // intention queue is empty and nothing of it needs keeping.
  leaveTree(*agent);
  DormantAgent d;
  d.body = *body;
  d.home = agent->home;
  d.rng_state = agent->rng.state();
  d.bst = agent->bst;
  d.work = agent->work;
  d.actions = agent->intent.access;
  d.work_is_hibernation = agent->work_is_hibernation;
  d.inventory = agent->inventory;
  d.actions_completed = agent->actions_completed;
  d.actions_failed = agent->actions_failed;
  d.archetype = agent->archetype;
  d.group = agent->perception.group;
  d.behavior_def = agent->behavior_def;
  // The seed's hibernation action; an agent already in a long action just carries on.
  if (!d.work.running() && hibernation_action_[d.archetype] != LongActionRun::kNone) {
    d.work = LongActionLibrary::start(hibernation_action_[d.archetype], timeS());
    d.work_is_hibernation = true;
  }
  dormant_[raw(place)].edit().push_back(d);
  dormant_index_.emplace_back(raw(id), place);  // sorted in by mergeDormantIndex()
  ++dormant_count_;
  agents_.remove(id);
  sleepPlanner(id, place);  // facts, blackboard and pacing kept; it plans afresh when it wakes
  world_.entities().remove(id);
  world_.markMoved();
}

void Simulation::mergeDormantIndex(size_t sorted_prefix) {
  // One sort of the new entries and a linear merge: a place of k agents falling asleep
  // costs O(k log k + n), not O(k × n).
  const auto mid = dormant_index_.begin() + static_cast<ptrdiff_t>(sorted_prefix);
  std::sort(mid, dormant_index_.end());
  std::inplace_merge(dormant_index_.begin(), mid, dormant_index_.end());
  // Sleep events are rare and sleepers many: keep no spare capacity (see dormantBytes()).
  dormant_index_.shrink_to_fit();
  for (SleeperList& list : dormant_) list.shrinkToFit();
  for (SleepingPlanners& list : planning_->sleeping) list.shrinkToFit();
}

void Simulation::wakePlace(PlaceIndex place, std::string_view cause) {
  const double now = timeS();
  const double slept = now - places_.asleepSince(place);
  const std::vector<DormantAgent> sleepers = dormant_[raw(place)].take();
  std::vector<SleepingPlanner> planners;  // by id, for the sleepers to find theirs
  if (raw(place) < planning_->sleeping.size()) planners = planning_->sleeping[raw(place)].take();
  std::sort(planners.begin(), planners.end(),
            [](const SleepingPlanner& a, const SleepingPlanner& b) { return a.id < b.id; });
  std::string settled;
  for (const DormantAgent& d : sleepers) {
    const EntityId id = d.body.id;
    const EntityHandle handle = world_.entities().insert(id);
    *world_.entities().get(handle) = d.body;
    Agent* agent = agents_.get(agents_.insert(id));
    const Archetype& type = archetypes_.at(d.archetype);
    agent->entity = handle;
    agent->archetype = d.archetype;
    agent->home = d.home;
    agent->rng = Rng(d.rng_state);
    agent->bst = d.bst;
    agent->behavior_def = d.behavior_def;
    agent->work = d.work;
    agent->work_is_hibernation = d.work_is_hibernation;
    agent->inventory = d.inventory;
    agent->actions_completed = d.actions_completed;
    agent->actions_failed = d.actions_failed;
    initPerceptionState(agent->perception, type.sensors, id, config_.seed);
    agent->intent.access = d.actions;
    agent->perception.group = d.group;
    attachPlanner(*agent, sleptWith(planners, id));
    behaviors_.onBehaviorEntered(*agent);
    bindTree(*agent);
    if (agent->work.running()) {
      Settlement s;
      const std::string action = long_actions_.at(agent->work.action).name;
      if (agent->work_is_hibernation) {
        stopWork(*agent, &s);
      } else {
        long_actions_.settle(agent->work, now, agent->inventory, &s);
      }
      settled += "; " + type.name + " " + std::to_string(raw(id)) + " " + action + " " +
                 std::to_string(s.turns) + " turns: " + long_actions_.describe(s);
    }
  }
  dormant_count_ -= sleepers.size();
  dormant_index_.erase(std::remove_if(dormant_index_.begin(), dormant_index_.end(),
                                      [&](const auto& e) { return e.second == place; }),
                       dormant_index_.end());
  places_.setAwake(place, now);
  world_.markMoved();
  // Reaches the woken agents' selection trees and their behavior trees' signal variables
  // and timestamps before their first tick; value: the seconds slept (what was settled).
  signalPlace(place, "OnPlaceAwake", static_cast<float>(slept));
  char head[160];
  std::snprintf(head, sizeof head, "%s woke (%.*s) after %.1f s, %zu agents",
                world_.place(place)->name.c_str(), static_cast<int>(cause.size()), cause.data(),
                slept, sleepers.size());
  EventOut ev;
  ev.kind = EventKind::kPlaceAwake;
  ev.place = place;
  ev.value = static_cast<float>(slept);
  ev.text = head + settled;
  output_.events.push_back(std::move(ev));
}

void Simulation::signalPlace(PlaceIndex place, std::string_view signal, float value) {
  SignalRequest request;
  request.id = perception_.signalNames().intern(signal);  // a lookup after the first time
  request.scope = SignalScope::kPlace;
  request.place = place;
  request.value = value;
  perception_.postSignal(request);
}

void Simulation::wakeAgentPlace(EntityId id, std::string_view cause) {
  if (auto where = findDormant(id)) wakePlace(where->first, cause);
}

void Simulation::wakePlacesReachedBy(Vec3 center, float radius_m, std::string_view cause) {
  for (size_t i = 0; i < places_.size(); ++i) {
    const auto p = static_cast<PlaceIndex>(i);
    if (places_.asleep(p) && world_.place(p)->bounds.touchesSphere(center, radius_m)) {
      wakePlace(p, cause);
    }
  }
}

Status Simulation::wakePlaceCommand(const WakePlace& c) {
  const PlaceIndex place = world_.findPlace(c.place);
  if (place == PlaceIndex::kNone) {
    return {StatusCode::kNotFound, "place \"" + c.place + "\" is unknown"};
  }
  if (!(std::isfinite(c.delay_s) && c.delay_s >= 0.0)) {
    return {StatusCode::kInvalidArgument, "wake: delay_s must be finite and >= 0"};
  }
  if (places_.size() != world_.places().size()) updatePlaces();
  if (c.delay_s > 0.0) {
    places_.scheduleWake(place, timeS() + c.delay_s);
  } else if (places_.asleep(place)) {
    wakePlace(place, "a client request");
  } else {
    places_.noteActivity(place, timeS());
  }
  return {};
}

size_t Simulation::dormantBytes() const {
  size_t bytes = dormant_index_.capacity() * sizeof(dormant_index_[0]);
  for (const SleeperList& list : dormant_) bytes += list.capacityBytes();
  return bytes + sleepingPlannerBytes();
}

std::optional<std::pair<PlaceIndex, size_t>> Simulation::findDormant(EntityId id) const {
  auto it = std::lower_bound(dormant_index_.begin(), dormant_index_.end(),
                             std::make_pair(raw(id), PlaceIndex{}));
  if (it == dormant_index_.end() || it->first != raw(id)) return std::nullopt;
  const auto& list = dormant_[raw(it->second)];
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].body.id == id) return std::make_pair(it->second, i);
  }
  return std::nullopt;
}

}  // namespace npc
