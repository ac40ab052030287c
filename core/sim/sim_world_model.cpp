// Simulation: changes the world model makes by itself. Drop puts the dropped items down as
// objects at the agent's feet (the game, told by the Completed event, may move them);
// attribute entities (footprints, blood) given a lifetime vanish when it ends (seed 000),
// as if the game had removed them.
#include <algorithm>
#include <functional>

#include "sim/simulation.h"

namespace npc {

namespace {

// Ids of the objects the daemon creates, far above any id a game hands out.
constexpr uint64_t kDroppedObjectIdBase = uint64_t{1} << 62;

}  // namespace

EntityId Simulation::placeDroppedObject(ItemId item, Vec3 position) {
  EntityState s;
  s.kind = EntityKind::kObject;
  s.species = long_actions_.items().name(item);
  s.position = position;
  do {
    s.id = EntityId{kDroppedObjectIdBase + next_dropped_object_++};
  } while (world_.entities().get(s.id));
  if (!upsertEntity(s, ClientId::kDaemon, true).isOk()) return EntityId::kNone;
  return s.id;
}

void Simulation::noteLifetime(const Entity& entity) {
  if (entity.expires_s == std::numeric_limits<double>::infinity()) return;
  lifetimes_.emplace_back(entity.expires_s, entity.id);
  std::push_heap(lifetimes_.begin(), lifetimes_.end(), std::greater<>());
}

void Simulation::expireEntities() {
  const double now = timeS();
  while (!lifetimes_.empty() && lifetimes_.front().first <= now) {
    std::pop_heap(lifetimes_.begin(), lifetimes_.end(), std::greater<>());
    const auto [expires_s, id] = lifetimes_.back();
    lifetimes_.pop_back();
    // A later update may have given it a new lifetime (or none): only its own date counts.
    const Entity* e = world_.entities().get(id);
    if (e && e->expires_s == expires_s) removeEntity(id, false);
  }
}

}  // namespace npc
