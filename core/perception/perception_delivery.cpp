// PerceptionSystem: delivery of queued signals and sounds (steps 2 and 3 of update()).
// Kept apart from perception_system.cpp, which holds vision and the track rules.
#include <algorithm>
#include <cmath>

#include "perception/perception_system.h"
#include "world/world.h"

namespace npc {

namespace {
constexpr uint32_t kNoPerceiver = 0xffffffffu;
}  // namespace

// Rows from the world's neighbour grid are as of its last refresh; the bounds checks below
// only matter if an entity was removed after World::refreshSpatialIndex() this tick.

void PerceptionSystem::deliverSignals(const World& world, SignalQueue& out) {
  const EntityTable& entities = world.entities();
  for (const SignalRequest& req : pending_signals_) {
    // Receivers in ascending perceiver index, whatever the scope.
    std::span<const uint32_t> receivers;
    switch (req.scope) {
      case SignalScope::kAgent: {
        receivers_.clear();
        const EntityHandle h = entities.find(req.target);
        if (entities.get(h) && perceiver_of_row_[entities.rowOf(h)] != kNoPerceiver) {
          receivers_.push_back(perceiver_of_row_[entities.rowOf(h)]);
        }
        receivers = receivers_;
        break;
      }
      case SignalScope::kGroup: receivers = by_key_.inGroup(req.group); break;
      case SignalScope::kSpecies: receivers = by_key_.ofSpecies(req.species); break;
      case SignalScope::kPlace: receivers = by_key_.inPlace(req.place); break;
      case SignalScope::kRadius:
        // The world's neighbour grid, then only the rows that are perceivers.
        receivers_.clear();
        world.forEachInRadius(req.position, req.radius_m, [&](uint32_t row) {
          if (row < perceiver_of_row_.size() && perceiver_of_row_[row] != kNoPerceiver) {
            receivers_.push_back(perceiver_of_row_[row]);
          }
        });
        std::sort(receivers_.begin(), receivers_.end());
        receivers = receivers_;
        break;
    }
    for (uint32_t i : receivers) {
      const RosterEntry& r = roster_[i];
      if (r.row == RosterEntry::kAbsent || !r.takes_signals) continue;
      if (r.id == req.sender && !req.include_sender) continue;
      if (out.push({r.id, req.sender, req.subject, req.position, req.value, req.id, req.action})) {
        ++last_.signals_sent;
      }
    }
  }
  pending_signals_.clear();
}

void PerceptionSystem::deliverSounds(const World& world, std::span<const Perceiver> perceivers,
                                     double now_s, Lane& lane) {
  const EntityTable& entities = world.entities();
  const std::span<const Entity> rows = entities.rows();
  for (const Sound& sound : pending_sounds_) {
    ++last_.sounds_delivered;
    const SoundKindConfig& kind = config_.sounds[static_cast<size_t>(sound.kind)];
    const float threat = sound.threat >= 0.f ? std::min(sound.threat, 1.f) : kind.threat;
    const float reach = sound.radius_m * max_hearing_scale_;
    if (!(reach > 0.f)) continue;
    // Friendly noise: a non-threatening sound made by an NPC is ignored by its own species.
    const Entity* source = entities.get(sound.source);
    const bool friendly_filter = !config_.hear_friendly_movement && source &&
                                 source->kind == EntityKind::kNpc &&
                                 threat < config_.threatening_threshold;
    receivers_.clear();
    world.forEachInRadius(sound.position, reach, [&](uint32_t row) {
      if (row < perceiver_of_row_.size() && perceiver_of_row_[row] != kNoPerceiver) {
        receivers_.push_back(perceiver_of_row_[row]);
      }
    });
    std::sort(receivers_.begin(), receivers_.end());
    for (uint32_t i : receivers_) {
      const RosterEntry& r = roster_[i];
      if (r.row == RosterEntry::kAbsent || !r.hears || r.id == sound.source) continue;
      if (friendly_filter && source->species == r.species) continue;
      const Entity& self = rows[r.row];
      if (!self.active) continue;
      const float d = std::sqrt(distanceSq(self.position, sound.position));
      if (d > sound.radius_m * r.hearing_scale) continue;
      ++last_.sounds_heard;
      hear(self, *perceivers[i].state, sound, threat, d, now_s, lane);
    }
  }
  pending_sounds_.clear();
}

void PerceptionSystem::hear(const Entity& self, PerceptionState& st, const Sound& sound,
                            float threat, float distance_m, double now_s, Lane& lane) {
  if (sound.kind == SoundKind::kBulletImpact && distance_m <= config_.bullet_rain_radius_m &&
      now_s - st.last_bullet_rain_s >= config_.bullet_rain_cooldown_s) {
    st.last_bullet_rain_s = now_s;
    emit(lane, SignalId::kOnBulletRain, self.id, sound.source, sound.position, threat);
  }
  const double expires =
      now_s + config_.sounds[static_cast<size_t>(sound.kind)].lifetime_s;
  const float threatening = config_.threatening_threshold;
  expireSoundTargets(st, now_s);
  int i = findSoundTarget(st, sound.source, sound.kind, sound.position,
                          config_.sound_merge_radius_m);
  if (i >= 0) {
    SoundTarget& s = st.sounds[i];
    const bool escalated = s.threat < threatening && threat >= threatening;
    s.position = sound.position;
    s.heard_s = now_s;
    s.expires_s = std::max(s.expires_s, expires);
    if (threat > s.threat) {
      s.threat = threat;
      s.kind = sound.kind;
    }
    if (escalated) {
      emit(lane, SignalId::kOnHearThreateningSound, self.id, sound.source, sound.position, threat);
    }
  } else {
    const uint32_t dropped_before = st.sound_targets_dropped;
    i = addSoundTarget(st, {sound.source, sound.position, threat, now_s, expires, sound.kind});
    last_.sound_targets_dropped += st.sound_targets_dropped - dropped_before;
    if (i < 0) return;
    emit(lane,
         threat >= threatening ? SignalId::kOnHearThreateningSound : SignalId::kOnHearSound,
         self.id, sound.source, sound.position, threat);
  }
  updateAttention(self, st, lane);
}

}  // namespace npc
