// Simulation: places held by lease in a cluster (place_custody.h, HoldPlace).
#include <algorithm>
#include <cmath>
#include <string>

#include "perception/sounds.h"

#include "sim/sim_messages.h"
#include "sim/sim_planner.h"
#include "sim/simulation.h"

namespace npc {

namespace {

std::string placeLabel(const World& world, PlaceIndex place) {
  const Place* p = world.place(place);
  return p ? "place \"" + p->name + "\"" : "outside every place";
}

}  // namespace

Status Simulation::holdPlaceCommand(const HoldPlace& c) {
  if (!custody_.leased()) {
    return {StatusCode::kFailedPrecondition,
            "place \"" + c.place + "\": places are not leased (no cluster section)"};
  }
  const PlaceIndex place = world_.findPlace(c.place);
  if (place == PlaceIndex::kNone) {
    return {StatusCode::kNotFound, "place \"" + c.place + "\" is unknown"};
  }
  if (custody_.size() != world_.places().size()) custody_.resize(world_.places().size());
  const uint64_t last = custody_.epoch(place);
  if (!c.held) {
    if (custody_.held(place) && c.epoch != 0 && c.epoch != last) {
      return {StatusCode::kFailedPrecondition,
              "place \"" + c.place + "\": held at epoch " + std::to_string(last) + ", not " +
                  std::to_string(c.epoch)};
    }
    // Also when not held: a snapshot of a daemon that ran alone leaves agents in every place.
    unloadPlace(place);
    custody_.release(place);
    return {};
  }
  if (custody_.held(place) && c.epoch == last) return {};  // the same grant again
  if (!custody_.hold(place, c.epoch)) {
    return {StatusCode::kFailedPrecondition,
            "place \"" + c.place + "\": epoch " + std::to_string(c.epoch) +
                " is not above its last, " + std::to_string(last)};
  }
  return {};
}

// The place's agents, awake or asleep, and their bodies leave this daemon without a word
// to clients: the place's next holder runs them from the place's snapshot. Objects, players
// and attributes are the game's world state and stay.
void Simulation::unloadPlace(PlaceIndex place) {
  scratch_ids_.clear();
  for (const Agent& agent : agents_.rows()) {
    const Entity* e = world_.entities().get(agent.entity);
    if (e && e->place == place) scratch_ids_.push_back(agent.id);
  }
  if (raw(place) < dormant_.size()) {
    for (const DormantAgent& d : dormant_[raw(place)]) scratch_ids_.push_back(d.body.id);
  }
  // All its sleeping planners go: at once, not one search of the place per sleeper.
  if (raw(place) < planning_->sleeping.size()) planning_->sleeping[raw(place)] = {};
  for (EntityId id : scratch_ids_) removeEntity(id, true, false);
  scratch_ids_.clear();
  if (raw(place) < places_.size() && places_.state(place) != PlaceState::kAwake) {
    places_.setAwake(place, timeS());  // no sleepers left to settle
  }
}

Status Simulation::checkCustody(const EntityState& s, const Entity* current) const {
  if (!custody_.leased() || s.kind != EntityKind::kNpc) return {};
  PlaceIndex place = current ? current->place : PlaceIndex::kNone;
  if (!s.place.empty()) {
    place = world_.findPlace(s.place);
    if (place == PlaceIndex::kNone) return {};  // the update's own check names the field
  } else if (s.position && !(current && current->place_from_client)) {
    place = world_.placeAt(*s.position);
  }
  if (custody_.held(place)) return {};
  // An npc of a place held here that the game moves into a place held elsewhere goes there,
  // mind and all: it is noted as leaving (takeLeaving) and handed over.
  if (current && place != PlaceIndex::kNone && custody_.held(current->place)) return {};
  if (place == PlaceIndex::kNone) {
    return {StatusCode::kFailedPrecondition,
            entityLabel(s.id) + ": is outside every place, and in a cluster an npc belongs to a place"};
  }
  const std::string& holder = custody_.holder(place);
  return {StatusCode::kFailedPrecondition,
          entityLabel(s.id) + ": " + placeLabel(world_, place) + " is held by another node" +
              (holder.empty() ? std::string() : " (" + holder + ")")};
}

void Simulation::noteLeaving(const Entity& e) {
  if (!custody_.leased() || e.kind != EntityKind::kNpc || custody_.held(e.place)) return;
  if (std::find(leaving_.begin(), leaving_.end(), e.id) == leaving_.end()) leaving_.push_back(e.id);
}

void Simulation::noteCrossing(const Sound& sound) {
  if (!custody_.leased()) return;
  for (size_t i = 0; i < world_.places().size(); ++i) {
    const auto p = static_cast<PlaceIndex>(i);
    if (!custody_.held(p) && world_.places()[i].bounds.touchesSphere(sound.position, sound.radius_m)) {
      crossing_sounds_.push_back({p, sound});
    }
  }
}

// A signal to one place goes there; one within a radius to every place its sphere reaches.
void Simulation::noteCrossing(const SignalEvent& signal) {
  if (!custody_.leased() || signal.relayed) return;
  SignalEvent relayed = signal;
  relayed.reply = nullptr;  // answered here
  if (!signal.place.empty()) {
    const PlaceIndex p = world_.findPlace(signal.place);
    if (p != PlaceIndex::kNone && !custody_.held(p)) crossing_signals_.push_back({p, relayed});
    return;
  }
  for (size_t i = 0; i < world_.places().size(); ++i) {
    const auto p = static_cast<PlaceIndex>(i);
    if (!custody_.held(p) && world_.places()[i].bounds.touchesSphere(signal.position, signal.radius_m)) {
      crossing_signals_.push_back({p, relayed});
    }
  }
}

void Simulation::noteCrossing(const SignalRequest& request) {
  if (!custody_.leased() || request.scope != SignalScope::kRadius) return;
  SignalEvent signal;
  signal.name = std::string(perception_.signalNames().name(request.id));
  signal.sender = request.sender;
  signal.subject = request.subject;
  signal.position = request.position;
  signal.radius_m = request.radius_m;
  signal.value = request.value;
  if (request.action != ActionNameId::kNone) signal.action = names_.name(request.action);
  noteCrossing(signal);
}

// A visitor there sees what an agent here would: within the largest sight range of any
// archetype, or the player's footsteps' reach (radius × the keenest hearing).
void Simulation::relayPlayers() {
  if (!custody_.leased()) return;
  const auto every = static_cast<uint64_t>(std::max(1.0, std::round(kVisitorRelayS / config_.tick_dt_s)));
  float sight_m = 0.f;
  float hearing = 0.f;
  for (uint16_t i = 0; i < archetypes_.size(); ++i) {
    sight_m = std::max(sight_m, archetypes_.at(i).sensors.sight_range_m);
    hearing = std::max(hearing, archetypes_.at(i).sensors.hearing_scale);
  }
  for (const Entity& e : world_.entities().rows()) {
    if (e.kind != EntityKind::kPlayer || isVisitor(e) || (tick_ + raw(e.id)) % every != 0) continue;
    float reach_m = sight_m;
    if (config_.derive_footsteps) {
      if (auto footstep = footstepFromMovement(perception_.config().footsteps, e)) {
        reach_m = std::max(reach_m, footstep->radius_m * hearing);
      }
    }
    for (size_t i = 0; i < world_.places().size(); ++i) {
      const auto p = static_cast<PlaceIndex>(i);
      if (!custody_.held(p) && world_.places()[i].bounds.touchesSphere(e.position, reach_m)) {
        visiting_players_.push_back({p, e.id});
      }
    }
  }
}

void Simulation::takeVisitingPlayers(std::vector<std::pair<PlaceIndex, EntityState>>& out) {
  for (const auto& [place, id] : visiting_players_) {
    const Entity* e = world_.entities().get(id);
    if (!e) continue;
    EntityState s;
    s.id = id;
    s.kind = EntityKind::kPlayer;
    if (e->species != SpeciesId::kNone) s.species = std::string(world_.species().name(e->species));
    s.position = e->position;
    s.forward = e->forward;
    s.velocity = e->velocity;
    s.eye_height_m = e->eye_height_m;
    s.active = e->active;
    s.relayed = true;
    out.push_back({place, std::move(s)});
  }
  visiting_players_.clear();
}

void Simulation::takeCrossingSignals(std::vector<std::pair<PlaceIndex, SignalEvent>>& out) {
  out.insert(out.end(), crossing_signals_.begin(), crossing_signals_.end());
  crossing_signals_.clear();
}

void Simulation::takeCrossingSounds(std::vector<std::pair<PlaceIndex, Sound>>& out) {
  out.insert(out.end(), crossing_sounds_.begin(), crossing_sounds_.end());
  crossing_sounds_.clear();
}

PlaceIndex Simulation::agentPlace(EntityId id) const {
  if (agents_.get(id) != nullptr) {
    const Entity* body = world_.entities().get(id);
    return body ? body->place : PlaceIndex::kNone;
  }
  const auto dormant = findDormant(id);
  return dormant ? dormant->first : PlaceIndex::kNone;
}

void Simulation::takeLeaving(std::vector<EntityId>& out) {
  out.insert(out.end(), leaving_.begin(), leaving_.end());
  leaving_.clear();
}

Status Simulation::handOver(const HandOver& c) {
  if (!agents_.get(c.id) && !findDormant(c.id)) {
    return {StatusCode::kNotFound, entityLabel(c.id) + ": no such agent to hand over"};
  }
  return removeEntity(c.id, true, false);
}

Status Simulation::notePlaceHolder(const NotePlaceHolder& c) {
  const PlaceIndex place = world_.findPlace(c.place);
  if (place == PlaceIndex::kNone) return {StatusCode::kNotFound, "place \"" + c.place + "\" is unknown"};
  if (!custody_.leased()) return {};
  if (custody_.size() != world_.places().size()) custody_.resize(world_.places().size());
  if (!custody_.held(place)) custody_.setHolder(place, c.holder);
  return {};
}

}  // namespace npc
