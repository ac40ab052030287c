// How diagnostics name a definition file: the definition directory's own name, then the
// path below it ("behavior_trees/sub/Guard.xml" for <config dir>/behavior_trees/sub/Guard.xml),
// so that a designer finds the file whatever directory the daemon was started in. Used by
// every loader that reads a definitions directory (trees, archetypes, GOAP domains).
#pragma once

#include <string>

namespace npc {

// `path` lies under `dir`; a path outside it is returned as given.
std::string definitionFileName(const std::string& dir, const std::string& path);

}  // namespace npc
