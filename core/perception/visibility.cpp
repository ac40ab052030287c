#include "perception/visibility.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "world/world.h"

namespace npc {

void VisibilityRegistry::registerType(SpeciesId type, VisibilityType settings) {
  const uint16_t i = raw(type);
  if (i >= types_.size()) types_.resize(static_cast<size_t>(i) + 1);
  types_[i] = settings;
}

bool VisibilityRegistry::unregisterType(SpeciesId type) {
  const uint16_t i = raw(type);
  if (i >= types_.size() || !types_[i]) return false;
  types_[i].reset();
  return true;
}

const VisibilityType* VisibilityRegistry::find(SpeciesId type) const {
  const uint16_t i = raw(type);
  if (i >= types_.size() || !types_[i]) return nullptr;
  return &*types_[i];
}

Status VisibilityRegistry::setPrincipal(const World& world, EntityId attribute,
                                        EntityId principal) {
  auto label = [](EntityId id) { return "entity " + std::to_string(raw(id)); };
  auto it = std::lower_bound(principals_.begin(), principals_.end(), attribute,
                             [](const auto& p, EntityId id) { return raw(p.first) < raw(id); });
  const bool present = it != principals_.end() && it->first == attribute;
  if (principal == EntityId::kNone) {
    if (present) principals_.erase(it);
    return {};
  }
  const Entity* a = world.entities().get(attribute);
  const Entity* p = world.entities().get(principal);
  if (!a) return {StatusCode::kNotFound, "attribute " + label(attribute) + ": unknown"};
  if (!p) return {StatusCode::kNotFound, "principal " + label(principal) + ": unknown"};
  if (a->kind != EntityKind::kAttribute) {
    return {StatusCode::kInvalidArgument, label(attribute) + ": is not an attribute"};
  }
  if (attribute == principal || p->kind == EntityKind::kAttribute) {
    return {StatusCode::kInvalidArgument,
            label(attribute) + ": the principal " + label(principal) +
                " must not be an attribute"};
  }
  if (present) {
    it->second = principal;
  } else {
    principals_.insert(it, {attribute, principal});
  }
  return {};
}

EntityId VisibilityRegistry::principalOf(EntityId attribute) const {
  auto it = std::lower_bound(principals_.begin(), principals_.end(), attribute,
                             [](const auto& p, EntityId id) { return raw(p.first) < raw(id); });
  return it != principals_.end() && it->first == attribute ? it->second : EntityId::kNone;
}

void VisibilityRegistry::restorePrincipals(std::vector<std::pair<EntityId, EntityId>> links) {
  std::sort(links.begin(), links.end(),
            [](const auto& a, const auto& b) { return raw(a.first) < raw(b.first); });
  principals_ = std::move(links);
}

void VisibilityRegistry::forgetEntity(EntityId entity) {
  std::erase_if(principals_,
                [&](const auto& p) { return p.first == entity || p.second == entity; });
}

float cosHalfFov(float fov_deg) {
  if (!(fov_deg < 360.f)) return -1.f;
  const float half = std::max(fov_deg, 0.f) * 0.5f * std::numbers::pi_v<float> / 180.f;
  return std::cos(half);
}

bool insideFov(Vec3 forward, Vec3 to_target, float cos_half_fov) {
  if (cos_half_fov <= -1.f) return true;
  const float len2 = lengthSq(to_target);
  if (len2 <= 1e-12f) return true;
  // dot / (|f||t|) >= cos, without dividing; a tiny slack keeps the exact edge inside despite
  // rounding (a target at exactly 90° of a 180° cone).
  const float scale = std::sqrt(lengthSq(forward) * len2);
  return dot(forward, to_target) >= cos_half_fov * scale - 1e-6f * scale;
}

float coefficientIncrement(const PerceptionConfig& c, float distance_m, float sight_range_m,
                           float multiplier, float target_eye_height_m, bool target_moving) {
  const float closeness = sight_range_m > 0.f
                              ? std::clamp(1.f - distance_m / sight_range_m, 0.f, 1.f)
                              : 0.f;
  float inc = (closeness * closeness + 0.1f) * c.som_speed * multiplier;
  if (target_eye_height_m < c.low_eye_height_m) inc *= c.low_factor;
  if (!target_moving) inc *= c.still_factor;
  if (distance_m < c.near_range_m) inc += c.near_boost;
  return inc;
}

bool isMoving(const PerceptionConfig& c, const Entity& target) {
  return lengthSq(target.velocity) >= c.still_speed_mps * c.still_speed_mps &&
         lengthSq(target.velocity) > 0.f;
}

float memoryDuration(const MemoryConfig& m, float threat, double visible_s) {
  const double s = (m.base_s + m.per_visible_s * std::max(0.0, visible_s)) * threat;
  return static_cast<float>(std::clamp<double>(s, m.min_s, m.max_s));
}

}  // namespace npc
