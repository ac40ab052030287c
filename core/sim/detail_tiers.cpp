#include "sim/detail_tiers.h"

#include "base/prefetch.h"
#include "world/world.h"

namespace npc {

namespace {

// A well-mixed hash of the id: neighbours with consecutive ids take different turns.
uint64_t turnOf(EntityId id, uint64_t period) {
  uint64_t z = raw(id) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
  return (z ^ (z >> 32)) % period;
}

}  // namespace

void DetailTiers::update(const World& world, std::span<const Agent> agents, uint64_t tick,
                         const DetailConfig& config) {
  enabled_ = config.enabled;
  reduced_ = 0;
  if (!enabled_) return;
  const EntityTable& entities = world.entities();
  near_.assign(entities.size(), 0);
  // Players are few and agents many: each player marks the rows around it.
  for (const Entity& e : entities.rows()) {
    if (e.kind != EntityKind::kPlayer || !e.active) continue;
    world.forEachInRadius(e.position, config.near_m, [&](uint32_t row) {
      if (row < near_.size()) near_[row] = 1;
    });
  }
  const uint64_t period = config.far_period_ticks == 0 ? 1 : config.far_period_ticks;
  runs_.resize(agents.size());
  for (size_t i = 0; i < agents.size(); ++i) {
    prefetchAhead(agents, i, [](const Agent& a) { return &a.entity; });
    const EntityHandle body = agents[i].entity;
    const bool near = entities.get(body) && near_[entities.rowOf(body)] != 0;
    if (near) {
      runs_[i] = 1;
      continue;
    }
    ++reduced_;
    runs_[i] = turnOf(agents[i].id, period) == tick % period ? 1 : 0;
  }
}

}  // namespace npc
