#include "goap/smart_objects.h"

#include "goap/domain.h"
#include "world/world.h"

namespace npc::goap {

void SmartObjectSpecies::sync(const NameTable<SpeciesId>& species) {
  const std::span<const std::string> names = species.names();
  for (size_t i = types_.size(); i < names.size(); ++i)
    types_.push_back(domain_->findSmartObjectType(names[i]));
}

uint32_t gatherSmartObjects(const World& world, const SmartObjectSpecies& species, Vec3 center,
                            float radius_m, std::span<SmartObjectCandidate> out,
                            bool* truncated) {
  if (truncated) *truncated = false;
  uint32_t count = 0;
  const auto rows = world.entities().rows();
  auto before = [&](float d2, EntityId id, const SmartObjectCandidate& c) {
    const float cd2 = distanceSq(c.position, center);
    return d2 < cd2 || (d2 == cd2 && raw(id) < raw(c.entity));
  };
  world.forEachInRadius(center, radius_m, [&](uint32_t row) {
    const Entity& e = rows[row];
    if (e.kind != EntityKind::kObject || !e.active) return;
    const SmartObjectTypeId type = species.typeOf(e.species);
    if (type == SmartObjectTypeId::kNone) return;
    const float d2 = distanceSq(e.position, center);
    // Bounded insertion sort: keep the nearest out.size() candidates.
    uint32_t at = count;
    while (at > 0 && before(d2, e.id, out[at - 1])) --at;
    if (at >= out.size()) {
      if (truncated) *truncated = true;
      return;
    }
    if (count == out.size()) {
      if (truncated) *truncated = true;
    } else {
      ++count;
    }
    for (uint32_t k = count - 1; k > at; --k) out[k] = out[k - 1];
    out[at] = {e.id, type, e.position};
  });
  return count;
}

}  // namespace npc::goap
