#include "perception/stealth_meter.h"

#include <algorithm>
#include <cmath>

#include "base/prefetch.h"
#include "base/worker_pool.h"
#include "world/world.h"

namespace npc {

template <class Sink>
void StealthMeter::gatherOffers(const World& world, std::span<const Perceiver> perceivers,
                                Sink&& sink) {
  const EntityTable& entities = world.entities();
  for (size_t i = 0; i < perceivers.size(); ++i) {
    // Most agents track no player: their track count is all this reads of them, asked for a
    // few agents ahead (base/prefetch.h). The agent's own body (another row, another cache
    // miss) is looked up only for an offer.
    prefetchAhead(perceivers, i, [](const Perceiver& q) {
      return q.state ? static_cast<const void*>(&q.state->track_count) : nullptr;
    });
    const Perceiver& p = perceivers[i];
    if (!p.state) continue;
    const Entity* self = nullptr;
    for (const TargetTrack& t : p.state->activeTracks()) {
      if (!t.has(TargetTrack::kPlayer)) continue;
      const float v = t.state == TrackState::kVisible ? kMaxCoefficient : t.coefficient;
      if (v <= 0.f) continue;
      const Entity* target = entities.get(t.handle);
      if (!target || target->id != t.target) continue;
      if (!self && !(self = entities.get(p.entity))) break;
      sink(Offer{entities.rowOf(t.handle), {v, self->id}});
    }
  }
}

// The highest value wins, and of equal ones the lower agent id: the same cell whatever
// order the offers come in.
void StealthMeter::keep(const Offer& offer) {
  Cell& c = cells_[offer.row];
  const Cell& o = offer.cell;
  if (o.value > c.value || (o.value == c.value && raw(o.agent) < raw(c.agent))) c = o;
}

void StealthMeter::update(const World& world, std::span<const Perceiver> perceivers,
                          float report_step, WorkerPool* pool) {
  const EntityTable& entities = world.entities();
  cells_.assign(entities.size(), Cell{});
  const unsigned workers = workerCount(pool);
  if (workers == 1) {
    gatherOffers(world, perceivers, [this](const Offer& o) { keep(o); });
  } else {
    if (lanes_.size() < workers) lanes_.resize(workers);
    forEachSlice(pool, perceivers.size(), [&](size_t begin, size_t end, unsigned w) {
      lanes_[w].clear();
      gatherOffers(world, perceivers.subspan(begin, end - begin),
                   [&](const Offer& o) { lanes_[w].push_back(o); });
    });
    for (unsigned w = 0; w < workers; ++w) {
      for (const Offer& o : lanes_[w]) keep(o);
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
