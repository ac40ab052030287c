#include "perception/stealth_meter.h"

#include <algorithm>
#include <cmath>

#include "world/world.h"

namespace npc {

void StealthMeter::update(const World& world, std::span<const Perceiver> perceivers,
                          float report_step) {
  const EntityTable& entities = world.entities();
  cells_.assign(entities.size(), Cell{});
  for (const Perceiver& p : perceivers) {
    const Entity* self = entities.get(p.entity);
    if (!self || !p.state) continue;
    for (const TargetTrack& t : p.state->activeTracks()) {
      if (!t.has(TargetTrack::kPlayer)) continue;
      const Entity* target = entities.get(t.handle);
      if (!target || target->id != t.target) continue;
      const float v = t.state == TrackState::kVisible ? kMaxCoefficient : t.coefficient;
      if (v <= 0.f) continue;
      Cell& c = cells_[entities.rowOf(t.handle)];
      if (v > c.value || (v == c.value && raw(self->id) < raw(c.agent))) c = {v, self->id};
    }
  }

  next_.clear();
  auto rows = entities.rows();
  for (uint32_t row = 0; row < rows.size(); ++row) {
    if (rows[row].kind != EntityKind::kPlayer) continue;
    next_.push_back({rows[row].id, cells_[row].agent, cells_[row].value});
  }
  std::sort(next_.begin(), next_.end(),
            [](const auto& a, const auto& b) { return raw(a.player) < raw(b.player); });

  // Merge with the previous readings (both sorted by id) to carry what was last reported.
  changes_.clear();
  next_reported_.resize(next_.size());
  size_t j = 0;
  for (size_t i = 0; i < next_.size(); ++i) {
    const StealthReading& now = next_[i];
    while (j < readings_.size() && raw(readings_[j].player) < raw(now.player)) ++j;
    const float reported =
        j < readings_.size() && readings_[j].player == now.player ? reported_[j] : 0.f;
    const bool changed = now.value != reported &&
                         (std::fabs(now.value - reported) >= report_step || now.value == 0.f ||
                          now.value >= kMaxCoefficient);
    if (changed) changes_.push_back({now.player, now.agent, now.value, reported});
    next_reported_[i] = changed ? now.value : reported;
  }
  readings_.swap(next_);
  reported_.swap(next_reported_);
}

StealthReading StealthMeter::reading(EntityId player) const {
  auto it = std::lower_bound(readings_.begin(), readings_.end(), player,
                             [](const auto& r, EntityId id) { return raw(r.player) < raw(id); });
  if (it == readings_.end() || it->player != player) return {player, EntityId::kNone, 0.f};
  return *it;
}

}  // namespace npc
