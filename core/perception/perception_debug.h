// Debug view of one agent's perception for GetAgent / describeAgent: the visibility list,
// the memory list, potential targets with their coefficients, sound targets, the attention
// target, the sensors and the drop counters. Lists are sorted by target id so two dumps of
// the same state are identical. Times are relative to now_s ("expires_in_s").
//
// {"sensors": {"vision": true, ..., "soft_cover_persist_s": 3.7}, "group": 0,
//  "full_updates": 12, "next_full_update_tick": 13,
//  "visible":   [{"target": 7, "coefficient": 10, "threat": 1, "position": [x, y, z],
//                 "distance_m": 12.5, "visible_for_s": 0.4, "soft_cover_for_s": null}],
//  "memory":    [{"target": 8, "coefficient": 9.6, "threat": 1, "position": [...],
//                 "expires_in_s": 4.2}],
//  "potential": [{"target": 9, "coefficient": 3.1, "threat": 1, "position": [...],
//                 "suspicious": false}],
//  "sounds":    [{"source": 9, "kind": "footstep", "position": [...], "threat": 0.5,
//                 "expires_in_s": 1.5}],
//  "attention": {"class": "visible", "target": 7, "position": [...], "threat": 1} | null,
//  "dropped":   {"tracks": 0, "sound_targets": 0, "candidates_truncated": 0}}
#pragma once

#include <nlohmann/json.hpp>

#include "perception/perception_state.h"

namespace npc {

nlohmann::json describePerception(const PerceptionState& state, double now_s);

}  // namespace npc
