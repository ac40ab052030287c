// NavObstacleChange: an obstacle's box as a navmesh with a tile cache shows it (held), or a
// change of it waiting to be applied: the box it will have, or its removal
// (NavTileCache). Snapshots carry both lists, so a restored mesh is the captured one.
#pragma once

#include "world/ids.h"
#include "world/vec3.h"

namespace npc::nav {

struct NavObstacleChange {
  ObstacleId id{};
  bool remove = false;
  Aabb box{};  // world coordinates; unused by a removal
};

}  // namespace npc::nav
