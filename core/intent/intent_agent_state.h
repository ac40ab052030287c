// Everything the intention subsystem keeps per agent: which actions it can perform and what
// it intends to do. Embed one in the agent row (like BstAgentState). ≈1.9 KB, no heap,
// trivially copyable (hibernation stores it as bytes).
#pragma once

#include "intent/action_access.h"
#include "intent/intention_queue.h"

namespace npc {

struct IntentAgentState {
  ActionAccess access;     // own action list + influences (36 bytes)
  IntentionQueue queue;    // the decision tree (kMaxIntentions intentions)
};

}  // namespace npc
