// JSON debug views for GetAgent and logs. Allocate freely: never call per tick.
#pragma once

#include <nlohmann/json.hpp>

#include "intent/action_registry.h"
#include "intent/intent_agent_state.h"

namespace npc {

// One argument: {"type":"value","role":"param","name":"delay","value":10,"unit":"min"}.
nlohmann::json describe(const ActionArg& arg, const NameTable<ActionNameId>& names);
// One intention: id, action, phase, date, started, progress, timeout, flags, source, args.
nlohmann::json describe(const Intention& intention, const ActionRegistry& registry,
                        double now_s);
// The queue, chronological: {"current": id|null, "size", "capacity", "overflow",
// "busy_until_s", "intentions": [...]}.
nlohmann::json describe(const IntentionQueue& queue, const ActionRegistry& registry,
                        double now_s);
// {"own": "Baker"|null, "influences": [{"name", "priority"}], "refused"}.
nlohmann::json describe(const ActionAccess& access, const ActionRegistry& registry);
// {"actions": describe(access), "queue": describe(queue)}.
nlohmann::json describe(const IntentAgentState& state, const ActionRegistry& registry,
                        double now_s);

}  // namespace npc
