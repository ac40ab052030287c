#include "perception/perception_debug.h"

#include <algorithm>
#include <vector>

// GCC 12 reports false -Warray-bounds positives inside nlohmann's inlined string/object
// construction (a known GCC 12 false positive); nothing here indexes an array.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

namespace npc {

using nlohmann::json;

namespace {

json vec(Vec3 v) {
  json a = json::array();
  a.push_back(v.x);
  a.push_back(v.y);
  a.push_back(v.z);
  return a;
}

}  // namespace

json describePerception(const PerceptionState& st, double now_s) {
  json out;
  const SensorConfig& s = st.sensors;
  json& sensors = out["sensors"];
  sensors["vision"] = s.vision;
  sensors["hearing"] = s.hearing;
  sensors["signals"] = s.signals;
  sensors["sight_range_m"] = s.sight_range_m;
  sensors["fov_deg"] = s.fov_deg;
  sensors["hearing_scale"] = s.hearing_scale;
  sensors["soft_cover_persist_s"] = st.soft_cover_persist_s;
  out["group"] = raw(st.group);
  out["full_updates"] = st.full_updates;
  out["next_full_update_tick"] = st.next_full_update_tick == PerceptionState::kUnscheduled
                                     ? json(nullptr)
                                     : json(st.next_full_update_tick);

  std::vector<const TargetTrack*> tracks;
  for (const TargetTrack& t : st.activeTracks()) tracks.push_back(&t);
  std::sort(tracks.begin(), tracks.end(),
            [](const auto* a, const auto* b) { return raw(a->target) < raw(b->target); });
  json visible = json::array(), memory = json::array(), potential = json::array();
  for (const TargetTrack* t : tracks) {
    json j;
    j["target"] = raw(t->target);
    j["coefficient"] = t->coefficient;
    j["threat"] = t->threat;
    j["position"] = vec(t->position);
    switch (t->state) {
      case TrackState::kVisible:
        j["distance_m"] = t->distance_m;
        j["visible_for_s"] = now_s - t->visible_since_s;
        j["soft_cover_for_s"] = t->timer_s < 0.0 ? json(nullptr) : json(now_s - t->timer_s);
        visible.push_back(std::move(j));
        break;
      case TrackState::kMemory:
        j["expires_in_s"] = t->timer_s - now_s;
        memory.push_back(std::move(j));
        break;
      case TrackState::kPotential:
        j["suspicious"] = t->has(TargetTrack::kSuspicious);
        potential.push_back(std::move(j));
        break;
    }
  }
  out["visible"] = std::move(visible);
  out["memory"] = std::move(memory);
  out["potential"] = std::move(potential);

  json sounds = json::array();
  for (const SoundTarget& t : st.activeSounds()) {
    json j;
    j["source"] = raw(t.source);
    j["kind"] = std::string(toString(t.kind));
    j["position"] = vec(t.position);
    j["threat"] = t.threat;
    j["expires_in_s"] = t.expires_s - now_s;
    sounds.push_back(std::move(j));
  }
  out["sounds"] = std::move(sounds);

  const AttentionTarget& a = st.attention;
  if (a.cls == AttentionClass::kNone) {
    out["attention"] = nullptr;
  } else {
    json& j = out["attention"];
    j["class"] = std::string(toString(a.cls));
    j["target"] = raw(a.target);
    j["position"] = vec(a.position);
    j["threat"] = a.threat;
  }
  json& dropped = out["dropped"];
  dropped["tracks"] = st.tracks_dropped;
  dropped["sound_targets"] = st.sound_targets_dropped;
  dropped["candidates_truncated"] = st.candidates_truncated;
  return out;
}

}  // namespace npc
