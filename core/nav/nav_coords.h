// npcd's world is Z up (core/world); Recast and Detour are Y up, and so are navmesh files and
// OBJ level geometry (the convention of the Recast toolchain and of Unity/Godot exports).
// The mapping is a rotation, not a mirror, so triangle winding (and with it Recast's
// walkable-slope test) survives it:
//   world (x, y, z)  ->  Recast (x, z, -y)        Recast (x, y, z)  ->  world (x, -z, y)
#pragma once

#include "world/vec3.h"

namespace npc::nav {

inline void toRecast(Vec3 world, float* out) {
  out[0] = world.x;
  out[1] = world.z;
  out[2] = -world.y;
}

inline Vec3 fromRecast(const float* v) { return {v[0], -v[2], v[1]}; }

// A world box as Recast min/max corners (the rotation swaps which corner is least on z).
inline void boxToRecast(const Aabb& box, float* bmin, float* bmax) {
  bmin[0] = box.min.x;
  bmin[1] = box.min.z;
  bmin[2] = -box.max.y;
  bmax[0] = box.max.x;
  bmax[1] = box.max.z;
  bmax[2] = -box.min.y;
}

}  // namespace npc::nav
