#include "world/obstacle.h"

#include <algorithm>
#include <cmath>

namespace npc {

std::string_view toString(Cover cover) { return cover == Cover::kHard ? "hard" : "soft"; }

std::optional<Cover> parseCover(std::string_view text) {
  if (text == "hard") return Cover::kHard;
  if (text == "soft") return Cover::kSoft;
  return std::nullopt;
}

std::optional<float> segmentEntersBox(Vec3 from, Vec3 to, const Aabb& box) {
  const float start[3] = {from.x, from.y, from.z};
  const float delta[3] = {to.x - from.x, to.y - from.y, to.z - from.z};
  const float lo[3] = {box.min.x, box.min.y, box.min.z};
  const float hi[3] = {box.max.x, box.max.y, box.max.z};
  float t_enter = 0.f, t_exit = 1.f;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::fabs(delta[axis]) < 1e-9f) {
      if (start[axis] < lo[axis] || start[axis] > hi[axis]) return std::nullopt;
      continue;
    }
    const float inv = 1.f / delta[axis];
    float t0 = (lo[axis] - start[axis]) * inv;
    float t1 = (hi[axis] - start[axis]) * inv;
    if (t0 > t1) std::swap(t0, t1);
    t_enter = std::max(t_enter, t0);
    t_exit = std::min(t_exit, t1);
    if (t_enter > t_exit) return std::nullopt;
  }
  return t_enter;
}

}  // namespace npc
