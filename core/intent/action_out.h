// Maps a ClientActionStart to the ActionOut record the tick output and the gRPC stream
// already carry (core/sim/tick_output.h). Header-only dependency on those plain structs.
//
// Argument mapping (ActionParam has four types):
//   kEntity → kEntity;  kValue → kNumber with its unit;  kPosition → kPosition (the
//   argument's place is dropped: ActionOut.place is the agent's);  kEntityType, kMessage →
//   kText;  kGroup → kNumber with unit "group".
// An argument without a name is named after its role ("param", "invoker", "receiver").
#pragma once

#include "intent/action_registry.h"
#include "intent/action_scheduler.h"
#include "sim/tick_output.h"

namespace npc {

void toActionOut(const ClientActionStart& start, const ClientParamNames& names, ActionOut& out);
ActionParam toActionParam(const ActionArg& arg, const ClientParamNames& names);

}  // namespace npc
