// Static obstacles: boxes that block sight. Hard cover stops everything; soft cover
// (bushes, curtains) blocks sight but not bullets, and perception treats it specially.
#pragma once

#include <optional>
#include <string_view>

#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

enum class Cover : uint8_t { kHard, kSoft };

std::string_view toString(Cover cover);
std::optional<Cover> parseCover(std::string_view text);

struct Obstacle {
  ObstacleId id = ObstacleId::kNone;
  Aabb box;
  Cover cover = Cover::kHard;
};

// First obstacle crossed by a segment.
struct RayHit {
  ObstacleId obstacle = ObstacleId::kNone;
  Cover cover = Cover::kHard;
  float fraction = 1.f;  // 0 at the segment's start, 1 at its end
};

// Slab test: the entry fraction in [0, 1] of segment from->to into `box`, or nullopt.
// A segment starting inside the box hits it at 0.
std::optional<float> segmentEntersBox(Vec3 from, Vec3 to, const Aabb& box);

}  // namespace npc
