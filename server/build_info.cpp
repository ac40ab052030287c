#include "build_info.h"

// Written by server/build_revision.cmake on every build, rewritten only when the values
// change, so a new commit recompiles this file alone.
#include "build_revision.h"

namespace npc {

std::string_view buildVersion() { return NPCD_BUILD_VERSION; }

std::string_view buildRevision() { return NPCD_BUILD_REVISION; }

std::string versionLine() {
  return "npcd " + std::string(buildVersion()) + " (revision " + std::string(buildRevision()) + ")";
}

}  // namespace npc
