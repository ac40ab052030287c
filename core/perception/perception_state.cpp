#include "perception/perception_state.h"

#include <algorithm>

#include "base/rng.h"

namespace npc {

std::string_view toString(TrackState state) {
  switch (state) {
    case TrackState::kPotential: return "potential";
    case TrackState::kVisible: return "visible";
    case TrackState::kMemory: return "memory";
  }
  return "unknown";
}

std::string_view toString(AttentionClass cls) {
  switch (cls) {
    case AttentionClass::kNone: return "none";
    case AttentionClass::kHeard: return "heard";
    case AttentionClass::kRemembered: return "remembered";
    case AttentionClass::kVisible: return "visible";
  }
  return "unknown";
}

void initPerceptionState(PerceptionState& state, const SensorConfig& sensors, EntityId agent,
                         uint64_t world_seed) {
  state = PerceptionState{};
  state.sensors = sensors;
  // A separate stream ("perc" salt) so drawing here never shifts the agent's own Rng.
  Rng rng = Rng::forStream(world_seed ^ 0x70657263ull, raw(agent));
  const float lo = std::min(sensors.soft_cover_min_s, sensors.soft_cover_max_s);
  const float hi = std::max(sensors.soft_cover_min_s, sensors.soft_cover_max_s);
  state.soft_cover_persist_s = lo == hi ? lo : rng.range(lo, hi);
}

namespace {

// Rank for eviction: visible > memory > potential; then threat, then coefficient.
bool ranksBelow(const TargetTrack& a, const TargetTrack& b) {
  auto cls = [](TrackState s) {
    return s == TrackState::kVisible ? 2 : (s == TrackState::kMemory ? 1 : 0);
  };
  if (cls(a.state) != cls(b.state)) return cls(a.state) < cls(b.state);
  if (a.threat != b.threat) return a.threat < b.threat;
  if (a.coefficient != b.coefficient) return a.coefficient < b.coefficient;
  return raw(a.target) > raw(b.target);
}

bool soundRanksBelow(const SoundTarget& a, const SoundTarget& b) {
  if (a.threat != b.threat) return a.threat < b.threat;
  return a.expires_s < b.expires_s;
}

}  // namespace

int findTrack(const PerceptionState& state, EntityId target) {
  for (int i = 0; i < state.track_count; ++i) {
    if (state.tracks[i].target == target) return i;
  }
  return -1;
}

int addTrack(PerceptionState& state, const TargetTrack& track, bool becomes_visible) {
  if (state.track_count < kMaxTracks) {
    state.tracks[state.track_count] = track;
    return state.track_count++;
  }
  ++state.tracks_dropped;
  int lowest = 0;
  for (int i = 1; i < state.track_count; ++i) {
    if (ranksBelow(state.tracks[i], state.tracks[lowest])) lowest = i;
  }
  TargetTrack ranked = track;
  if (becomes_visible) ranked.state = TrackState::kVisible;
  if (!ranksBelow(state.tracks[lowest], ranked)) return -1;
  state.tracks[lowest] = track;
  return lowest;
}

void removeTrack(PerceptionState& state, int index) {
  state.tracks[index] = state.tracks[state.track_count - 1];
  --state.track_count;
}

int findSoundTarget(const PerceptionState& state, EntityId source, SoundKind kind,
                    Vec3 position, float merge_radius_m) {
  int best = -1;
  float best_d2 = merge_radius_m * merge_radius_m;
  for (int i = 0; i < state.sound_count; ++i) {
    const SoundTarget& s = state.sounds[i];
    if (source != EntityId::kNone) {
      if (s.source == source) return i;
      continue;
    }
    if (s.source != EntityId::kNone || s.kind != kind) continue;
    const float d2 = distanceSq(s.position, position);
    if (d2 <= best_d2) {
      best = i;
      best_d2 = d2;
    }
  }
  return best;
}

int addSoundTarget(PerceptionState& state, const SoundTarget& target) {
  if (state.sound_count < kMaxSoundTargets) {
    state.sounds[state.sound_count] = target;
    return state.sound_count++;
  }
  ++state.sound_targets_dropped;
  int lowest = 0;
  for (int i = 1; i < state.sound_count; ++i) {
    if (soundRanksBelow(state.sounds[i], state.sounds[lowest])) lowest = i;
  }
  if (!soundRanksBelow(state.sounds[lowest], target)) return -1;
  state.sounds[lowest] = target;
  return lowest;
}

void expireSoundTargets(PerceptionState& state, double now_s) {
  for (int i = 0; i < state.sound_count;) {
    if (state.sounds[i].expires_s <= now_s) {
      state.sounds[i] = state.sounds[state.sound_count - 1];
      --state.sound_count;
    } else {
      ++i;
    }
  }
}

AttentionTarget pickAttention(const PerceptionState& state) {
  AttentionTarget best;
  float best_distance = 0.f;
  auto consider = [&](AttentionClass cls, EntityId id, Vec3 pos, float threat, float distance) {
    bool wins = cls > best.cls;
    if (cls == best.cls) {
      if (threat != best.threat) {
        wins = threat > best.threat;
      } else if (distance != best_distance) {
        wins = distance < best_distance;
      } else {
        wins = raw(id) < raw(best.target);
      }
    }
    if (wins) {
      best = {cls, id, pos, threat};
      best_distance = distance;
    }
  };
  for (const TargetTrack& t : state.activeTracks()) {
    if (t.has(TargetTrack::kNeutral)) continue;  // seen, remembered, never attended to
    if (t.state == TrackState::kVisible) {
      consider(AttentionClass::kVisible, t.target, t.position, t.threat, t.distance_m);
    } else if (t.state == TrackState::kMemory) {
      consider(AttentionClass::kRemembered, t.target, t.position, t.threat, t.distance_m);
    }
  }
  if (best.cls == AttentionClass::kNone) {
    for (const SoundTarget& s : state.activeSounds()) {
      // Sounds tie-break on recency (a later sound is "nearer" in time), then source id.
      consider(AttentionClass::kHeard, s.source, s.position, s.threat,
               static_cast<float>(-s.heard_s));
    }
  }
  return best;
}

}  // namespace npc
