// Names for the daemon's own threads ("npcd-tick", "npcd-pool-1", ...), so that `top -H`,
// `perf`, a debugger and /proc/<pid>/task/*/comm tell them apart from gRPC's threads.
#pragma once

#include <string>
#include <string_view>

namespace npc {

// Names the calling thread. Linux keeps at most 15 characters: a longer name is cut there.
void setThreadName(std::string_view name);

// The calling thread's name ("" where it cannot be read).
std::string threadName();

}  // namespace npc
