// What a failed Detour status says, for our error messages ("navmesh: Detour refused a tile
// (wrong version)"). Detour's headers: core/nav's sources only.
#pragma once

#include <DetourStatus.h>

#include <string>

namespace npc::nav {

inline std::string detourStatusText(dtStatus s) {
  if (s & DT_WRONG_MAGIC) return "wrong magic";
  if (s & DT_WRONG_VERSION) return "wrong version";
  if (s & DT_OUT_OF_MEMORY) return "out of memory or slots";
  if (s & DT_ALREADY_OCCUPIED) return "a tile already occupies that position";
  if (s & DT_INVALID_PARAM) return "invalid parameters";
  if (s & DT_BUFFER_TOO_SMALL) return "buffer too small";
  return "failed";
}

}  // namespace npc::nav
