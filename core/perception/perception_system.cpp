#include "perception/perception_system.h"

#include <algorithm>
#include <cmath>

#include "base/prefetch.h"
#include "base/worker_pool.h"
#include "perception/full_update_schedule.h"
#include "world/name_table.h"
#include "world/world.h"

namespace npc {

namespace {

constexpr uint32_t kNoPerceiver = 0xffffffffu;

Vec3 eyeOf(const Entity& e) { return e.position + Vec3{0.f, 0.f, e.eye_height_m}; }

}  // namespace

void PerceptionStats::add(const PerceptionStats& o) {
  full_updates += o.full_updates;
  deferred_updates += o.deferred_updates;
  candidates += o.candidates;
  candidates_truncated += o.candidates_truncated;
  rays += o.rays;
  rays_hard += o.rays_hard;
  rays_soft += o.rays_soft;
  tracks_dropped += o.tracks_dropped;
  sounds_delivered += o.sounds_delivered;
  sounds_heard += o.sounds_heard;
  sounds_refused += o.sounds_refused;
  sound_targets_dropped += o.sound_targets_dropped;
  signal_requests_refused += o.signal_requests_refused;
  signals_sent += o.signals_sent;
  obstacle_rebuilds += o.obstacle_rebuilds;
}

PerceptionSystem::PerceptionSystem(PerceptionConfig config, NameTable<SpeciesId>& species)
    : config_(std::move(config)),
      obstacles_(config_.obstacle_cell_m),
      target_grid_(config_.target_cell_m) {
  for (const VisibilityTypeConfig& t : config_.visibility_types) {
    const SpeciesId type = species.intern(t.name);
    if (type != SpeciesId::kNone) {
      visibility_.registerType(type, {t.multiplier, t.use_coefficient, t.neutral});
    }
  }
  pending_sounds_.reserve(config_.max_pending_sounds);
  pending_signals_.reserve(config_.max_pending_signals);
  lanes_.push_back(std::make_unique<Lane>());
  lanes_[0]->candidates.resize(std::max<uint32_t>(config_.max_candidates, 1));
}

bool PerceptionSystem::addSound(const Sound& sound) {
  if (!isFinite(sound.position) || !(sound.radius_m > 0.f) || !std::isfinite(sound.radius_m)) {
    return false;
  }
  if (pending_sounds_.size() >= config_.max_pending_sounds) {
    ++totals_.sounds_refused;
    return false;
  }
  pending_sounds_.push_back(sound);
  return true;
}

bool PerceptionSystem::addFootstep(const Entity& mover, float noise_suppression) {
  auto sound = footstepFromMovement(config_.footsteps, mover, noise_suppression);
  return sound && addSound(*sound);
}

bool PerceptionSystem::postSignal(const SignalRequest& request) {
  if (request.id == SignalId::kNone) return false;
  if (pending_signals_.size() >= config_.max_pending_signals) {
    ++totals_.signal_requests_refused;
    return false;
  }
  pending_signals_.push_back(request);
  return true;
}

void PerceptionSystem::emit(Lane& lane, SignalId id, EntityId receiver, EntityId subject,
                            Vec3 position, float value) {
  if (lane.out->push({receiver, EntityId::kNone, subject, position, value, id})) {
    ++lane.stats.signals_sent;
  }
}

// --- the phase ---------------------------------------------------------------------------

void PerceptionSystem::update(const World& world, std::span<const Perceiver> perceivers,
                              uint64_t tick, double now_s, SignalQueue& out, WorkerPool* pool) {
  last_ = {};
  for (auto& lane : lanes_) lane->stats = {};
  lanes_[0]->out = &out;
  const EntityTable& entities = world.entities();

  if (obstacles_dirty_ || world.obstacles().size() != indexed_obstacles_) {
    obstacles_.rebuild(world.obstacles());
    indexed_obstacles_ = world.obstacles().size();
    obstacles_dirty_ = false;
    ++last_.obstacle_rebuilds;
  }

  // Who is a perceiver, by entity row; which species perceive; how far anyone hears.
  gatherRoster(world, perceivers, tick, pool);
  perceiver_of_row_.assign(entities.size(), kNoPerceiver);
  by_key_.clear();
  single_species_ = true;
  bool first = true;
  max_hearing_scale_ = 0.f;
  for (uint32_t i = 0; i < roster_.size(); ++i) {
    const RosterEntry& r = roster_[i];
    if (r.row == RosterEntry::kAbsent) continue;
    perceiver_of_row_[r.row] = i;
    by_key_.add(i, r.group, r.species, r.place);
    if (first) only_species_ = r.species;
    single_species_ = single_species_ && r.species == only_species_;
    first = false;
    if (r.hears) max_hearing_scale_ = std::max(max_hearing_scale_, r.hearing_scale);
  }

  by_key_.build();
  // Delivery writes the receivers' states and lane 0; the target list reads only the world:
  // with a second worker they run side by side, with the same results either way.
  auto deliver = [&] {
    deliverSignals(world, out);
    deliverSounds(world, perceivers, now_s, *lanes_[0]);
  };
  if (pool && pool->size() > 1) {
    pool->run([&](unsigned w) {
      if (w == 0) deliver();
      if (w == 1) rebuildTargets(world);
    });
  } else {
    deliver();
    rebuildTargets(world);
  }
  if (pool && pool->size() > 1) {
    fullUpdatesOnPool(world, perceivers, tick, now_s, *pool, out);
  } else {
    fullUpdatesInline(world, perceivers, tick, now_s);
  }
  for (auto& lane : lanes_) last_.add(lane->stats);

  stealth_.update(world, perceivers, config_.stealth_report_step, pool);
  totals_.add(last_);
}

void PerceptionSystem::gatherRoster(const World& world, std::span<const Perceiver> perceivers,
                                    uint64_t tick, WorkerPool* pool) {
  const EntityTable& entities = world.entities();
  const uint64_t period = std::max<uint32_t>(config_.full_update_period_ticks, 1);
  roster_.resize(perceivers.size());
  forEachSlice(pool, perceivers.size(), [&](size_t begin, size_t end, unsigned) {
    for (size_t i = begin; i < end; ++i) {
      prefetchAhead(perceivers, i, [](const Perceiver& p) { return p.state; });
      prefetchAhead(perceivers, i, [](const Perceiver& p) { return p.state ? &p.state->group : nullptr; });
      RosterEntry& r = roster_[i];
      r = {};
      PerceptionState* st = perceivers[i].state;
      const Entity* e = entities.get(perceivers[i].entity);
      if (!e || !st) continue;
      r.id = e->id;
      r.row = entities.rowOf(perceivers[i].entity);
      r.takes_signals = st->sensors.signals;
      r.group = st->group;
      r.species = e->species;
      r.place = e->place;
      r.hears = st->sensors.hearing;
      r.hearing_scale = st->sensors.hearing_scale;
      if (st->next_full_update_tick == PerceptionState::kUnscheduled) {
        st->next_full_update_tick = firstTickAtOrAfter(tick, fullUpdatePhase(e->id, period), period);
      }
      r.due = st->next_full_update_tick <= tick && perceivers[i].full_updates;
    }
  });
}

// --- potential targets -------------------------------------------------------------------

std::optional<PerceptionSystem::TargetItem> PerceptionSystem::classify(const World& world,
                                                                      const Entity& e,
                                                                      uint32_t row) const {
  const VisibilityType* type = visibility_.find(e.species);
  const float mult = type ? type->multiplier : 1.f;
  switch (e.kind) {
    case EntityKind::kPlayer:
      return TargetItem{row, row, mult, mult, e.species, true, true, false, false};
    case EntityKind::kNpc: {
      // When every perceiver shares one species, NPCs of it can be nobody's target.
      if (single_species_ && e.species == only_species_) return std::nullopt;
      const bool coef = type && type->use_coefficient;
      return TargetItem{row, row, mult, mult, e.species, false, coef, !coef, type && type->neutral};
    }
    case EntityKind::kObject:
      if (!type) return std::nullopt;
      return TargetItem{row, row, mult, mult, e.species, false, type->use_coefficient,
                        !type->use_coefficient, type->neutral};
    case EntityKind::kAttribute: {
      if (!type) return std::nullopt;  // seed: attributes need an assessment multiplier
      const EntityHandle h = world.entities().find(visibility_.principalOf(e.id));
      const Entity* p = world.entities().get(h);
      if (!p || !p->active || p->kind == EntityKind::kAttribute) return std::nullopt;
      auto principal = classify(world, *p, world.entities().rowOf(h));
      if (!principal) return std::nullopt;
      TargetItem item = *principal;
      item.row = row;
      item.multiplier = mult;
      item.instant = !(type->use_coefficient && principal->track_uses_coefficient);
      return item;
    }
  }
  return std::nullopt;
}

void PerceptionSystem::rebuildTargets(const World& world) {
  targets_.clear();
  target_eyes_.clear();
  target_grid_.clear();
  auto rows = world.entities().rows();
  for (uint32_t row = 0; row < rows.size(); ++row) {
    const Entity& e = rows[row];
    if (!e.active || !isFinite(e.position)) continue;
    if (auto item = classify(world, e, row)) {
      // The same-species rule, as the grid applies it: players are seen by everyone.
      const std::optional<SpeciesId> hidden_from =
          item->principal_is_player ? std::nullopt : std::optional(item->principal_species);
      target_grid_.add(static_cast<uint32_t>(targets_.size()), eyeOf(e), hidden_from);
      targets_.push_back(*item);
      target_eyes_.push_back(eyeOf(e));
    }
  }
  target_grid_.build();
}

// --- full update ---------------------------------------------------------------------------

void PerceptionSystem::fullUpdate(const World& world, const Entity& self, uint32_t self_row,
                                  PerceptionState& st, double now_s, Lane& lane,
                                  const ListedSight* listed) {
  ++lane.stats.full_updates;
  ++st.full_updates;
  const uint32_t dropped_before = st.tracks_dropped;
  for (Evidence& ev : lane.evidence) ev = {};
  if (st.sensors.vision && self.active) gatherSight(world, self, self_row, st, now_s, lane, listed);
  advanceTracks(world, self, st, now_s, lane);
  expireSoundTargets(st, now_s);
  updateAttention(self, st, lane);
  st.last_full_update_s = now_s;
  lane.stats.tracks_dropped += st.tracks_dropped - dropped_before;
}

template <class Visit>
uint32_t PerceptionSystem::forEachSightLine(const Entity& self, uint32_t self_row,
                                            const PerceptionState& st, Lane& lane,
                                            bool* truncated, Visit&& visit) const {
  const Vec3 eye = eyeOf(self);
  const float cos_half = cosHalfFov(st.sensors.fov_deg);
  const uint32_t n = target_grid_.query(eye, st.sensors.sight_range_m, self.species,
                                        lane.candidates, truncated);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t target = lane.candidates[k];
    const TargetItem& item = targets_[target];
    if (item.row == self_row || item.principal_row == self_row) continue;
    if (!item.principal_is_player && item.principal_species == self.species) continue;
    if (!insideFov(self.forward, target_eyes_[target] - eye, cos_half)) continue;
    visit(target);
  }
  return n;
}

PerceptionSystem::ListedSight PerceptionSystem::listSightLines(const Entity& self,
                                                               uint32_t self_row,
                                                               const PerceptionState& st,
                                                               Lane& lane,
                                                               uint32_t lane_index) const {
  ListedSight listed;
  listed.lane = lane_index;
  listed.begin = static_cast<uint32_t>(lane.sight_lines.size());
  if (!st.sensors.vision || !self.active) return listed;
  listed.candidates = forEachSightLine(self, self_row, st, lane, &listed.truncated,
                                       [&](uint32_t target) { lane.sight_lines.push_back(target); });
  listed.rays = static_cast<uint32_t>(lane.sight_lines.size()) - listed.begin;
  return listed;
}

void PerceptionSystem::gatherSight(const World& world, const Entity& self, uint32_t self_row,
                                   PerceptionState& st, double now_s, Lane& lane,
                                   const ListedSight* listed) {
  const EntityTable& entities = world.entities();
  auto rows = entities.rows();
  const float range = st.sensors.sight_range_m;
  const Vec3 eye = eyeOf(self);
  auto see = [&](uint32_t target) {
    const TargetItem& item = targets_[target];
    const Vec3 target_eye = target_eyes_[target];
    const Vec3 to = target_eye - eye;
    ++lane.stats.rays;
    const SightLine sight = obstacles_.lineOfSight(eye, target_eye, lane.stamps);
    const Entity& principal = rows[item.principal_row];
    int ti = findTrack(st, principal.id);
    if (sight.block == SightBlock::kHardCover) {
      ++lane.stats.rays_hard;
      return;
    }
    if (sight.block == SightBlock::kSoftCover) {
      ++lane.stats.rays_soft;
      // Soft cover blocks like hard cover, except for a target that is already visible.
      if (ti < 0 || st.tracks[ti].state != TrackState::kVisible) return;
    }
    if (ti < 0) {
      TargetTrack track;
      track.target = principal.id;
      track.handle = entities.handleAt(item.principal_row);
      track.position = principal.position;
      track.threat = item.threat;
      track.last_seen_s = now_s;
      track.flags = (item.track_uses_coefficient ? TargetTrack::kUsesCoefficient : 0) |
                    (item.principal_is_player ? TargetTrack::kPlayer : 0) |
                    (item.neutral ? TargetTrack::kNeutral : 0);
      ti = addTrack(st, track, item.instant && sight.block == SightBlock::kClear);
      if (ti < 0) return;
      lane.evidence[ti] = {};
    }
    Evidence& ev = lane.evidence[ti];
    const float d = std::sqrt(lengthSq(to));
    ev.distance_m = ev.best == SightBlock::kHardCover ? d : std::min(ev.distance_m, d);
    ev.best = std::min(ev.best, sight.block);
    if (item.instant) {
      ev.instant = true;
    } else {
      const Entity& seen = rows[item.row];
      ev.increment = std::max(ev.increment,
                              coefficientIncrement(config_, d, range, item.multiplier,
                                                   seen.eye_height_m, isMoving(config_, seen)));
    }
  };
  bool truncated = false;
  uint32_t n = 0;
  if (listed) {
    const std::vector<uint32_t>& lines = lanes_[listed->lane]->sight_lines;
    for (uint32_t i = 0; i < listed->rays; ++i) see(lines[listed->begin + i]);
    n = listed->candidates;
    truncated = listed->truncated;
  } else {
    n = forEachSightLine(self, self_row, st, lane, &truncated, see);
  }
  lane.stats.candidates += n;
  if (truncated) {
    ++st.candidates_truncated;
    ++lane.stats.candidates_truncated;
  }
}

void PerceptionSystem::advanceTracks(const World& world, const Entity& self,
                                     PerceptionState& st, double now_s, Lane& lane) {
  const EntityTable& entities = world.entities();
  auto toVisible = [&](TargetTrack& t) {
    t.state = TrackState::kVisible;
    t.coefficient = kMaxCoefficient;
    t.visible_since_s = now_s;
    t.timer_s = -1.0;
    emit(lane, t.has(TargetTrack::kNeutral) ? SignalId::kOnObjectSeen : SignalId::kOnEnemySeen,
         self.id, t.target, t.position, t.threat);
  };
  auto toMemory = [&](TargetTrack& t) {
    t.state = TrackState::kMemory;
    t.timer_s = now_s + memoryDuration(config_.memory, t.threat, now_s - t.visible_since_s);
    if (t.has(TargetTrack::kNeutral)) return;  // nobody's enemy: nothing to lose sight of
    emit(lane, SignalId::kOnLostSightOfTarget, self.id, t.target, t.position, t.threat);
  };

  for (int i = 0; i < st.track_count;) {
    TargetTrack& t = st.tracks[i];
    const Evidence ev = lane.evidence[i];
    const Entity* target = entities.get(t.handle);
    bool drop = !target || target->id != t.target;  // despawned: forgotten without a signal
    if (!drop && ev.best != SightBlock::kHardCover) {
      t.position = target->position;
      t.distance_m = ev.distance_m;
      t.last_seen_s = now_s;
      switch (t.state) {
        case TrackState::kVisible:
          if (ev.best == SightBlock::kClear) {
            t.timer_s = -1.0;  // out of soft cover: the timer starts afresh next time
          } else {
            if (t.timer_s < 0.0) t.timer_s = now_s;
            if (now_s - t.timer_s >= st.soft_cover_persist_s) toMemory(t);
          }
          break;
        case TrackState::kMemory:
          toVisible(t);
          break;
        case TrackState::kPotential: {
          if (ev.instant || !t.has(TargetTrack::kUsesCoefficient)) {
            toVisible(t);
            break;
          }
          t.coefficient = std::min(kMaxCoefficient,
                                   t.coefficient + ev.increment - config_.decay_per_update);
          if (t.coefficient >= kMaxCoefficient) {
            toVisible(t);
          } else if (t.coefficient <= 0.f) {
            drop = true;
          } else if (!t.has(TargetTrack::kSuspicious) && !t.has(TargetTrack::kNeutral) &&
                     t.coefficient > config_.suspicious_threshold) {
            t.flags |= TargetTrack::kSuspicious;
            emit(lane, SignalId::kOnSuspicious, self.id, t.target, t.position, t.coefficient);
          }
          break;
        }
      }
    } else if (!drop) {
      switch (t.state) {
        case TrackState::kVisible:
          toMemory(t);
          break;
        case TrackState::kPotential:
          t.coefficient -= config_.decay_per_update;
          drop = t.coefficient <= 0.f;
          break;
        case TrackState::kMemory:
          t.coefficient = std::max(0.f, t.coefficient - config_.decay_per_update);
          if (now_s >= t.timer_s) {
            if (!t.has(TargetTrack::kNeutral)) {
              emit(lane, SignalId::kOnTargetForgotten, self.id, t.target, t.position, t.threat);
            }
            drop = true;
          }
          break;
      }
    }
    if (drop) {
      lane.evidence[i] = lane.evidence[st.track_count - 1];
      removeTrack(st, i);
    } else {
      ++i;
    }
  }
}

void PerceptionSystem::updateAttention(const Entity& self, PerceptionState& st, Lane& lane) {
  const AttentionTarget next = pickAttention(st);
  const AttentionTarget prev = st.attention;
  st.attention = next;
  if (next.cls == prev.cls && next.target == prev.target) return;
  if (next.cls == AttentionClass::kNone) {
    emit(lane, SignalId::kOnNoTarget, self.id, prev.target, prev.position, 0.f);
  } else {
    emit(lane, SignalId::kOnNewAttentionTarget, self.id, next.target, next.position,
         static_cast<float>(next.cls));
  }
}

}  // namespace npc
