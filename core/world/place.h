// Places: named regions of the world (a square, a bakery). The unit of hibernation.
#pragma once

#include <string>

#include "world/vec3.h"

namespace npc {

struct Place {
  std::string name;
  Aabb bounds;
};

}  // namespace npc
