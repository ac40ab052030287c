#include "debug/event_recorder.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "sim/simulation.h"

namespace npc {

void EventRecorder::record(const Simulation& sim) {
  const TickOutput& out = sim.output();
  if (out.events.empty() && out.actions.empty()) return;
  auto placeName = [&](PlaceIndex p) {
    const Place* place = sim.world().place(p);
    return place ? place->name : std::string();
  };
  std::lock_guard lock(mutex_);
  for (const EventOut& e : out.events) {
    push({0, out.tick, out.sim_time_s, std::string(toString(e.kind)), e.agent, e.subject,
          e.intention, placeName(e.place), e.value, e.text});
  }
  for (const ActionOut& a : out.actions) {
    push({0, out.tick, out.sim_time_s, "action", a.agent, EntityId::kNone, a.intention,
          placeName(a.place), 0.f, std::string(sim.names().name(a.name))});
  }
}

void EventRecorder::push(RecordedEvent event) {
  if (ring_.size() < capacity_) ring_.resize(capacity_);
  event.seq = ++last_seq_;
  ring_[event.seq % capacity_] = std::move(event);
}

nlohmann::json EventRecorder::query(uint64_t after, EntityId agent, const std::string& place,
                                    size_t limit) const {
  std::lock_guard lock(mutex_);
  const uint64_t oldest = last_seq_ >= capacity_ ? last_seq_ - capacity_ + 1 : 1;
  std::vector<const RecordedEvent*> matched;
  for (uint64_t seq = std::max(after + 1, oldest); seq <= last_seq_; ++seq) {
    const RecordedEvent& e = ring_[seq % capacity_];
    if (agent != EntityId::kNone && e.agent != agent && e.subject != agent) continue;
    if (!place.empty() && e.place != place) continue;
    matched.push_back(&e);
  }
  const size_t skip = matched.size() > limit ? matched.size() - limit : 0;
  nlohmann::json events = nlohmann::json::array();
  for (size_t i = skip; i < matched.size(); ++i) {
    const RecordedEvent& e = *matched[i];
    nlohmann::json j = {{"seq", e.seq}, {"tick", e.tick}, {"time_s", e.time_s}, {"kind", e.kind}};
    if (e.agent != EntityId::kNone) j["agent"] = raw(e.agent);
    if (e.subject != EntityId::kNone) j["subject"] = raw(e.subject);
    if (e.intention != IntentionId::kNone) j["intention"] = raw(e.intention);
    if (!e.place.empty()) j["place"] = e.place;
    if (e.value != 0.f) j["value"] = e.value;
    if (!e.text.empty()) j["text"] = e.text;
    events.push_back(std::move(j));
  }
  return {{"events", std::move(events)}, {"last_seq", last_seq_}, {"oldest_seq", oldest}};
}

}  // namespace npc
