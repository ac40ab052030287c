// What a selection tree load needs besides the files: the caller's options and the name
// tables the library keeps for its whole life (so ids survive reloads).
#pragma once

#include <functional>
#include <string_view>

#include "bst/bst_types.h"
#include "world/name_table.h"
#include "world/signal_names.h"

namespace npc {

struct BstLoadOptions {
  // When set, every leaf's behavior (its translation, else its own name) must satisfy it:
  // "a leaf that maps to no known behavior" is then a located error. Unset: any name goes.
  std::function<bool(std::string_view behavior)> is_known_behavior;
};

// Names interned for the library's whole life, so ids stay valid across reloads.
struct BstNames {
  SignalNames* signals = nullptr;  // shared with the rest of the daemon; case-sensitive
                                   // (CryEngine: CRC32 of the name)
  NameTable<SelectionVariableId> variables;  // lower-cased (CryEngine: lower-case hash)
  NameTable<BehaviorId> behaviors;           // as written
};

}  // namespace npc
