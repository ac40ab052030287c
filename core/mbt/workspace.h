// MbtWorkspace: what one thread needs of its own to tick behavior trees — the allocator
// node runtime data and log histories come from, a scratch string for run-time messages
// and the last Lua error it met. The library keeps one per worker of the tick's pool
// (MbtLibrary::workspace); workspace 0 is the tick thread's.
//
// A block may be freed into another workspace's allocator than the one it came from (an
// agent whose tree entered a node on one worker can leave it on another, or at a reload on
// the tick thread): blocks are plain memory of pages the library keeps for its whole life,
// so the free list that takes it back owns it from then on. Per-workspace counters can
// therefore run below zero; only their sum over every workspace means something
// (MbtLibrary::stats).
#pragma once

#include <string>

#include "mbt/bucket_allocator.h"

namespace npc {

struct MbtWorkspace {
  BucketAllocator allocator;
  std::string scratch;    // keeps its capacity
  std::string lua_error;  // why the last Lua call this thread made failed
};

}  // namespace npc
