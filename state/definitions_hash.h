// The definitions hash a snapshot carries: a digest of every definition file the daemon
// loaded (archetypes, trees, domains, long actions, influences, the world file), so that a
// snapshot is only restored into the same definitions its indices refer to.
#pragma once

#include <string>
#include <vector>

namespace npc {

// 64-bit FNV-1a, as 16 hex digits, over each path in order: a file's name and contents, a
// directory's regular files (recursively, sorted by relative path). Empty paths are
// skipped; a missing path counts as its name alone (the daemon refuses it elsewhere).
std::string definitionsHash(const std::vector<std::string>& paths);

}  // namespace npc
