#include "place_handoff.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "agent/archetype.h"
#include "goap_codec.h"
#include "hibernation_codec.h"
#include "perception/perception_state.h"
#include "sim/sim_state_access.h"
#include "sim/simulation.h"
#include "sim_state_codec.h"

namespace npc {

namespace {

// The writer's exact parts mean nothing to another node's simulation.
void stripExact(pb::AgentState& agent) {
  agent.mutable_intent()->clear_run();
  agent.mutable_mbt()->clear_run();
  agent.mutable_goap()->clear_runs();
}

void copyNames(const pb::SimState& whole, pb::SimState& out) {
  out.mutable_action_names()->CopyFrom(whole.action_names());
  out.mutable_species_names()->CopyFrom(whole.species_names());
  out.mutable_item_names()->CopyFrom(whole.item_names());
  out.mutable_signal_names()->CopyFrom(whole.signal_names());
  out.mutable_group_names()->CopyFrom(whole.group_names());
  out.mutable_client_bindings()->CopyFrom(whole.client_bindings());
  out.mutable_hibernation()->mutable_archetype_names()->CopyFrom(whole.hibernation().archetype_names());
  out.mutable_hibernation()->mutable_long_action_names()->CopyFrom(
      whole.hibernation().long_action_names());
}

// --- moving a handoff onto the reader's clock ------------------------------------------
// Times are moments on the writer's clock; 0 and negative values are "never" or "none"
// (a track's timer, an unset timestamp) and infinity is "never" too: those stay. A moment
// that would fall before the reader's clock began is put just after it.
struct ClockShift {
  double seconds = 0.0;
  uint64_t writer_tick = 0;
  uint64_t reader_tick = 0;

  double operator()(double t) const {
    if (!(t > 0.0) || !std::isfinite(t)) return t;
    return std::max(t + seconds, 1e-3);
  }
  uint64_t tick(uint64_t t) const {
    if (t == PerceptionState::kUnscheduled) return t;
    return reader_tick + (t > writer_tick ? t - writer_tick : 0);
  }
};

void shiftPerception(pb::PerceptionState& p, const ClockShift& at) {
  for (pb::TrackState& t : *p.mutable_tracks()) {
    t.set_visible_since_s(at(t.visible_since_s()));
    t.set_last_seen_s(at(t.last_seen_s()));
    t.set_timer_s(at(t.timer_s()));
  }
  for (pb::SoundTargetState& s : *p.mutable_sounds()) {
    s.set_heard_s(at(s.heard_s()));
    s.set_expires_s(at(s.expires_s()));
  }
  p.set_last_full_update_s(at(p.last_full_update_s()));
  p.set_last_bullet_rain_s(at(p.last_bullet_rain_s()));
  p.set_next_full_update_tick(at.tick(p.next_full_update_tick()));
}

void shiftGoap(pb::GoapState& g, const ClockShift& at) {
  for (pb::PacingEntry& e : *g.mutable_pacing()) e.set_last_used_s(at(e.last_used_s()));
}

void shiftAgent(pb::AgentState& a, const ClockShift& at) {
  a.set_idle_until_s(at(a.idle_until_s()));
  a.set_greet_ready_s(at(a.greet_ready_s()));
  a.set_attack_ready_s(at(a.attack_ready_s()));
  a.mutable_body()->set_expires_s(at(a.body().expires_s()));
  shiftPerception(*a.mutable_perception(), at);
  for (pb::MbtTimestampState& t : *a.mutable_mbt()->mutable_timestamps()) t.set_time_s(at(t.time_s()));
  for (pb::IntentionState& i : *a.mutable_intent()->mutable_queue()) {
    i.set_date_s(at(i.date_s()));
    i.set_started_s(at(i.started_s()));
  }
  shiftGoap(*a.mutable_goap(), at);
  a.mutable_work()->set_started_s(at(a.work().started_s()));
}

void shiftClock(pb::SimState& state, const ClockShift& at) {
  for (pb::AgentState& a : *state.mutable_agents()) shiftAgent(a, at);
  for (pb::GoapSleeper& s : *state.mutable_sleeping_planners()) shiftGoap(*s.mutable_goap(), at);
  pb::HibernationState& h = *state.mutable_hibernation();
  for (pb::DormantAgentState& d : *h.mutable_dormant()) {
    if (d.work_action() != 0) d.set_work_started_s(at(d.work_started_s()));
    if (d.has_expires_s()) d.set_expires_s(at(d.expires_s()));
  }
  for (pb::PlaceState& p : *h.mutable_places()) {
    p.set_last_activity_s(at(p.last_activity_s()));
    p.set_asleep_since_s(at(p.asleep_since_s()));
    p.set_wake_at_s(at(p.wake_at_s()));
  }
}

// --- adopting ----------------------------------------------------------------------------

bool adoptAgents(const pb::SimState& state, PlaceIndex place, const SleeperNames& names,
                 SimStateAccess& access, PlaceAdoption& report, std::string& error) {
  const WriterClients owners(state.client_bindings(), access.clients());
  const EntityTable& entities = access.world().entities();
  for (const pb::GoapSleeper& s : state.sleeping_planners()) {
    if (entities.find(EntityId{s.id()}).isNull()) access.addPlanner(EntityId{s.id()}, decodeGoap(s.goap()));
  }
  AgentRecord record;
  for (const pb::AgentState& a : state.agents()) {
    if (!entities.find(EntityId{a.id()}).isNull()) {
      ++report.skipped;
      continue;
    }
    if (!decodeAgent(a, access, record, false, error)) return false;
    record.body.place = place;  // the writer's index of the same place under the same hash
    record.body.owner = owners(record.body.owner);
    const uint16_t group = raw(record.perception.group);  // the snapshot's numbering
    record.perception.group =
        group < names.groups.size() ? names.groups[group] : GroupNumber::kNone;
    if (a.plans()) access.addPlanner(EntityId{a.id()}, decodeGoap(a.goap()));
    if (!access.addAgent(record, RestoreMode::kRestart)) {
      error = "agent " + std::to_string(a.id()) + ": cannot be restored";
      return false;
    }
    ++report.awake;
  }
  return true;
}

const pb::PlaceState* placeStateOf(const pb::SimState& state, std::string_view name) {
  for (const pb::PlaceState& p : state.hibernation().places()) {
    if (p.name() == name) return &p;
  }
  return nullptr;
}

}  // namespace

void splitPlaces(pb::SimState& whole, std::span<const PlaceToHand> places, double sim_time_s,
                 const HandoffSource& source, std::vector<pb::PlaceHandoff>& out) {
  out.clear();
  out.resize(places.size());
  std::unordered_map<uint32_t, size_t> slot;  // PlaceIndex -> index in out
  for (size_t i = 0; i < places.size(); ++i) {
    pb::PlaceHandoff& h = out[i];
    h.set_format_version(kPlaceHandoffVersion);
    h.set_definitions_hash(source.definitions_hash);
    h.set_place(places[i].name);
    h.set_epoch(places[i].epoch);
    h.set_node(source.node);
    h.set_tick(whole.tick());
    h.set_sim_time_s(sim_time_s);
    h.set_arrivals_after(places[i].arrivals_after);
    h.mutable_state()->set_tick(whole.tick());
    copyNames(whole, *h.mutable_state());
    slot[raw(places[i].index)] = i;
  }
  for (const pb::PlaceState& p : whole.hibernation().places()) {
    auto it = slot.find(p.index());
    if (it == slot.end()) continue;
    pb::PlaceState& o = *out[it->second].mutable_state()->mutable_hibernation()->add_places();
    o = p;
    o.clear_held();  // custody is the reader's own
    o.clear_epoch();
    o.clear_holder();
  }
  for (pb::AgentState& a : *whole.mutable_agents()) {
    auto it = slot.find(a.body().place());
    if (it == slot.end()) continue;
    pb::AgentState& o = *out[it->second].mutable_state()->add_agents();
    o = std::move(a);
    stripExact(o);
  }
  // Sleepers: ids are deltas from the previous sleeper, so each place's list re-bases them.
  std::vector<uint64_t> last(places.size(), 0);
  std::unordered_map<uint64_t, size_t> sleeper_slot;
  uint64_t id = 0;
  for (const pb::DormantAgentState& d : whole.hibernation().dormant()) {
    id += static_cast<uint64_t>(d.id_delta());
    auto it = slot.find(d.place());
    if (it == slot.end()) continue;
    pb::DormantAgentState& o = *out[it->second].mutable_state()->mutable_hibernation()->add_dormant();
    o = d;
    o.set_id_delta(static_cast<int64_t>(id - last[it->second]));
    last[it->second] = id;
    sleeper_slot[id] = it->second;
  }
  for (const pb::GoapSleeper& s : whole.sleeping_planners()) {
    auto it = sleeper_slot.find(s.id());
    if (it != sleeper_slot.end()) *out[it->second].mutable_state()->add_sleeping_planners() = s;
  }
}

namespace {

// The checks both kinds of adoption make before touching the simulation; the place's index.
PlaceIndex checkHandoff(const pb::PlaceHandoff& handoff, std::string_view definitions_hash,
                        const SimStateAccess& access, const std::string& label, std::string& error) {
  if (handoff.format_version() != kPlaceHandoffVersion) {
    error = label + ": format version " + std::to_string(handoff.format_version()) + ", not " +
            std::to_string(kPlaceHandoffVersion);
    return PlaceIndex::kNone;
  }
  if (handoff.definitions_hash() != definitions_hash) {
    error = label + ": taken with other definitions (hash " + handoff.definitions_hash() + ")";
    return PlaceIndex::kNone;
  }
  const PlaceIndex place = access.world().findPlace(handoff.place());
  if (place == PlaceIndex::kNone) error = label + ": this world has no such place";
  return place;
}

// The handoff's state on this simulation's clock.
pb::SimState onThisClock(const pb::PlaceHandoff& handoff, const SimStateAccess& access,
                         PlaceIndex place, PlaceAdoption& report) {
  pb::SimState state = handoff.state();
  const ClockShift at{access.timeS() - handoff.sim_time_s(), handoff.tick(), access.tick()};
  report.clock_shift_s = at.seconds;
  shiftClock(state, at);
  for (pb::DormantAgentState& d : *state.mutable_hibernation()->mutable_dormant()) {
    d.set_place(raw(place));  // the writer's index of the same place under the same hash
  }
  return state;
}

}  // namespace

bool adoptPlace(const pb::PlaceHandoff& handoff, std::string_view definitions_hash,
                Simulation& sim, PlaceAdoption& report, std::string& error) {
  report = PlaceAdoption{};
  const std::string label = "place \"" + handoff.place() + "\" handoff";
  SimStateAccess access(sim);
  const PlaceIndex place = checkHandoff(handoff, definitions_hash, access, label, error);
  if (place == PlaceIndex::kNone) return false;
  const pb::SimState state = onThisClock(handoff, access, place, report);

  access.unloadPlace(place);
  const SleeperNames names = sleeperNames(state, access);
  SleeperCounts sleepers;
  bool ok = adoptAgents(state, place, names, access, report, error) &&
            restoreSleepers(state.hibernation(), names, place, access, error, &sleepers);
  if (ok) {
    if (const pb::PlaceState* p = placeStateOf(state, handoff.place())) {
      access.setPlace(place, static_cast<PlaceState>(p->state()), p->last_activity_s(),
                      p->asleep_since_s(), p->wake_at_s());
    }
  }
  access.finishRestore();
  report.asleep = sleepers.added;
  report.skipped += sleepers.skipped;
  if (!ok) {
    error = label + ": " + error;
    access.unloadPlace(place);
    return false;
  }
  return true;
}

bool adoptArrivals(const pb::PlaceHandoff& arrivals, std::string_view definitions_hash,
                   Simulation& sim, PlaceAdoption& report, std::string& error) {
  report = PlaceAdoption{};
  const std::string label = "npcs arriving in place \"" + arrivals.place() + "\"";
  SimStateAccess access(sim);
  const PlaceIndex place = checkHandoff(arrivals, definitions_hash, access, label, error);
  if (place == PlaceIndex::kNone) return false;
  for (const pb::AgentState& a : arrivals.state().agents()) {
    if (!access.archetypes().find(a.archetype())) {
      error = label + ": agent " + std::to_string(a.id()) + ": archetype \"" + a.archetype() +
              "\" is unknown";
      return false;
    }
  }
  const pb::SimState state = onThisClock(arrivals, access, place, report);
  access.wakePlace(place, "npcs arrived from another node");
  const SleeperNames names = sleeperNames(state, access);
  const bool ok = adoptAgents(state, place, names, access, report, error);
  access.finishRestore();
  if (!ok) error = label + ": " + error;
  return ok;
}

WriterClients::WriterClients(
    const google::protobuf::RepeatedPtrField<pb::ClientBindingState>& bindings,
    const ClientDirectory& here) {
  for (const pb::ClientBindingState& b : bindings) {
    if (std::optional<ClientId> id = here.find(b.name())) ids_[b.id()] = *id;
  }
}

ClientId WriterClients::operator()(ClientId writer) const {
  if (!ClientDirectory::isClientId(writer)) return writer;
  auto it = ids_.find(raw(writer));
  return it == ids_.end() ? ClientId::kDaemon : it->second;
}

}  // namespace npc
